//go:build unix

package realtime

import (
	"net"
	"syscall"

	"campus/rawio"
)

// rawConnOf is the connection's descriptor access, taken once per socket
// (net.TCPConn makes a new one on every call); nil when the connection
// offers none, and then every write goes through a writer goroutine.
func rawConnOf(nc net.Conn) syscall.RawConn {
	sc, is := nc.(syscall.Conn)
	if !is {
		return nil
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nil
	}
	return rc
}

// tryWrite writes b to the connection without waiting (rawio.TryWrite: a
// raw system call under the descriptor's write lock): n is what the kernel
// took, all of b unless the socket's send buffer is full. ok is false when
// there is no descriptor (rc nil: then nothing was written and the caller
// writes the usual way). A deadline that has passed (an abort) fails it.
func tryWrite(rc syscall.RawConn, b []byte) (n int, ok bool, err error) {
	if rc == nil {
		return 0, false, nil
	}
	n, err = rawio.TryWrite(rc, b)
	return n, true, err
}

// tryRead reads what the socket holds without waiting: n is 0 with a nil
// error when there is nothing to read now; io.EOF when the peer is gone.
func tryRead(rc syscall.RawConn, b []byte) (n int, err error) {
	if rc == nil {
		return 0, errNoDescriptor
	}
	return rawio.TryRead(rc, b)
}

// connFD is the descriptor of a connection, for the poller.
func connFD(rc syscall.RawConn) (int, bool) {
	if rc == nil {
		return 0, false
	}
	fd := -1
	if rc.Control(func(f uintptr) { fd = int(f) }) != nil || fd < 0 {
		return 0, false
	}
	return fd, true
}
