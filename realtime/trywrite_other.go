//go:build !unix

package realtime

import (
	"net"
	"syscall"
)

// rawConnOf offers nothing here: every write goes through a writer
// goroutine.
func rawConnOf(net.Conn) syscall.RawConn { return nil }

// tryWrite writes nothing here: every write goes through a writer goroutine.
func tryWrite(syscall.RawConn, []byte) (int, bool, error) { return 0, false, nil }

// tryRead is not used here (no poller).
func tryRead(syscall.RawConn, []byte) (int, error) { return 0, errNoDescriptor }

func connFD(syscall.RawConn) (int, bool) { return 0, false }
