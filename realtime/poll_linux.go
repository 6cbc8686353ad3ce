//go:build linux

package realtime

import (
	"errors"
	"fmt"
	"sync"

	"golang.org/x/sys/unix"
)

// poller tells sessions when their sockets have something to read, so that
// an idle socket needs no goroutine blocked in a read (docs/architecture.md §4.3): one
// epoll instance and one goroutine for the whole node. A socket is armed
// one-shot: after a report its session reads what is there, then re-arms.
// Safe for concurrent use; mu guards ready.
type poller struct {
	epfd  int
	mu    sync.Mutex
	ready map[int32]func()
}

func newPoller() (*poller, error) {
	fd, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("realtime: epoll: %w", err)
	}
	p := &poller{epfd: fd, ready: make(map[int32]func())}
	go p.run()
	return p, nil
}

const pollEvents = unix.EPOLLIN | unix.EPOLLRDHUP | unix.EPOLLONESHOT

// add arms fd; onReady runs on the poller's goroutine when fd is readable
// or hung up, and must not block.
func (p *poller) add(fd int, onReady func()) error {
	p.mu.Lock()
	p.ready[int32(fd)] = onReady
	p.mu.Unlock()
	ev := unix.EpollEvent{Events: pollEvents, Fd: int32(fd)}
	if err := unix.EpollCtl(p.epfd, unix.EPOLL_CTL_ADD, fd, &ev); err != nil {
		p.remove(fd)
		return fmt.Errorf("realtime: epoll add: %w", err)
	}
	return nil
}

// rearm reports fd again once it is readable (at once if it still is).
func (p *poller) rearm(fd int) error {
	ev := unix.EpollEvent{Events: pollEvents, Fd: int32(fd)}
	if err := unix.EpollCtl(p.epfd, unix.EPOLL_CTL_MOD, fd, &ev); err != nil {
		return fmt.Errorf("realtime: epoll rearm: %w", err)
	}
	return nil
}

// remove forgets fd; call it before the connection is closed, so that a
// new socket given the same descriptor number is not confused with it.
func (p *poller) remove(fd int) {
	p.mu.Lock()
	delete(p.ready, int32(fd))
	p.mu.Unlock()
	_ = unix.EpollCtl(p.epfd, unix.EPOLL_CTL_DEL, fd, nil)
}

func (p *poller) run() {
	events := make([]unix.EpollEvent, 256)
	for {
		n, err := unix.EpollWait(p.epfd, events, -1)
		if err != nil {
			if errors.Is(err, unix.EINTR) {
				continue
			}
			return
		}
		for _, ev := range events[:n] {
			p.mu.Lock()
			fn := p.ready[ev.Fd]
			p.mu.Unlock()
			if fn != nil {
				fn()
			}
		}
	}
}
