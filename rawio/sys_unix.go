//go:build unix && !linux

package rawio

import (
	"errors"
	"io"
	"syscall"
)

// Elsewhere the wrappers change nothing; TryRead and TryWrite make the
// ordinary system calls.
const enabled = false

func readOnce(fd uintptr, p []byte) (n int, ready bool, err error) {
	for {
		m, e := syscall.Read(int(fd), p)
		switch {
		case e == nil && m == 0:
			return 0, true, io.EOF
		case e == nil:
			return m, true, nil
		case errors.Is(e, syscall.EINTR):
			continue
		case errors.Is(e, syscall.EAGAIN):
			return 0, false, nil
		default:
			return 0, true, e
		}
	}
}

func writeSome(fd uintptr, p []byte, n int) (int, bool, error) {
	for n < len(p) {
		m, e := syscall.Write(int(fd), p[n:])
		if m > 0 {
			n += m
		}
		switch {
		case e == nil:
		case errors.Is(e, syscall.EINTR):
		case errors.Is(e, syscall.EAGAIN):
			return n, false, nil
		default:
			return n, true, e
		}
	}
	return n, true, nil
}

func peekNothing(fd uintptr) bool {
	var b [1]byte
	for {
		_, _, err := syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		return errors.Is(err, syscall.EAGAIN)
	}
}
