//go:build !unix

package realtime

import "net"

// tryWrite writes nothing here: every write goes through a writer goroutine.
func tryWrite(net.Conn, []byte) (int, bool, error) { return 0, false, nil }

// tryRead is not used here (no poller).
func tryRead(net.Conn, []byte) (int, error) { return 0, errNoDescriptor }

func connFD(net.Conn) (int, bool) { return 0, false }
