package mail

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"campus/domain"
	"campus/mail/smtptest"
)

// received is one message as the test server saw it.
type received struct {
	from string
	to   []string
	data []byte
	user string // authenticated user, "" when none
	tls  bool
}

// backend is an SMTP server's store: it accepts mail (after AUTH when user is
// set) and keeps what arrives.
type backend struct {
	user, pass string

	mu   sync.Mutex
	got  []received
	auth []string // every AUTH attempt's user name
}

func (b *backend) NewSession(c *smtp.Conn) (smtp.Session, error) {
	return &session{b: b, conn: c}, nil
}

func (b *backend) messages() []received {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]received(nil), b.got...)
}

type session struct {
	b    *backend
	conn *smtp.Conn
	cur  received
}

func (s *session) AuthMechanisms() []string {
	if s.b.user == "" {
		return nil
	}
	return []string{sasl.Plain}
}

func (s *session) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, pass string) error {
		s.b.mu.Lock()
		s.b.auth = append(s.b.auth, user)
		s.b.mu.Unlock()
		if user != s.b.user || pass != s.b.pass {
			return errors.New("invalid credentials")
		}
		s.cur.user = user
		return nil
	}), nil
}

func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	if s.b.user != "" && s.cur.user == "" {
		return smtp.ErrAuthRequired
	}
	s.cur.from = from
	return nil
}

func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.cur.to = append(s.cur.to, to)
	return nil
}

func (s *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	_, s.cur.tls = s.conn.TLSConnectionState()
	s.cur.data = b
	s.b.mu.Lock()
	s.b.got = append(s.b.got, s.cur)
	s.b.mu.Unlock()
	s.cur = received{user: s.cur.user}
	return nil
}

func (s *session) Reset()        { s.cur = received{user: s.cur.user} }
func (s *session) Logout() error { return nil }

// serverOpts says how the test server listens.
type serverOpts struct {
	user, pass  string
	insecure    bool        // allow AUTH without TLS
	startTLS    *tls.Config // offer STARTTLS
	implicitTLS *tls.Config // TLS from the first byte
}

// startServer runs a real SMTP server on 127.0.0.1 for the test's duration
// and returns its port.
func startServer(t *testing.T, o serverOpts) (*backend, int) {
	t.Helper()
	be := &backend{user: o.user, pass: o.pass}
	srv := smtp.NewServer(be)
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = o.insecure
	srv.TLSConfig = o.startTLS
	srv.ErrorLog = log.New(io.Discard, "", 0)
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if o.implicitTLS != nil {
		ln = tls.NewListener(ln, o.implicitTLS)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(ln)
	}()
	t.Cleanup(func() {
		_ = srv.Close()
		<-done
	})
	return be, ln.Addr().(*net.TCPAddr).Port
}

// testCert is a certificate for 127.0.0.1 and the pool that trusts it,
// borrowed from net/http/httptest.
func testCert(t *testing.T) (*tls.Config, *x509.CertPool) {
	t.Helper()
	hs := httptest.NewUnstartedServer(http.NotFoundHandler())
	hs.StartTLS()
	t.Cleanup(hs.Close)
	pool := x509.NewCertPool()
	pool.AddCert(hs.Certificate())
	return &tls.Config{Certificates: hs.TLS.Certificates, MinVersion: tls.VersionTLS12}, pool
}

const testFrom = "Campus <no-reply@campus.test>"

func TestSMTPSendsCode(t *testing.T) {
	serverTLS, roots := testCert(t)
	tests := []struct {
		name     string
		opts     serverOpts
		url      string // %d is the port
		wantUser string
		wantTLS  bool
	}{
		{name: "plain auth to a loopback server without TLS",
			opts: serverOpts{user: "mailer", pass: "p@ss:w/rd", insecure: true},
			url:  "smtp://mailer:p%40ss%3Aw%2Frd@127.0.0.1:%d", wantUser: "mailer"},
		{name: "no credentials, no auth",
			opts: serverOpts{},
			url:  "smtp://127.0.0.1:%d"},
		{name: "STARTTLS when offered; the server allows AUTH only over TLS",
			opts: serverOpts{user: "mailer", pass: "secret", startTLS: serverTLS},
			url:  "smtp://mailer:secret@127.0.0.1:%d", wantUser: "mailer", wantTLS: true},
		{name: "smtps: TLS from the first byte",
			opts: serverOpts{user: "mailer", pass: "secret", implicitTLS: serverTLS},
			url:  "smtps://mailer:secret@127.0.0.1:%d", wantUser: "mailer", wantTLS: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			be, port := startServer(t, tt.opts)
			s, err := NewSMTP(strings.Replace(tt.url, "%d", strconv.Itoa(port), 1), testFrom)
			if err != nil {
				t.Fatalf("NewSMTP: %v", err)
			}
			s.roots = roots
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			m := CodeMessage("Campus", "asha@uni.edu", "271828", domain.PurposeEmailChange)
			if err := s.Send(ctx, m); err != nil {
				t.Fatalf("Send: %v", err)
			}

			got := be.messages()
			if len(got) != 1 {
				t.Fatalf("server received %d messages, want 1", len(got))
			}
			r := got[0]
			if r.from != "no-reply@campus.test" || len(r.to) != 1 || r.to[0] != "asha@uni.edu" {
				t.Errorf("envelope from %q to %v", r.from, r.to)
			}
			if r.user != tt.wantUser || r.tls != tt.wantTLS {
				t.Errorf("user %q tls %v, want %q %v", r.user, r.tls, tt.wantUser, tt.wantTLS)
			}
			body := parse(t, r.data)
			if body.header.Get("Subject") != m.Subject {
				t.Errorf("Subject = %q", body.header.Get("Subject"))
			}
			for _, want := range []string{"271828", "change your e-mail address", "10 minutes"} {
				if !strings.Contains(body.text, want) {
					t.Errorf("received text lacks %q:\n%s", want, body.text)
				}
			}
		})
	}
}

