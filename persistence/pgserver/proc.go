package pgserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rs/zerolog"
)

// child is a running postmaster started by us.
type child struct {
	pid    int
	exited chan struct{} // closed once the process has been reaped
	err    error         // Wait's result; read only after exited is closed
}

// spawn starts cmd on a goroutine locked to its OS thread and keeps that
// thread alive until the child is reaped. Pdeathsig fires when the thread
// that forked the child exits, not when the process does, so an ordinary
// goroutine could deliver it long before campus ends.
func spawn(cmd *exec.Cmd) (*child, error) {
	c := &child{exited: make(chan struct{})}
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		c.pid = cmd.Process.Pid
		started <- nil
		c.err = cmd.Wait()
		close(c.exited)
	}()
	if err := <-started; err != nil {
		return nil, err
	}
	return c, nil
}

// signal sends sig to the child unless it has already been reaped (its pid
// may then belong to another process).
func (c *child) signal(sig syscall.Signal) {
	select {
	case <-c.exited:
	default:
		_ = syscall.Kill(c.pid, sig) // ESRCH only: it is exiting anyway
	}
}

// stop asks for a fast shutdown (roll back open transactions, disconnect
// clients, checkpoint) and escalates to an immediate shutdown and then to
// SIGKILL when ctx ends first.
func (c *child) stop(ctx context.Context) error {
	c.signal(syscall.SIGINT)
	select {
	case <-c.exited:
		return nil
	case <-ctx.Done():
	}
	c.signal(syscall.SIGQUIT)
	select {
	case <-c.exited:
	case <-time.After(5 * time.Second):
		c.signal(syscall.SIGKILL)
		<-c.exited
	}
	return fmt.Errorf("pgserver: fast shutdown did not finish in time, forced: %w", ctx.Err())
}

// stopOrphan stops a postmaster that a previous, killed run left holding
// dataDir. Pdeathsig already asked it to shut down, but a shutdown can take
// a moment (a checkpoint), and a second postmaster cannot start until the
// first is gone. A stale postmaster.pid with no process behind it is left
// for postgres, which handles that itself.
func stopOrphan(ctx context.Context, dataDir string, log zerolog.Logger) error {
	b, err := os.ReadFile(filepath.Join(dataDir, "postmaster.pid"))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("pgserver: read postmaster.pid: %w", err)
	}
	first, _, _ := bytes.Cut(b, []byte("\n"))
	pid, err := strconv.Atoi(strings.TrimSpace(string(first)))
	if err != nil || pid <= 0 {
		return nil // torn or empty: no live postmaster wrote it
	}
	held, err := holdsDataDir(pid, dataDir)
	if err != nil {
		return err
	}
	if !held {
		return nil
	}
	log.Warn().Int("pid", pid).Str("data_dir", dataDir).Msg("stopping a postgres left running by an earlier run")
	steps := []struct {
		sig  syscall.Signal
		wait time.Duration
	}{
		{syscall.SIGINT, 60 * time.Second},  // fast shutdown
		{syscall.SIGQUIT, 10 * time.Second}, // immediate: crash recovery on next start
		{syscall.SIGKILL, 10 * time.Second},
	}
	for _, s := range steps {
		if err := syscall.Kill(pid, s.sig); err != nil && !errors.Is(err, syscall.ESRCH) {
			return fmt.Errorf("pgserver: signal old postgres (pid %d): %w", pid, err)
		}
		if waitGone(ctx, pid, s.wait) {
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("pgserver: waiting for old postgres (pid %d) to exit: %w", pid, ctx.Err())
		}
	}
	return fmt.Errorf("pgserver: old postgres (pid %d) still holds %s", pid, dataDir)
}

// holdsDataDir reports whether pid is a live postmaster of dataDir. The
// postmaster's working directory is its data directory, which guards
// against a recycled pid that now belongs to something else.
func holdsDataDir(pid int, dataDir string) (bool, error) {
	if !alive(pid) {
		return false, nil
	}
	cwd, err := os.Stat(fmt.Sprintf("/proc/%d/cwd", pid))
	if os.IsNotExist(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("pgserver: postmaster.pid names live process %d that cannot be inspected (stop it, then start again): %w", pid, err)
	}
	dd, err := os.Stat(dataDir)
	if err != nil {
		return false, fmt.Errorf("pgserver: %w", err)
	}
	return os.SameFile(cwd, dd), nil
}

// alive reports whether pid exists and is not a zombie; an unreaped zombie
// (no init to reap it, as in some containers) holds nothing.
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state follows the parenthesised command name, which may itself
	// contain spaces or parentheses.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+2 >= len(b) {
		return false
	}
	return b[i+2] != 'Z' && b[i+2] != 'X'
}

// waitGone polls until pid is gone, for at most d.
func waitGone(ctx context.Context, pid int, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for {
		if !alive(pid) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// logFile opens postgres's log for appending, keeping one older generation
// so that it cannot grow without bound across many runs.
func logFile(path string) (*os.File, error) {
	const maxSize = 32 << 20
	if fi, err := os.Stat(path); err == nil && fi.Size() > maxSize {
		if err := os.Rename(path, path+".1"); err != nil {
			return nil, fmt.Errorf("pgserver: rotate log: %w", err)
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("pgserver: open log: %w", err)
	}
	return f, nil
}

// tail returns the last n lines of path written after offset from, for
// error messages about a failed start.
func tail(path string, from int64, n int) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	const window = 16 << 10
	fi, err := f.Stat()
	if err != nil {
		return ""
	}
	start := max(from, fi.Size()-window, 0)
	b, err := io.ReadAll(io.NewSectionReader(f, start, fi.Size()-start))
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// withLog appends the log's last lines to err so that a failed start says why.
func withLog(err error, path string, from int64) error {
	t := tail(path, from, 15)
	if t == "" {
		return err
	}
	return fmt.Errorf("%w\npostgres log %s (last lines):\n%s", err, path, indent(t))
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(s, "\n", "\n    ")
}
