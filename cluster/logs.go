package cluster

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
)

// quietHandler lowers protoactor's lines that a clean stop produces from
// error to what they are. Remoting logs "EndpointWriter lost connection" at
// error whenever a stream to a peer ends, including when this node closes
// it (its own shutdown, or a peer that left: "the client connection is
// closing", code Canceled) and when the peer stopped gracefully (its server
// sent GOAWAY "graceful_stop"). Those are the cluster working: debug for
// our own closing, info for a peer that left cleanly. A peer that dies
// (connection reset, EOF without GOAWAY) stays an error.
//
// protoactor also logs at error every grain request it gave up on
// ("cluster.RequestFuture failed", "Request retried but failed": a timeout
// or a dead letter), which is what requests in flight to a member that is
// leaving get. Those are warnings here: the caller decides what they were
// (actors.Live sends the call again to the grain's new owner; what still
// fails is answered 503 with Retry-After and logged by our own code).
type quietHandler struct{ slog.Handler }

func (h quietHandler) Handle(ctx context.Context, r slog.Record) error {
	if lvl, ok := cleanStopLevel(r); ok {
		if !h.Handler.Enabled(ctx, lvl) {
			return nil
		}
		r.Level = lvl
	}
	return h.Handler.Handle(ctx, r)
}

func (h quietHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return quietHandler{h.Handler.WithAttrs(attrs)}
}

func (h quietHandler) WithGroup(name string) slog.Handler {
	return quietHandler{h.Handler.WithGroup(name)}
}

// cleanStopLevel is the level a record of a clean stop deserves, and
// whether r is one.
func cleanStopLevel(r slog.Record) (slog.Level, bool) {
	if r.Level < slog.LevelWarn {
		return 0, false
	}
	switch r.Message {
	case "cluster.RequestFuture failed", "Request retried but failed":
		return slog.LevelWarn, true
	case "EndpointWriter lost connection":
	default:
		return 0, false
	}
	var text string
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "error" {
			text = fmt.Sprint(a.Value.Any())
			return false
		}
		return true
	})
	switch {
	case strings.Contains(text, "the client connection is closing"):
		return slog.LevelDebug, true
	case strings.Contains(text, "graceful_stop"):
		return slog.LevelInfo, true
	}
	return 0, false
}
