package realtime

import (
	"errors"
	"net"
	"sync"
	"syscall"
	"time"
)

// Detach is the network connection under fasthttp's hijacked one, with
// whatever fasthttp had already read past the upgrade request in front of
// it. Reading through fasthttp's connection would keep its 8 KiB read
// buffer alive for as long as the socket lives; detached, an idle socket
// holds only the websocket's own small buffer. (The server keeps hijacked
// connections, so fasthttp lets go of the request as soon as the socket is
// set up and leaves closing the connection to us.)
func Detach(c net.Conn) net.Conn {
	u, ok := c.(interface{ UnsafeConn() net.Conn })
	if !ok {
		return c
	}
	raw := u.UnsafeConn()
	// Drain fasthttp's buffer without waiting: with a deadline in the past
	// a read that would have to wait for the network fails at once, and
	// what the buffer holds is still answered.
	if err := raw.SetReadDeadline(time.Unix(1, 0)); err != nil {
		return c
	}
	var early []byte
	buf := make([]byte, 512)
	for {
		n, err := c.Read(buf)
		early = append(early, buf[:n]...)
		if err != nil {
			break
		}
	}
	if err := raw.SetReadDeadline(time.Time{}); err != nil {
		return c
	}
	return &detachedConn{Conn: raw, early: early}
}

// detachedConn is a socket's network connection. Closing it twice, or
// setting a deadline after closing, must do nothing: a connection may be
// any net.Conn the server was given (a wrapper of its listener's), and
// some wrappers are reused once closed. The session closes it once its
// reader and writer have stopped; a slow-consumer abort may race with that
// and only sets deadlines.
type detachedConn struct {
	net.Conn
	early []byte // read before the connection (owned by the reader)

	mu     sync.Mutex
	closed bool
}

func (c *detachedConn) Read(p []byte) (int, error) {
	if len(c.early) > 0 {
		n := copy(p, c.early)
		c.early = c.early[n:]
		return n, nil
	}
	return c.Conn.Read(p)
}

// SyscallConn is the descriptor of the connection underneath, for the
// session's writes that must not wait (tryWrite).
func (c *detachedConn) SyscallConn() (syscall.RawConn, error) {
	sc, ok := c.Conn.(syscall.Conn)
	if !ok {
		return nil, errNoDescriptor
	}
	return sc.SyscallConn()
}

var errNoDescriptor = errors.New("realtime: connection has no descriptor")

func (c *detachedConn) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return net.ErrClosed
	}
	c.closed = true
	return c.Conn.Close()
}

func (c *detachedConn) SetDeadline(t time.Time) error {
	return c.ifOpen(func() error { return c.Conn.SetDeadline(t) })
}

func (c *detachedConn) SetReadDeadline(t time.Time) error {
	return c.ifOpen(func() error { return c.Conn.SetReadDeadline(t) })
}

func (c *detachedConn) SetWriteDeadline(t time.Time) error {
	return c.ifOpen(func() error { return c.Conn.SetWriteDeadline(t) })
}

func (c *detachedConn) ifOpen(fn func() error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return net.ErrClosed
	}
	return fn()
}
