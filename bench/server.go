package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/valyala/fasthttp"

	"campus/freeport"
)

// serverConfig is how to start one campus process.
type serverConfig struct {
	bin   string
	dir   string   // the bench's temp dir; the data dir is dir/data
	addr  string   // 127.0.0.1:port
	dbURL string   // empty: the embedded Postgres
	env   []string // more settings (NAME=value): the cluster scenario's
	// command makes the process (nil: exec.Command); the netem scenario's
	// runs it in a network namespace of its own.
	command func(name string, arg ...string) *exec.Cmd
}

// server is a campus process the bench started.
type server struct {
	cfg     serverConfig
	cmd     *exec.Cmd
	done    chan struct{}
	waitErr error
	logPath string
}

func (c serverConfig) dataDir() string { return filepath.Join(c.dir, "data") }

// signal sends sig to campus (the cluster scenario's drain).
func (s *server) signal(sig os.Signal) error { return s.cmd.Process.Signal(sig) }

// exited reports whether campus has exited, and its exit code then.
func (s *server) exited() (bool, int) {
	select {
	case <-s.done:
		return true, s.cmd.ProcessState.ExitCode()
	default:
		return false, 0
	}
}

// startServer runs `campus serve` on a loopback address with rate limits
// off, quiet logs and no per-IP connection cap, its log in dir/server.log.
func startServer(ctx context.Context, c serverConfig) (*server, error) {
	bin, err := filepath.Abs(c.bin)
	if err != nil {
		return nil, fmt.Errorf("server binary: %w", err)
	}
	if _, err := os.Stat(bin); err != nil {
		return nil, fmt.Errorf("server binary %s: %w (run `make build` or pass --bin)", c.bin, err)
	}
	logPath := filepath.Join(c.dir, "server.log")
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("server log: %w", err)
	}
	defer logf.Close() // the child holds its own descriptor
	command := c.command
	if command == nil {
		command = exec.Command
	}
	cmd := command(bin, "serve")
	cmd.Env = serverEnv(c)
	cmd.Stdout = logf
	cmd.Stderr = logf
	// SIGTERM lets campus stop its embedded Postgres if the bench dies
	// without cleaning up; its own process group keeps our Ctrl-C away so
	// the bench decides when it stops.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM, Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	s := &server{cfg: c, cmd: cmd, done: make(chan struct{}), logPath: logPath}
	go func() {
		s.waitErr = cmd.Wait()
		close(s.done)
	}()
	return s, nil
}

// serverEnv is our environment without any Campus setting or database URL
// (a fresh embedded database unless --database-url), plus the bench's.
// CAMPUS_PPROF_ADDR alone passes through, to profile the started server.
func serverEnv(c serverConfig) []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "CAMPUS_PPROF_ADDR=") {
			env = append(env, kv)
			continue
		}
		if strings.HasPrefix(kv, "CAMPUS_") || strings.HasPrefix(kv, "DATABASE_URL=") {
			continue
		}
		env = append(env, kv)
	}
	env = append(env,
		"CAMPUS_ADDR="+c.addr,
		"CAMPUS_DATA_DIR="+c.dataDir(),
		"CAMPUS_RATE_LIMITS=off",
		"CAMPUS_LOG_LEVEL=warn",
		"CAMPUS_LOG_FORMAT=json",
		"CAMPUS_MAX_CONNS_PER_IP=0",
		// The connections scenario opens many sockets per seeded user.
		"CAMPUS_MAX_SOCKETS_PER_USER=100000",
	)
	if c.dbURL != "" {
		env = append(env, "DATABASE_URL="+c.dbURL)
	}
	return append(env, c.env...)
}

func (s *server) pid() int { return s.cmd.Process.Pid }

func (s *server) secretPath() string { return filepath.Join(s.cfg.dataDir(), "secret") }