func TestSMTPFailures(t *testing.T) {
	t.Run("wrong password", func(t *testing.T) {
		be, port := startServer(t, serverOpts{user: "mailer", pass: "secret", insecure: true})
		s, err := NewSMTP("smtp://mailer:wrong@127.0.0.1:"+strconv.Itoa(port), testFrom)
		if err != nil {
			t.Fatal(err)
		}
		err = s.Send(context.Background(), Message{To: "a@b.co", Subject: "s", Text: "t"})
		if err == nil || !strings.Contains(err.Error(), "AUTH") {
			t.Errorf("err = %v, want an AUTH failure", err)
		}
		if strings.Contains(err.Error(), "wrong") {
			t.Errorf("error %q shows the password", err)
		}
		if len(be.messages()) != 0 {
			t.Error("message delivered without authentication")
		}
	})
	t.Run("credentials but the server offers no AUTH", func(t *testing.T) {
		be, port := startServer(t, serverOpts{})
		s, err := NewSMTP("smtp://mailer:secret@127.0.0.1:"+strconv.Itoa(port), testFrom)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Send(context.Background(), Message{To: "a@b.co", Text: "t"}); err == nil {
			t.Error("sent without the authentication the URL asks for")
		}
		if len(be.messages()) != 0 {
			t.Error("message delivered")
		}
	})
	t.Run("untrusted certificate", func(t *testing.T) {
		serverTLS, _ := testCert(t)
		_, port := startServer(t, serverOpts{startTLS: serverTLS})
		s, err := NewSMTP("smtp://127.0.0.1:"+strconv.Itoa(port), testFrom)
		if err != nil {
			t.Fatal(err)
		}
		// s.roots stays nil: the system roots do not know the test CA.
		err = s.Send(context.Background(), Message{To: "a@b.co", Text: "t"})
		var unknown x509.UnknownAuthorityError
		if !errors.As(err, &unknown) {
			t.Errorf("err = %v, want an unknown-authority error", err)
		}
	})
}

// TestSMTPHonoursContext points the mailer at a server that accepts the
// connection and then says nothing, as a hung relay would.
func TestSMTPHonoursContext(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var conns sync.WaitGroup
	conns.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Go(func() {
				_, _ = io.Copy(io.Discard, c) // returns when the client hangs up
				_ = c.Close()
			})
		}
	})
	t.Cleanup(func() {
		_ = ln.Close()
		conns.Wait()
	})
	s, err := NewSMTP("smtp://127.0.0.1:"+strconv.Itoa(ln.Addr().(*net.TCPAddr).Port), testFrom)
	if err != nil {
		t.Fatal(err)
	}
	m := Message{To: "a@b.co", Text: "t"}

	tests := []struct {
		name string
		ctx  func() (context.Context, context.CancelFunc)
		want error
	}{
		{"deadline", func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 200*time.Millisecond)
		}, context.DeadlineExceeded},
		{"cancellation without a deadline", func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(200*time.Millisecond, cancel)
			return ctx, cancel
		}, context.Canceled},
		{"already cancelled", func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx, cancel
		}, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := tt.ctx()
			defer cancel()
			start := time.Now()
			err := s.Send(ctx, m)
			if !errors.Is(err, tt.want) {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
			if took := time.Since(start); took > 5*time.Second {
				t.Errorf("Send returned after %v; the context ended at 200ms", took)
			}
		})
	}
}

