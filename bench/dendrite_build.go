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

// The Dendrite release the messages scenario measures Campus against, and
// the commands the bench needs from it. It comes from the Go module proxy
// (go install pkg@version), like versitygw for the media tests.
const (
	dendriteVersion = "v0.13.8"
	dendriteModule  = "github.com/matrix-org/dendrite"
)

// dendriteCmds are the binaries built into the cache: the server and the
// tool that makes its signing key.
var dendriteCmds = []string{"dendrite", "generate-keys"}

// dendriteCacheDir is where the build is kept between runs:
// ~/.cache/campus/dendrite-<version>.
func dendriteCacheDir() (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("dendrite: cache dir: %w", err)
	}
	return filepath.Join(cache, "campus", "dendrite-"+dendriteVersion), nil
}

// dendriteCached returns the cache dir when every binary is already built.
func dendriteCached() (string, bool) {
	dir, err := dendriteCacheDir()
	if err != nil {
		return "", false
	}
	for _, c := range dendriteCmds {
		if !dendriteIsExec(filepath.Join(dir, c)) {
			return dir, false
		}
	}
	return dir, true
}

func dendriteIsExec(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}

// dendriteBinaries returns the dir holding the built binaries, building
// them first (minutes on two cores) when the cache does not have them.
// progress reports the build every few seconds.
func dendriteBinaries(ctx context.Context, progress func(format string, args ...any)) (string, error) {
	dir, ok := dendriteCached()
	if ok {
		return dir, nil
	}
	if dir == "" {
		return "", errors.New("dendrite: no cache dir")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("dendrite: %w", err)
	}
	// Two benches (or a bench and a test) may start at once: one builds,
	// the other waits on the lock and then finds the binaries.
	lock, err := os.OpenFile(filepath.Join(dir, ".lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return "", fmt.Errorf("dendrite: %w", err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return "", fmt.Errorf("dendrite: lock %s: %w", dir, err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN) //nolint:errcheck // closing the file unlocks too
	if _, ok := dendriteCached(); ok {
		return dir, nil
	}
	if err := buildDendrite(ctx, dir, progress); err != nil {
		return "", err
	}
	return dir, nil
}

// buildDendrite runs `go install` of the pinned release with the machine's
// Go into a staging dir and moves the binaries into dir once all are built,
// so that an interrupted build never looks like a finished one. Go's own
// output goes to dir/build.log.
func buildDendrite(ctx context.Context, dir string, progress func(format string, args ...any)) error {
	goBin, err := exec.LookPath("go")
	if err != nil {
		return fmt.Errorf("dendrite: building %s needs the go command: %w", dendriteVersion, err)
	}
	stage, err := os.MkdirTemp(dir, ".build-")
	if err != nil {
		return fmt.Errorf("dendrite: %w", err)
	}
	defer os.RemoveAll(stage)
	logPath := filepath.Join(dir, "build.log")
	logf, err := os.Create(logPath)
	if err != nil {
		return fmt.Errorf("dendrite: build log: %w", err)
	}
	defer logf.Close()

	args := []string{"install", "-v"}
	for _, c := range dendriteCmds {
		args = append(args, dendriteModule+"/cmd/"+c+"@"+dendriteVersion)
	}
	cmd := exec.CommandContext(ctx, goBin, args...)
	// Outside any module, so that Campus's go.mod, go.work and GOFLAGS
	// (-mod=…) do not apply: the release builds with its own go.sum.
	cmd.Dir = stage
	cmd.Env = append(os.Environ(), "GOBIN="+stage, "GOFLAGS=-buildvcs=false", "GOWORK=off")
	pr, pw := io.Pipe()
	cmd.Stdout = logf
	cmd.Stderr = pw
	progress("dendrite: building %s@%s with %s (once, into %s; minutes on two cores; log %s)",
		dendriteModule, dendriteVersion, dendriteGoVersion(goBin), dir, logPath)
	began := time.Now()
	if err := cmd.Start(); err != nil {
		pw.Close()
		return fmt.Errorf("dendrite: go install: %w", err)
	}
	// go install -v names each package as it is compiled: count them for
	// the progress line, keep every line in the log.
	var pkgs atomic.Int64
	var last atomic.Value
	last.Store("")
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
				last.Store(line)
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
				return fmt.Errorf("dendrite: go install %s@%s failed after %s: %w; log tail:\n%s",
					dendriteModule, dendriteVersion, time.Since(began).Round(time.Second), err, dendriteLogTail(logPath, 20))
			}
			for _, c := range dendriteCmds {
				if !dendriteIsExec(filepath.Join(stage, c)) {
					return fmt.Errorf("dendrite: go install left no %s in %s", c, stage)
				}
			}
			// The server last: dendriteCached looks for every binary.
			for i := len(dendriteCmds) - 1; i >= 0; i-- {
				c := dendriteCmds[i]
				if err := os.Rename(filepath.Join(stage, c), filepath.Join(dir, c)); err != nil {
					return fmt.Errorf("dendrite: %w", err)
				}
			}
			progress("dendrite: built %s in %s (%d packages compiled)", dendriteVersion,
				time.Since(began).Round(time.Second), pkgs.Load())
			return nil
		case <-tick.C:
			progress("dendrite: building, %s: %d packages compiled (last %s)",
				time.Since(began).Round(time.Second), pkgs.Load(), last.Load())
		}
	}
}

// dendriteGoVersion is `go env GOVERSION` for the progress line.
func dendriteGoVersion(goBin string) string {
	out, err := exec.Command(goBin, "env", "GOVERSION").Output()
	if err != nil {
		return "go"
	}
	return strings.TrimSpace(string(out))
}

// dendriteLogTail is the last n lines of a file, indented.
func dendriteLogTail(path string, n int) string {
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
