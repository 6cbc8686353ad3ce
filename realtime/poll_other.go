//go:build !linux

package realtime

import "errors"

// poller is Linux-only (epoll); elsewhere every socket has a reader
// goroutine.
type poller struct{}

func newPoller() (*poller, error) { return nil, errors.New("realtime: no poller on this system") }

func (*poller) add(int, func()) error { return errors.New("realtime: no poller") }
func (*poller) rearm(int) error       { return errors.New("realtime: no poller") }
func (*poller) remove(int)            {}