func TestNewSMTPRejects(t *testing.T) {
	tests := []struct {
		name, url, from, want string
	}{
		{"wrong scheme", "http://mail.uni.edu", testFrom, `scheme "http"`},
		{"no scheme", "mail.uni.edu:587", testFrom, "scheme"},
		{"no host", "smtp://", testFrom, "no host"},
		{"port only", "smtp://:587", testFrom, "no host"},
		{"port zero", "smtp://mail.uni.edu:0", testFrom, "port"},
		{"port too big", "smtps://mail.uni.edu:70000", testFrom, "port"},
		{"port not a number", "smtp://user:hunter2@mail.uni.edu:abc", testFrom, "port"},
		{"a path", "smtp://mail.uni.edu/relay", testFrom, "path"},
		{"a query", "smtp://mail.uni.edu?tls=off", testFrom, "query"},
		{"password without user", "smtp://:hunter2@mail.uni.edu", testFrom, "user name"},
		{"bad sender", "smtp://mail.uni.edu", "campus", "from address"},
		{"unparseable", "smtp://user:hunter2@mail uni.edu", testFrom, "smtp url"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewSMTP(tt.url, tt.from)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want one mentioning %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "hunter2") {
				t.Errorf("error %q shows the password", err)
			}
		})
	}
}

func TestNewSMTPDefaults(t *testing.T) {
	tests := []struct {
		url      string
		port     int
		implicit bool
		user     string
	}{
		{"smtp://mail.uni.edu", 587, false, ""},
		{"smtps://mail.uni.edu", 465, true, ""},
		{"smtp://u:p@mail.uni.edu:25/", 25, false, "u"},
		{"smtps://[::1]:2465", 2465, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			s, err := NewSMTP(tt.url, testFrom)
			if err != nil {
				t.Fatal(err)
			}
			if s.port != tt.port || s.implicitTLS != tt.implicit || s.user != tt.user {
				t.Errorf("port %d implicit %v user %q", s.port, s.implicitTLS, s.user)
			}
		})
	}
}

// TestSMTPPermanent: which failures a retry may cure. A 5xx refusal and a
// malformed message never will; a 4xx reply or a server that is down may.
func TestSMTPPermanent(t *testing.T) {
	refuse := func(code int) func(string) error {
		return func(string) error { return &smtp.SMTPError{Code: code, Message: "refused"} }
	}
	good := Message{To: "a@b.co", Subject: "s", Text: "t"}
	tests := []struct {
		name      string
		addr      func(t testing.TB) string
		m         Message
		permanent bool
	}{
		{"550 unknown mailbox", func(t testing.TB) string {
			return smtptest.Start(t, smtptest.Options{Reject: refuse(550)}).Addr()
		}, good, true},
		{"451 try later", func(t testing.TB) string {
			return smtptest.Start(t, smtptest.Options{Reject: refuse(451)}).Addr()
		}, good, false},
		{"550 sender refused: every message alike, for an operator to fix", func(t testing.TB) string {
			return smtptest.Start(t, smtptest.Options{RejectSender: refuse(550)}).Addr()
		}, good, false},
		{"server down", smtptest.ClosedAddr, good, false},
		{"malformed message", smtptest.ClosedAddr, Message{To: "a@b.co", Subject: "s\nBcc: x@y.co", Text: "t"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := NewSMTP("smtp://"+tt.addr(t), testFrom)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			err = s.Send(ctx, tt.m)
			if err == nil {
				t.Fatal("Send succeeded")
			}
			if Permanent(err) != tt.permanent {
				t.Fatalf("Permanent(%v) = %v, want %v", err, !tt.permanent, tt.permanent)
			}
		})
	}
}

// TestSMTPAcceptedThenConnectionLost: once the server has answered DATA with
// 250 the message is delivered; a connection lost before RSET or QUIT must
// not be reported, or a retrying caller would send it twice. The server is
// scripted, since a real one does not drop the line on cue.
func TestSMTPAcceptedThenConnectionLost(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	accepted := make(chan int, 1)
	var served sync.WaitGroup
	served.Go(func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		r := bufio.NewReader(c)
		reply := func(s string) { _, _ = io.WriteString(c, s+"\r\n") }
		reply("220 localhost ESMTP")
		n := 0
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				accepted <- n
				return
			}
			switch cmd := strings.ToUpper(strings.TrimSpace(line)); {
			case strings.HasPrefix(cmd, "EHLO"), strings.HasPrefix(cmd, "HELO"):
				reply("250 localhost")
			case strings.HasPrefix(cmd, "MAIL"), strings.HasPrefix(cmd, "RCPT"), cmd == "NOOP":
				reply("250 OK")
			case cmd == "DATA":
				reply("354 go ahead")
				for {
					l, err := r.ReadString('\n')
					if err != nil || l == ".\r\n" {
						break
					}
				}
				n++
				reply("250 OK queued")
			default: // RSET, QUIT: the line drops
				accepted <- n
				return
			}
		}
	})
	t.Cleanup(func() {
		_ = ln.Close()
		served.Wait()
	})
	s, err := NewSMTP("smtp://"+ln.Addr().String(), testFrom)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.Send(ctx, Message{To: "a@b.co", Subject: "s", Text: "t"}); err != nil {
		t.Fatalf("Send after the server accepted the message: %v", err)
	}
	if n := <-accepted; n != 1 {
		t.Fatalf("server accepted %d messages, want 1", n)
	}
}