// waitReady polls GET /api/ready until it answers 200, the process exits or
// the timeout passes.
func (s *server) waitReady(ctx context.Context, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	c := &fasthttp.Client{}
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	req.SetRequestURI("http://" + s.cfg.addr + "/api/ready")
	last := "no answer"
	for time.Now().Before(deadline) {
		if err := c.DoTimeout(req, resp, 2*time.Second); err == nil {
			if resp.StatusCode() == fasthttp.StatusOK {
				return nil
			}
			last = fmt.Sprintf("status %d: %.200s", resp.StatusCode(), resp.Body())
		} else {
			last = err.Error()
		}
		select {
		case <-s.done:
			return fmt.Errorf("campus exited during start (%v); log tail:\n%s", s.waitErr, s.tail(20))
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
	return fmt.Errorf("campus not ready after %s (last: %s); log tail:\n%s", timeout, last, s.tail(20))
}

// stop asks campus to shut down (SIGTERM) and kills it after timeout.
func (s *server) stop(timeout time.Duration) error {
	select {
	case <-s.done:
		return nil
	default:
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
		return nil
	case <-time.After(timeout):
		_ = s.cmd.Process.Kill()
		<-s.done
		return fmt.Errorf("campus ignored SIGTERM for %s and was killed", timeout)
	}
}

// kill is kill -9, returning once the process is gone.
func (s *server) kill() {
	_ = s.cmd.Process.Kill()
	<-s.done
}

// tail is the last n lines of the server log.
func (s *server) tail(n int) string {
	b, err := os.ReadFile(s.logPath)
	if err != nil {
		return "(no log: " + err.Error() + ")"
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return "  " + strings.Join(lines, "\n  ")
}

// embeddedDSN finds the URL of the Postgres that campus started in its data
// dir: the superuser's password file and the port in postmaster.pid (the
// layout of persistence/pgserver).
func (s *server) embeddedDSN() (string, error) {
	pgDir := filepath.Join(s.cfg.dataDir(), "postgres")
	pw, err := os.ReadFile(filepath.Join(pgDir, "password"))
	if err != nil {
		return "", fmt.Errorf("embedded postgres password: %w", err)
	}
	f, err := os.Open(filepath.Join(pgDir, "data", "postmaster.pid"))
	if err != nil {
		return "", fmt.Errorf("embedded postgres pid file: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	var port string
	for i := 1; sc.Scan() && i <= 4; i++ {
		if i == 4 { // line 4 of postmaster.pid is the port
			port = strings.TrimSpace(sc.Text())
		}
	}
	if _, err := strconv.Atoi(port); err != nil {
		return "", fmt.Errorf("embedded postgres port %q in postmaster.pid", port)
	}
	u := url.URL{
		Scheme:   "postgres",
		User:     url.UserPassword("campus", strings.TrimSpace(string(pw))),
		Host:     net.JoinHostPort("127.0.0.1", port),
		Path:     "/campus",
		RawQuery: "sslmode=disable",
	}
	return u.String(), nil
}

// freePort picks a loopback port below the ephemeral range, so that no
// outgoing connection of the load takes it before the server binds it.
func freePort() (int, error) { return freeport.Get() }

// raiseNoFile lifts our soft open-file limit to the hard one: every socket
// the bench opens is a descriptor.
func raiseNoFile() {
	var r syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r) == nil && r.Cur < r.Max {
		r.Cur = r.Max
		_ = syscall.Setrlimit(syscall.RLIMIT_NOFILE, &r)
	}
}

// noFileLimit is our soft open-file limit.
func noFileLimit() int {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r); err != nil {
		return 0
	}
	return int(r.Cur)
}

// procNoFile is pid's soft open-file limit from /proc/<pid>/limits.
func procNoFile(pid int) (int, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/limits", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(line, "Max open files") {
			continue
		}
		f := strings.Fields(strings.TrimPrefix(line, "Max open files"))
		if len(f) == 0 {
			break
		}
		if f[0] == "unlimited" {
			return 1 << 30, nil
		}
		return strconv.Atoi(f[0])
	}
	return 0, errors.New("no open-file limit in /proc/pid/limits")
}

// procOpenFiles counts pid's open descriptors.
func procOpenFiles(pid int) int {
	ents, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		return -1
	}
	return len(ents)
}

// rssKiB is pid's resident set size (VmRSS) in KiB.
func rssKiB(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			return strconv.ParseInt(f[1], 10, 64)
		}
	}
	return 0, errors.New("no VmRSS in /proc/pid/status")
}
