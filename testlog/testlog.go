// Package testlog gives tests a zerolog logger that writes to the test's
// log and goes quiet when the test ends: actor systems and servers may
// still log from their goroutines while they wind down, and t.Log panics
// once a test is over. It is used by tests only.
package testlog

import (
	"strings"
	"sync"
	"testing"

	"github.com/rs/zerolog"
)

// New logs warnings and errors to t until t's last cleanup, then discards.
// Call it before registering other cleanups, so that it runs last.
func New(t testing.TB) zerolog.Logger {
	w := &writer{t: t}
	t.Cleanup(w.stop)
	return zerolog.New(w).Level(zerolog.WarnLevel)
}

// writer hands lines to t.Log while the test runs.
type writer struct {
	mu   sync.Mutex
	t    testing.TB
	done bool
}

func (w *writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.done {
		w.t.Log(strings.TrimSpace(string(p)))
	}
	return len(p), nil
}

func (w *writer) stop() {
	w.mu.Lock()
	w.done = true
	w.mu.Unlock()
}
