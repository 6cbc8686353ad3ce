package persistence

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/driver/pgdriver"
)

// Probes of AwaitListening: up to probeTries, probeWait apart.
const (
	probeTries = 10
	probeWait  = 500 * time.Millisecond
	// ProbePayload is what a probe NOTIFY carries; listeners skip it.
	ProbePayload = "probe"
)

// AwaitListening returns once ln, listening on channel, is known to
// receive. pgdriver's Listen only sends LISTEN, and a NOTIFY committed
// before the server has run it is never delivered: so it sends probes on
// channel until one comes back (one sent too early is simply lost; another
// node's probe proves it as well). Other payloads that arrive meanwhile go
// to other, not dropped.
func AwaitListening(ctx context.Context, db bun.IDB, ln *pgdriver.Listener, channel string, other func(payload string)) error {
	for range probeTries {
		if _, err := db.ExecContext(ctx, "SELECT pg_notify(?, ?)", channel, ProbePayload); err != nil {
			return fmt.Errorf("persistence: probe %s: %w", channel, err)
		}
		deadline := time.Now().Add(probeWait)
		for {
			_, payload, err := ln.ReceiveTimeout(ctx, max(time.Until(deadline), time.Millisecond))
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() && ctx.Err() == nil {
				break // probe again
			}
			if err != nil {
				return fmt.Errorf("persistence: await %s probe: %w", channel, err)
			}
			if payload == ProbePayload {
				return nil
			}
			other(payload)
		}
	}
	return fmt.Errorf("persistence: no %s probe came back in %d tries", channel, probeTries)
}

// Receive waits for the next notification on ln and answers its payload.
// It waits in slices of every, through ReceiveTimeout rather than Channel,
// so that a connection that broke surfaces as an error (Channel hides it).
// ok is false, with a nil error, once ctx is done.
func Receive(ctx context.Context, ln *pgdriver.Listener, every time.Duration) (payload string, ok bool, err error) {
	for {
		_, payload, err := ln.ReceiveTimeout(ctx, every)
		if err == nil {
			return payload, true, nil
		}
		if ctx.Err() != nil {
			return "", false, nil
		}
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			continue
		}
		return "", false, fmt.Errorf("persistence: receive: %w", err)
	}
}

// Pauses between reconnection attempts of a listener (Backoff).
const (
	backoffMin = 250 * time.Millisecond
	backoffMax = 2 * time.Second
)

// Backoff paces the reconnection attempts of a LISTEN connection: the
// first retry comes quickly (a restart of Postgres takes a second or two),
// then the pause doubles up to two seconds, so that the sockets of a token
// revoked just after the database came back stay open no longer than that;
// with jitter, so that every node's listeners do not knock at once. The
// zero value is ready to use; not safe for concurrent use.
type Backoff struct {
	failures int
}

// Next counts a failed attempt and answers how long to wait before the next.
func (b *Backoff) Next() time.Duration {
	b.failures++
	d := backoffMin << min(b.failures-1, 5)
	d = min(d, backoffMax)
	// ±20%: rand.N needs a positive bound.
	return d - d/5 + rand.N(2*d/5+1)
}

// Failures is how many attempts failed since the last Reset.
func (b *Backoff) Failures() int { return b.failures }

// Reset starts over after a success.
func (b *Backoff) Reset() { b.failures = 0 }
