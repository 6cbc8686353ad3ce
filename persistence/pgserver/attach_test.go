package pgserver

import (
	"context"
	"errors"
	"testing"
)

// TestAttach: a tool finds the server another process runs in the
// directory (its port changes at every start), and is told plainly when
// there is none, before the first start and after a stop.
func TestAttach(t *testing.T) {
	dir := tempDir(t)
	ctx := context.Background()
	if _, err := Attach(ctx, dir); !errors.Is(err, ErrNotRunning) {
		t.Fatalf("Attach before any start = %v, want ErrNotRunning", err)
	}
	for round := range 2 { // two starts, two ports
		s := start(t, dir)
		if _, err := Start(ctx, Options{Dir: dir, Log: testLog(t), Ephemeral: true}); !errors.Is(err, ErrInUse) {
			t.Fatalf("round %d: a second Start = %v, want ErrInUse (what Attach is for)", round, err)
		}
		url, err := Attach(ctx, dir)
		if err != nil {
			t.Fatalf("round %d: Attach while running: %v", round, err)
		}
		if url != s.URL() {
			t.Errorf("round %d: Attach = %q, want the running server's %q", round, url, s.URL())
		}
		var one int
		if err := open(t, url).QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil || one != 1 {
			t.Fatalf("round %d: query through the attached URL: %v", round, err)
		}
		stop(t, s)
		if _, err := Attach(ctx, dir); !errors.Is(err, ErrNotRunning) {
			t.Fatalf("round %d: Attach after stop = %v, want ErrNotRunning", round, err)
		}
	}
}

func TestParsePidFile(t *testing.T) {
	for _, tc := range []struct {
		name      string
		in        string
		pid, port int
		ok        bool
	}{
		{"postgres 16's file", "4242\n/srv/var/postgres/data\n1700000000\n54321\n/srv/var/postgres/sock\n127.0.0.1\n  1234  5678\nready   \n", 4242, 54321, true},
		{"torn after the pid", "4242\n/srv/var/postgres/data\n", 0, 0, false},
		{"empty", "", 0, 0, false},
		{"port not a number", "4242\n/d\n1\nx\n", 0, 0, false},
		{"port out of range", "4242\n/d\n1\n70000\n", 0, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pid, port, ok := parsePidFile(tc.in)
			if pid != tc.pid || port != tc.port || ok != tc.ok {
				t.Errorf("parsePidFile = %d, %d, %v; want %d, %d, %v", pid, port, ok, tc.pid, tc.port, tc.ok)
			}
		})
	}
}
