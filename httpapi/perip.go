package httpapi

import (
	"encoding/json"
	"errors"
	"net"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// LimitPerIP caps the connections open at once from one client address at
// max (Config.MaxConnsPerIP; max ≤ 0 returns ln unchanged). A connection
// over the cap is answered 429 in the envelope of docs/protocol.md §1, with
// Retry-After, and closed.
//
// fasthttp has the same cap built in (Server.MaxConnsPerIP), but its
// wrapper goes back to a pool when closed, and Server.Shutdown closes idle
// connections while a request may be starting on one: the worker then used
// the emptied wrapper and the process died in the middle of a drain
// (TestDrainProcess in a clean-clone CI: SIGSEGV in
// perIPConn.SetReadDeadline, fasthttp v1.74.0). Its wrapper also hides the
// socket's descriptor, which the websockets' non-blocking writes and shared
// poller need. These connections are never reused, and pass the descriptor
// through.
func LimitPerIP(ln net.Listener, max int) net.Listener {
	if max <= 0 {
		return ln
	}
	return &perIPListener{Listener: ln, max: max, open: make(map[string]int)}
}

// perIPListener is LimitPerIP's listener. Concurrency: mu guards open.
type perIPListener struct {
	net.Listener
	max int

	mu   sync.Mutex
	open map[string]int // connections open per client address
}

// Accept answers the next connection under the cap; one over it is refused
// off the accept loop and the next one is waited for.
func (l *perIPListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		ip := clientAddr(c.RemoteAddr())
		l.mu.Lock()
		if l.open[ip] >= l.max {
			l.mu.Unlock()
			go refuseConn(c)
			continue
		}
		l.open[ip]++
		l.mu.Unlock()
		return &perIPConn{Conn: c, l: l, ip: ip}, nil
	}
}

// Open is how many connections from ip are open (tests).
func (l *perIPListener) Open(ip string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.open[ip]
}

func (l *perIPListener) release(ip string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[ip] <= 1 {
		delete(l.open, ip)
		return
	}
	l.open[ip]--
}

// clientAddr is the host of a remote address (the whole text when it has no
// port).
func clientAddr(a net.Addr) string {
	if a == nil {
		return ""
	}
	host, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	return host
}

// MsgTooManyConns answers a connection over the per-address cap.
const MsgTooManyConns = "Too many connections from your address. Please try again in a moment."

// tooManyConnsRetry is the Retry-After of a refused connection, in seconds.
const tooManyConnsRetry = 1

// tooManyConns is the whole answer to a refused connection.
var tooManyConns = func() []byte {
	body, _ := json.Marshal(errorBody{Status: "error", Message: MsgTooManyConns, RetryAfter: tooManyConnsRetry})
	return []byte("HTTP/1.1 429 Too Many Requests\r\n" +
		"Content-Type: application/json; charset=utf-8\r\n" +
		"Retry-After: " + strconv.Itoa(tooManyConnsRetry) + "\r\n" +
		"Content-Length: " + strconv.Itoa(len(body)) + "\r\n" +
		"Connection: close\r\n\r\n" + string(body))
}()

// refuseConn answers 429 and closes; a client that does not read gets
// nothing after a second.
func refuseConn(c net.Conn) {
	_ = c.SetWriteDeadline(time.Now().Add(time.Second))
	_, _ = c.Write(tooManyConns)
	_ = c.Close()
}

// perIPConn is a connection counted under its address until closed once.
type perIPConn struct {
	net.Conn
	l    *perIPListener
	ip   string
	once sync.Once
}

// Close closes the connection and, the first time, frees its place.
func (c *perIPConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.l.release(c.ip) })
	return err
}

// errNoDescriptor: the connection underneath has no file descriptor.
var errNoDescriptor = errors.New("httpapi: connection has no descriptor")

// SyscallConn is the descriptor of the connection underneath (the
// websockets' non-blocking writes and poller use it).
func (c *perIPConn) SyscallConn() (syscall.RawConn, error) {
	sc, ok := c.Conn.(syscall.Conn)
	if !ok {
		return nil, errNoDescriptor
	}
	return sc.SyscallConn()
}
