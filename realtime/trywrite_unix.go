//go:build unix

package realtime

import (
	"errors"
	"io"
	"net"
	"syscall"
)

// tryWrite writes b to the connection without waiting: n is what the
// kernel took, all of b unless the socket's send buffer is full. ok is
// false when the connection does not offer its descriptor (then nothing was
// written and the caller writes the usual way). It takes the descriptor's
// write lock like any Write, so it never interleaves with one; a deadline
// that has passed (an abort) fails it.
func tryWrite(nc net.Conn, b []byte) (n int, ok bool, err error) {
	sc, is := nc.(syscall.Conn)
	if !is {
		return 0, false, nil
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return 0, false, nil
	}
	var werr error
	err = rc.Write(func(fd uintptr) bool {
		for n < len(b) {
			m, e := syscall.Write(int(fd), b[n:])
			if m > 0 {
				n += m
			}
			switch {
			case e == nil:
			case errors.Is(e, syscall.EINTR):
			case errors.Is(e, syscall.EAGAIN):
				return true // full: the rest waits for a writer
			default:
				werr = e
				return true
			}
		}
		return true // never wait for the descriptor
	})
	if err == nil {
		err = werr
	}
	return n, true, err
}

// tryRead reads what the socket holds without waiting: n is 0 with a nil
// error when there is nothing to read now; io.EOF when the peer is gone.
func tryRead(nc net.Conn, b []byte) (n int, err error) {
	sc, is := nc.(syscall.Conn)
	if !is {
		return 0, errNoDescriptor
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return 0, err
	}
	var rerr error
	err = rc.Read(func(fd uintptr) bool {
		for {
			m, e := syscall.Read(int(fd), b)
			switch {
			case e == nil && m == 0:
				rerr = io.EOF
			case e == nil:
				n = m
			case errors.Is(e, syscall.EINTR):
				continue
			case errors.Is(e, syscall.EAGAIN):
			default:
				rerr = e
			}
			return true // never wait for the descriptor
		}
	})
	if err == nil {
		err = rerr
	}
	return n, err
}

// connFD is the descriptor of a connection, for the poller.
func connFD(nc net.Conn) (int, bool) {
	sc, is := nc.(syscall.Conn)
	if !is {
		return 0, false
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return 0, false
	}
	fd := -1
	if rc.Control(func(f uintptr) { fd = int(f) }) != nil || fd < 0 {
		return 0, false
	}
	return fd, true
}
