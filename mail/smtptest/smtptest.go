// Package smtptest runs a real SMTP server (emersion/go-smtp) on the
// loopback interface for tests, the way net/http/httptest runs an HTTP one:
// what arrives is kept for the test to read. Only test code imports it.
package smtptest

import (
	"bytes"
	"io"
	"log"
	"net"
	netmail "net/mail"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

// Message is one message as the server received it.
type Message struct {
	From      string
	To        []string
	Data      []byte // the raw RFC 5322 message
	MessageID string // its Message-ID header, "" if it had none
}

// Options say how the server behaves.
type Options struct {
	// Addr is where to listen; "" picks a free loopback port. Tests that
	// bring a server "back" pass the address the mailer already points at.
	Addr string
	// Delay holds every DATA this long before accepting it, so that sends
	// overlap and a stop can catch one in flight.
	Delay time.Duration
	// Reject, when set, may refuse a recipient: a non-nil error (use
	// *smtp.SMTPError for a reply code) answers RCPT TO.
	Reject func(to string) error
	// RejectSender, when set, may refuse the sender the same way at MAIL FROM.
	RejectSender func(from string) error
}

// Server is a running test SMTP server.
type Server struct {
	o    Options
	srv  *smtp.Server
	addr string
	done chan struct{}

	mu     sync.Mutex
	got    []Message
	inData int
}

// Start runs a server until the test ends (or Close).
func Start(t testing.TB, o Options) *Server {
	t.Helper()
	addr := o.Addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("smtptest: listen: %v", err)
	}
	s := &Server{o: o, addr: ln.Addr().String(), done: make(chan struct{})}
	s.srv = smtp.NewServer(backend{s})
	s.srv.Domain = "localhost"
	s.srv.ErrorLog = log.New(io.Discard, "", 0)
	s.srv.ReadTimeout, s.srv.WriteTimeout = 10*time.Second, 10*time.Second
	go func() {
		defer close(s.done)
		_ = s.srv.Serve(ln)
	}()
	t.Cleanup(s.Close)
	return s
}

// ClosedAddr returns a loopback address nothing listens on: a mail server
// that is down. Start(Options{Addr: it}) brings it up later.
func ClosedAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("smtptest: listen: %v", err)
	}
	addr := ln.Addr().String()
	if err := ln.Close(); err != nil {
		t.Fatalf("smtptest: close: %v", err)
	}
	return addr
}

// Addr is the host:port the server listens on.
func (s *Server) Addr() string { return s.addr }

// Close stops the server and waits for it; calling it again is harmless.
func (s *Server) Close() {
	_ = s.srv.Close()
	<-s.done
}

// Messages returns what has arrived so far, oldest first.
func (s *Server) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.got...)
}

// InData is how many DATA commands have begun (accepted or not).
func (s *Server) InData() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.inData
}

type backend struct{ s *Server }

func (b backend) NewSession(*smtp.Conn) (smtp.Session, error) { return &session{s: b.s}, nil }

type session struct {
	s   *Server
	cur Message
}

func (se *session) Mail(from string, _ *smtp.MailOptions) error {
	if se.s.o.RejectSender != nil {
		if err := se.s.o.RejectSender(from); err != nil {
			return err
		}
	}
	se.cur.From = from
	return nil
}

func (se *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	if se.s.o.Reject != nil {
		if err := se.s.o.Reject(to); err != nil {
			return err
		}
	}
	se.cur.To = append(se.cur.To, to)
	return nil
}

func (se *session) Data(r io.Reader) error {
	se.s.mu.Lock()
	se.s.inData++
	se.s.mu.Unlock()
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	time.Sleep(se.s.o.Delay) // the server is slow to answer: part of the scenario, not synchronisation
	m := se.cur
	m.Data = b
	if msg, err := netmail.ReadMessage(bytes.NewReader(b)); err == nil {
		m.MessageID = msg.Header.Get("Message-Id")
	}
	se.s.mu.Lock()
	se.s.got = append(se.s.got, m)
	se.s.mu.Unlock()
	se.cur = Message{}
	return nil
}

func (se *session) Reset()        { se.cur = Message{} }
func (se *session) Logout() error { return nil }
