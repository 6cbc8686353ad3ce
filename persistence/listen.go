package persistence

import (
	"context"
	"errors"
	"fmt"
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
