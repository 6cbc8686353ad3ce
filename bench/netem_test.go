package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"campus/bench/netlab"
)

// TestNetemSmoke runs the netem scenario's machinery end to end, small:
// Postgres, etcd and three `campus serve` in network namespaces of their
// own, one partition of node 3 from its peers under a short paced load,
// healed; every acknowledged like must be in Postgres (and nothing else),
// and every node must be back with every member. The full table is the
// bench's (`go run ./bench --only netem`, README: Network faults).
func TestNetemSmoke(t *testing.T) {
	if err := netlab.Check(); err != nil {
		t.Skipf("the netem smoke needs network namespaces: %v", err)
	}
	if _, err := exec.LookPath("etcd"); err != nil {
		t.Skip("the netem smoke needs etcd (scripts/ensure-system.sh --etcd installs it)")
	}
	bin := filepath.Join(t.TempDir(), "campus")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = ".." // the module root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	o, err := parseFlags([]string{"--bin", bin, "--only", "netem", "--quick",
		"--users", "200", "--posts", "300", "--comments", "100",
		"--netem-faults", "peers", "--netem-fault", "5s", "--netem-rate", "50", "--netem-sockets", "2"})
	if err != nil {
		t.Fatal(err)
	}
	b := newBench(o)
	closed := false
	defer func() {
		if !closed {
			b.close()
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	if err := b.setup(ctx); err != nil {
		t.Fatal(err)
	}
	if b.labErr != nil {
		t.Fatalf("the lab: %v", b.labErr)
	}
	res, err := b.runNetem(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 {
		t.Fatalf("%d results, want 1", len(res))
	}
	r := res[0]
	t.Logf("%+v", r)
	if r.Acked == 0 {
		t.Error("no like was acknowledged")
	}
	if !r.Cons.ok() {
		t.Errorf("consistency: %s", r.Cons)
	}
	if !r.Converged || len(r.Restarted) > 0 {
		t.Errorf("after the heal every node must be ready with every member: converged %v after %s, restarted %v",
			r.Converged, r.AgreeIn, r.Restarted)
	}

	// Everything goes with the bench: namespaces and processes.
	names := b.lab.lab.Namespaces()
	pids := []int{b.lab.pgp.cmd.Process.Pid}
	b.close()
	closed = true
	for _, ns := range names {
		if _, err := os.Stat(filepath.Join("/run/netns", ns)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("namespace %s left behind (%v)", ns, err)
		}
	}
	for _, pid := range pids {
		if err := syscall.Kill(pid, 0); err == nil {
			t.Errorf("process %d still runs", pid)
		}
	}
}
