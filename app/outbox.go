package app

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/rs/zerolog"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/driver/pgdriver"

	"campus/persistence"
)

// outboxListenTimeout is how long a LISTEN receive waits before it looks
// again; it only bounds how long a dead connection goes unnoticed.
const outboxListenTimeout = 30 * time.Second

// outboxLoop is what the mail and push senders share: the life cycle of a
// goroutine that drains an outbox table (Start, Stop with a grace period,
// Wake), the LISTEN on the table's NOTIFY channel that wakes it, the sleep
// between drains, and the jittered exponential backoff of its retries.
// What a row is and how it is sent stays with each sender.
type outboxLoop struct {
	name    string // for logs: "mail sender"
	channel string // the NOTIFY channel the outbox trigger signals
	db      *bun.DB
	log     zerolog.Logger
	// retryBase is the wait after the first failure, doubled per further
	// failure up to retryMax.
	retryBase, retryMax time.Duration
	// poll is the longest sleep without looking, in case a NOTIFY was lost.
	poll time.Duration

	wake                chan struct{}
	startOnce, stopOnce sync.Once
	quit                chan struct{} // closed by stop: finish the current row, take no new one
	hard                context.Context
	cancelHard          context.CancelFunc // ends an in-flight send once stop's grace is over
	done                chan struct{}      // closed when run returns
	listening           chan struct{}      // closed when listen returns
}

func newOutboxLoop(name, channel string, db *bun.DB, log zerolog.Logger, retryBase, retryMax, poll time.Duration) outboxLoop {
	hard, cancel := context.WithCancel(context.Background())
	return outboxLoop{
		name: name, channel: channel, db: db, log: log,
		retryBase: retryBase, retryMax: retryMax, poll: poll,
		wake: make(chan struct{}, 1),
		quit: make(chan struct{}), hard: hard, cancelHard: cancel,
		done: make(chan struct{}), listening: make(chan struct{}),
	}
}

// start runs run and the NOTIFY listener, once.
func (l *outboxLoop) start(run func()) {
	l.startOnce.Do(func() {
		go func() {
			defer close(l.listening)
			l.listen()
		}()
		go func() {
			defer close(l.done)
			run()
		}()
	})
}

// stop lets a send in flight finish until ctx ends, then cancels it, and
// returns once run and the listener have returned. run is what start would
// run: a loop never started is started so that it ends at once.
func (l *outboxLoop) stop(ctx context.Context, run func()) {
	l.stopOnce.Do(func() {
		close(l.quit)
		l.start(run)
		select {
		case <-l.done:
		case <-ctx.Done():
			l.log.Warn().Msg(l.name + ": shutdown grace over, abandoning the send in flight")
		}
		l.cancelHard()
		<-l.done
		<-l.listening
	})
}

// Wake makes the sender look at the outbox now: call it after committing a
// transaction that queued a row. It never blocks.
func (l *outboxLoop) Wake() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

func (l *outboxLoop) stopping() bool {
	select {
	case <-l.quit:
		return true
	default:
		return false
	}
}

// sleep waits d, or less if stopped or, when wakeable, woken.
func (l *outboxLoop) sleep(d time.Duration, wakeable bool) {
	wake := l.wake
	if !wakeable {
		wake = nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-l.quit:
	case <-wake:
	case <-timer.C:
	}
}

// untilNext is how long to sleep when nothing is due: until the next
// scheduled retry (next's answer), at most the poll interval.
func (l *outboxLoop) untilNext(ctx context.Context, next func(context.Context, bun.IDB) (time.Duration, bool, error)) time.Duration {
	d, ok, err := next(ctx, l.db)
	if err != nil {
		if ctx.Err() == nil {
			l.log.Error().Err(err).Msg(l.name + ": next retry")
		}
		return l.retryBase
	}
	if !ok || d > l.poll {
		return l.poll
	}
	return max(d, time.Millisecond)
}

// backoff is the wait after the n-th failure (n ≥ 1): retryBase doubled
// n-1 times, capped at retryMax, then jittered to between half and all of
// that, so that nodes and rows do not retry in step.
func (l *outboxLoop) backoff(n int) time.Duration {
	d := l.retryMax
	if n < 31 {
		d = min(l.retryBase<<(max(n, 1)-1), l.retryMax)
	}
	half := d / 2
	return half + rand.N(d-half+1)
}

// listen turns NOTIFYs on the channel, sent when any node commits a row,
// into wake-ups, reconnecting after errors. Each (re)connection wakes the
// sender once, since notifications sent while disconnected are lost.
func (l *outboxLoop) listen() {
	for !l.stopping() {
		err := l.listenOnce()
		if l.stopping() {
			return
		}
		l.log.Warn().Err(err).Msg(l.name + ": outbox listener lost; polling until it is back")
		select {
		case <-l.quit:
			return
		case <-time.After(time.Second):
		}
	}
}

func (l *outboxLoop) listenOnce() error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// A receive does not end when ctx does; closing the listener ends it.
	ln := pgdriver.NewListener(l.db)
	defer ln.Close()
	stop := context.AfterFunc(ctx, func() { _ = ln.Close() })
	defer stop()
	go func() {
		select {
		case <-l.quit:
			cancel()
		case <-ctx.Done():
		}
	}()
	if err := ln.Listen(ctx, l.channel); err != nil {
		return fmt.Errorf("app: listen on %s: %w", l.channel, err)
	}
	if err := persistence.AwaitListening(ctx, l.db, ln, l.channel, func(string) { l.Wake() }); err != nil {
		return fmt.Errorf("app: %w", err)
	}
	l.Wake()
	for {
		if _, ok, err := persistence.Receive(ctx, ln, outboxListenTimeout); !ok {
			if err != nil {
				return fmt.Errorf("app: notification on %s: %w", l.channel, err)
			}
			return nil
		}
		l.Wake()
	}
}
