// Package etcdtest runs a private etcd for tests of the etcd provider
// (cluster) and of whole clusters of `campus serve` processes (cluster's
// process tests, faults/). It is used by tests only.
package etcdtest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"campus/freeport"
)

// Start runs a private etcd (Debian's etcd-server, installed by
// scripts/ensure-system.sh) on free loopback ports with a temporary data
// dir, waits until it answers and returns its client endpoint and its
// process (for tests that pause it). It is stopped when the test ends.
func Start(t testing.TB) (string, *os.Process) {
	t.Helper()
	bin, err := exec.LookPath("etcd")
	if err != nil {
		t.Fatal("etcd is not installed: run scripts/ensure-system.sh (Debian package etcd-server)")
	}
	dir := t.TempDir()
	client := "http://127.0.0.1:" + strconv.Itoa(freePort(t))
	peer := "http://127.0.0.1:" + strconv.Itoa(freePort(t))
	logf, err := os.Create(filepath.Join(dir, "etcd.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin,
		"--name", "test",
		"--data-dir", filepath.Join(dir, "data"),
		"--listen-client-urls", client, "--advertise-client-urls", client,
		"--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
		"--initial-cluster", "test="+peer,
		"--log-level", "warn", "--logger", "zap",
	)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); logf.Close(); close(done) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGCONT) // a test may have left it paused
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			b, _ := os.ReadFile(logf.Name())
			if len(b) > 3000 {
				b = b[len(b)-3000:]
			}
			t.Logf("etcd log (tail):\n%s", b)
		}
	})

	c, err := clientv3.New(clientv3.Config{Endpoints: []string{client}, DialTimeout: time.Second, Logger: zap.NewNop()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		_, err := c.Get(ctx, "/health")
		cancel()
		if err == nil {
			return client, cmd.Process
		}
		select {
		case <-done:
			t.Fatalf("etcd exited while starting: %v", err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("etcd did not answer within 30s: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// freePort picks a port below the ephemeral range (see freeport).
func freePort(t testing.TB) int { return freeport.Must(t) }
