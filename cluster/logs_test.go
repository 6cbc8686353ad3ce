package cluster

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

// TestQuietHandler: the lines a clean stop makes (this node closing its
// streams, a peer's graceful GOAWAY) are not errors; a peer that dies still
// is, and other lines pass untouched.
func TestQuietHandler(t *testing.T) {
	for _, tc := range []struct {
		name, msg, err string
		want           string // the level logged; "" for nothing (below warn)
	}{
		{"this node closing", "EndpointWriter lost connection",
			"rpc error: code = Canceled desc = grpc: the client connection is closing", ""},
		{"a peer's graceful stop", "EndpointWriter lost connection",
			`rpc error: code = Unavailable desc = closing transport due to: connection error: desc = "error reading from server: read tcp: use of closed network connection", received prior goaway: code: NO_ERROR, debug data: "graceful_stop"`, ""},
		{"a peer that died", "EndpointWriter lost connection",
			`rpc error: code = Unavailable desc = error reading from server: read tcp 127.0.0.1:1->127.0.0.1:2: read: connection reset by peer`, "error"},
		{"another error line", "EndpointWriter failed to connect", "the client connection is closing", "error"},
		{"a grain request given up on", "cluster.RequestFuture failed", "future: timeout", "warn"},
		{"a grain request retried in vain", "Request retried but failed", "future: dead letter", "warn"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			zl := zerolog.New(&buf).Level(zerolog.WarnLevel)
			log := slog.New(quietHandler{zerolog.NewSlogHandler(zl)}).With(slog.String("component", "protoactor"))
			log.Error(tc.msg, slog.String("address", "127.0.0.1:6331"), slog.Any("error", errors.New(tc.err)))
			out := buf.String()
			if tc.want == "" {
				if out != "" {
					t.Fatalf("logged %q, want nothing at warn and above", out)
				}
				return
			}
			if !strings.Contains(out, `"level":"`+tc.want+`"`) || !strings.Contains(out, tc.msg) || !strings.Contains(out, "protoactor") {
				t.Fatalf("logged %q, want it at %s with its attributes", out, tc.want)
			}
		})
	}
}
