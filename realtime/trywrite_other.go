//go:build !unix

package realtime

import "net"

// tryWrite writes nothing here: every write goes through a writer goroutine.
func tryWrite(net.Conn, []byte) (int, bool, error) { return 0, false, nil }
