//go:build linux

package rawio

import (
	"io"
	"syscall"
	"unsafe"
)

const enabled = true

// readOnce reads once from the non-blocking descriptor: ready is false
// when there was nothing to read (EAGAIN), and the caller may wait.
func readOnce(fd uintptr, p []byte) (n int, ready bool, err error) {
	for {
		r, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
		switch e {
		case 0:
			if r == 0 {
				return 0, true, io.EOF
			}
			return int(r), true, nil
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return 0, false, nil
		default:
			return 0, true, e
		}
	}
}

// writeSome writes p[n:] to the non-blocking descriptor until all of it
// is written (done) or the send buffer is full (not done, nil error), and
// answers the new n.
func writeSome(fd uintptr, p []byte, n int) (int, bool, error) {
	for n < len(p) {
		r, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&p[n])), uintptr(len(p)-n))
		switch e {
		case 0:
			n += int(r)
		case syscall.EINTR:
		case syscall.EAGAIN:
			return n, false, nil
		default:
			return n, true, e
		}
	}
	return n, true, nil
}

// peekNothing peeks at the descriptor without waiting: true when there is
// nothing to read yet.
func peekNothing(fd uintptr) bool {
	var b [1]byte
	for {
		_, _, e := syscall.RawSyscall6(syscall.SYS_RECVFROM, fd, uintptr(unsafe.Pointer(&b[0])), 1,
			syscall.MSG_PEEK|syscall.MSG_DONTWAIT, 0, 0)
		if e == syscall.EINTR {
			continue
		}
		return e == syscall.EAGAIN
	}
}
