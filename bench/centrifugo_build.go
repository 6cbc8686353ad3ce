package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// The Centrifugo release the peers scenario measures Campus's count
// fan-out against. It comes from the Go module proxy (go install
// pkg@version), like versitygw for the media tests and Dendrite for the
// messages scenario, and is linked as its own release is (stripped, with
// the version stamped in).
const (
	centrifugoVersion = "v6.9.1"
	centrifugoModule  = "github.com/centrifugal/centrifugo/v6"
)

// centrifugoLDFlags are the release's own link flags (its .goreleaser.yml)
// minus the usage-stats endpoint and token, which only its CI has.
var centrifugoLDFlags = "-s -w -X " + centrifugoModule + "/internal/build.Version=" + strings.TrimPrefix(centrifugoVersion, "v")

// centrifugoCacheDir is where the build is kept between runs:
// ~/.cache/campus/centrifugo-<version>.
func centrifugoCacheDir() (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("centrifugo: cache dir: %w", err)
	}
	return filepath.Join(cache, "campus", "centrifugo-"+centrifugoVersion), nil
}

// centrifugoCached returns the cached binary's path and whether it is
// there.
func centrifugoCached() (string, bool) {
	dir, err := centrifugoCacheDir()
	if err != nil {
		return "", false
	}
	bin := filepath.Join(dir, "centrifugo")
	fi, err := os.Stat(bin)
	return bin, err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}

// centrifugoBinary returns the built binary, building it first (about two
// minutes on two cores, more when the modules are not downloaded yet) when
// the cache does not have it. progress reports the build every few seconds.
func centrifugoBinary(ctx context.Context, progress func(format string, args ...any)) (string, error) {
	if bin, ok := centrifugoCached(); ok {
		return bin, nil
	}
	dir, err := centrifugoCacheDir()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("centrifugo: %w", err)
	}
	// Two benches (or a bench and a test) may start at once: one builds,
	// the other waits on the lock and then finds the binary.
	lock, err := os.OpenFile(filepath.Join(dir, ".lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return "", fmt.Errorf("centrifugo: %w", err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return "", fmt.Errorf("centrifugo: lock %s: %w", dir, err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN) //nolint:errcheck // closing the file unlocks too
	if bin, ok := centrifugoCached(); ok {
		return bin, nil
	}
	if err := buildCentrifugo(ctx, dir, progress); err != nil {
		return "", err
	}
	bin, _ := centrifugoCached()
	return bin, nil
}

// buildCentrifugo runs `go install` of the pinned release with the
// machine's Go into a staging dir and moves the binary into dir once it is
// built, so that an interrupted build never looks like a finished one.
// Go's own output goes to dir/build.log.
func buildCentrifugo(ctx context.Context, dir string, progress func(format string, args ...any)) error {
	goBin, err := exec.LookPath("go")
	if err != nil {
		return fmt.Errorf("centrifugo: building %s needs the go command: %w", centrifugoVersion, err)
	}
	stage, err := os.MkdirTemp(dir, ".build-")
	if err != nil {
		return fmt.Errorf("centrifugo: %w", err)
	}
	defer os.RemoveAll(stage)
	logPath := filepath.Join(dir, "build.log")
	logf, err := os.Create(logPath)
	if err != nil {
		return fmt.Errorf("centrifugo: build log: %w", err)
	}
	defer logf.Close()

	cmd := exec.CommandContext(ctx, goBin, "install", "-v", "-ldflags", centrifugoLDFlags,
		centrifugoModule+"@"+centrifugoVersion)
	// Outside any module, so that Campus's go.mod, go.work and GOFLAGS
	// (-mod=…) do not apply: the release builds with its own go.sum.
	cmd.Dir = stage
	cmd.Env = append(os.Environ(), "GOBIN="+stage, "GOFLAGS=-buildvcs=false", "GOWORK=off", "CGO_ENABLED=0")
	pr, pw := io.Pipe()
	cmd.Stdout = logf
	cmd.Stderr = pw
	progress("centrifugo: building %s@%s (once, into %s; about two minutes on two cores; log %s)",
		centrifugoModule, centrifugoVersion, dir, logPath)
	began := time.Now()
	if err := cmd.Start(); err != nil {
		pw.Close()
		return fmt.Errorf("centrifugo: go install: %w", err)
	}
	// go install -v names each package as it is compiled: count them for
	// the progress line, keep every line in the log.
	var pkgs atomic.Int64
	scanned := make(chan struct{})
	go func() {
		defer close(scanned)
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			fmt.Fprintln(logf, line)
			if !strings.HasPrefix(line, "go: ") && !strings.Contains(line, " ") {
				pkgs.Add(1)
			}
		}
		_, _ = io.Copy(io.Discard, pr) // a line over 1 MiB: keep go unblocked
	}()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait(); pw.Close() }()
	tick := time.NewTicker(15 * time.Second)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			<-scanned
			if err != nil {
				return fmt.Errorf("centrifugo: go install %s@%s failed after %s: %w; log tail:\n%s",
					centrifugoModule, centrifugoVersion, time.Since(began).Round(time.Second), err, centrifugoLogTail(logPath, 20))
			}
			built := filepath.Join(stage, "centrifugo")
			if _, err := os.Stat(built); err != nil {
				return errors.New("centrifugo: go install left no centrifugo in " + stage)
			}
			if err := os.Rename(built, filepath.Join(dir, "centrifugo")); err != nil {
				return fmt.Errorf("centrifugo: %w", err)
			}
			progress("centrifugo: built %s in %s (%d packages compiled)", centrifugoVersion,
				time.Since(began).Round(time.Second), pkgs.Load())
			return nil
		case <-tick.C:
			progress("centrifugo: building, %s: %d packages compiled", time.Since(began).Round(time.Second), pkgs.Load())
		}
	}
}

// centrifugoLogTail is the last n lines of a file, indented.
func centrifugoLogTail(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return "  (no log: " + err.Error() + ")"
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return "  " + strings.Join(lines, "\n  ")
}
