//go:build unix

package realtime

import (
	"errors"
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
