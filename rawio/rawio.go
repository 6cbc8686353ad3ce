// Package rawio reads and writes the process's sockets with raw system
// calls. Go's sockets do not block (the runtime's poller waits for them),
// yet every read and write still goes through the scheduler's syscall entry
// and exit, which assumes the call may block: the first such call after the
// process was idle wakes the runtime's monitor thread, which then polls every
// 20 µs for a millisecond or more, and a call that is still in the kernel at
// one of those polls has its P handed to another thread. On loopback a
// write also runs the receiver's side of TCP, tens of microseconds on the
// two-core VMs the bench runs on, so the campus event's 10,000 writes a
// second kept the monitor and the handoffs busy: in a CPU profile of the
// server (perf, the paced event) the monitor's sleeps alone were 8-11 % of
// its time, with futex wakes and thread switches beside them.
//
// Here a read or write is one raw system call on the non-blocking socket,
// under the descriptor's read or write lock as Go's own, and the goroutine
// keeps its P through it; only when the socket is not ready does it wait,
// through the runtime's poller like any read or write (deadlines hold).
// Listener and Conn wrap connections so; TryRead and TryWrite never wait.
//
// Only Linux gets the raw calls; elsewhere the wrappers change nothing and
// TryRead/TryWrite use the ordinary system calls.
package rawio

import (
	"io"
	"net"
	"os"
	"syscall"
)

// Listener wraps ln: the TCP and Unix connections it accepts read and
// write with raw system calls (Conn).
func Listener(ln net.Listener) net.Listener {
	if !enabled {
		return ln
	}
	return &listener{Listener: ln}
}

type listener struct{ net.Listener }

func (l *listener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return Conn(c), nil
}

// Conn wraps c, a *net.TCPConn or *net.UnixConn, so that its Read and Write
// are raw system calls; its other methods are c's. Any other connection,
// and every connection where there are no raw calls, is answered as it is.
func Conn(c net.Conn) net.Conn {
	if !enabled {
		return c
	}
	switch t := c.(type) {
	case *net.TCPConn:
		rc, err := t.SyscallConn()
		if err != nil {
			return c
		}
		return &tcpConn{TCPConn: t, rc: rc}
	case *net.UnixConn:
		rc, err := t.SyscallConn()
		if err != nil {
			return c
		}
		return &unixConn{UnixConn: t, rc: rc}
	}
	return c
}

// tcpConn is a TCP connection whose Read and Write are raw (it keeps the
// rest of *net.TCPConn: ReadFrom's sendfile, CloseWrite, SetNoDelay…).
type tcpConn struct {
	*net.TCPConn
	rc syscall.RawConn
}

func (c *tcpConn) Read(p []byte) (int, error) {
	n, err := read(c.rc, p)
	return n, opError("read", c, err)
}

func (c *tcpConn) Write(p []byte) (int, error) {
	n, err := write(c.rc, p)
	return n, opError("write", c, err)
}

// SyscallConn is the descriptor's access, taken once.
func (c *tcpConn) SyscallConn() (syscall.RawConn, error) { return c.rc, nil }

// unixConn is tcpConn's twin for Unix sockets (a local Postgres).
type unixConn struct {
	*net.UnixConn
	rc syscall.RawConn
}

func (c *unixConn) Read(p []byte) (int, error) {
	n, err := read(c.rc, p)
	return n, opError("read", c, err)
}

func (c *unixConn) Write(p []byte) (int, error) {
	n, err := write(c.rc, p)
	return n, opError("write", c, err)
}

func (c *unixConn) SyscallConn() (syscall.RawConn, error) { return c.rc, nil }

// opError wraps err as net's own Read and Write do, so callers that look
// at a *net.OpError (a timeout, a closed connection) see what they would
// without the wrapper. io.EOF and nil stay as they are.
func opError(op string, c net.Conn, err error) error {
	if err == nil || err == io.EOF {
		return err
	}
	if errno, ok := err.(syscall.Errno); ok {
		err = os.NewSyscallError(op, errno)
	}
	return &net.OpError{Op: op, Net: c.LocalAddr().Network(), Source: c.LocalAddr(), Addr: c.RemoteAddr(), Err: err}
}

// TryWrite writes b to the socket without waiting: n is what the kernel
// took, all of b unless the send buffer filled up first (then the rest is
// the caller's to write the usual way). It takes the descriptor's write
// lock like any Write, so it never interleaves with one, and a deadline
// that has passed fails it.
func TryWrite(rc syscall.RawConn, b []byte) (n int, err error) {
	var werr error
	err = rc.Write(func(fd uintptr) bool {
		n, _, werr = writeSome(fd, b, n)
		return true // never wait for the descriptor
	})
	if err == nil {
		err = werr
	}
	return n, err
}

// TryRead reads what the socket holds without waiting: n is 0 with a nil
// error when there is nothing to read now; io.EOF when the peer is gone.
func TryRead(rc syscall.RawConn, b []byte) (n int, err error) {
	var rerr error
	err = rc.Read(func(fd uintptr) bool {
		n, _, rerr = readOnce(fd, b)
		return true // never wait for the descriptor
	})
	if err == nil {
		err = rerr
	}
	return n, err
}

// Idle reports whether the socket has nothing to read now (a pooled
// connection's health check: end of file, data or an error all mean the
// peer is gone or spoke out of turn), with one peek that does not wait and
// takes nothing.
func Idle(rc syscall.RawConn) bool {
	idle := false
	err := rc.Read(func(fd uintptr) bool {
		idle = peekNothing(fd)
		return true // never wait for the descriptor
	})
	return err == nil && idle
}

// read is a Read: one system call, or a wait for the socket through the
// runtime's poller while there is nothing to read.
func read(rc syscall.RawConn, p []byte) (n int, err error) {
	if len(p) == 0 {
		return 0, nil
	}
	var rerr error
	err = rc.Read(func(fd uintptr) bool {
		var ready bool
		n, ready, rerr = readOnce(fd, p)
		return ready
	})
	if err == nil {
		err = rerr
	}
	return n, err
}

// write is a Write: all of p, waiting for the socket through the runtime's
// poller whenever its send buffer is full.
func write(rc syscall.RawConn, p []byte) (n int, err error) {
	var werr error
	err = rc.Write(func(fd uintptr) bool {
		var done bool
		n, done, werr = writeSome(fd, p, n)
		return done || werr != nil
	})
	if err == nil {
		err = werr
	}
	return n, err
}
