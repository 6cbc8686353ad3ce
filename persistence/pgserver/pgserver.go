// Package pgserver runs a private PostgreSQL server from the machine's own
// binaries (docs/architecture.md §7): the default database of `campus serve` when no
// DATABASE_URL is configured, and of the tests when no TEST_DATABASE_URL is.
//
// The server is a child process on a unix socket and a free loopback port.
// It gets SIGINT (a fast shutdown) when campus dies, even by kill -9, so no
// postgres outlives its campus. Running as root, the binaries run as the
// unprivileged `postgres` user, because initdb and postgres refuse root.
package pgserver

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/rs/zerolog"
	"github.com/uptrace/bun/driver/pgdriver"
)

// ErrNoBinaries means neither PATH nor /usr/lib/postgresql/*/bin holds
// initdb and postgres.
var ErrNoBinaries = errors.New("postgres binaries not found: install them with `apt-get install postgresql`")

// ErrInUse means another process (or another Server in this one) already
// manages the directory.
var ErrInUse = errors.New("pgserver: the postgres directory is in use by another process")

const (
	// superuser owns the cluster; campus connects as it.
	superuser = "campus"
	// database is created on first start.
	database = "campus"
	// startTimeout bounds a start, which may include crash recovery after
	// an unclean stop.
	startTimeout = 2 * time.Minute
	// maxSocketPath is the longest unix socket path Linux accepts
	// (sun_path is 108 bytes including the terminating NUL).
	maxSocketPath = 107
	// binGlob is where Debian installs each major version.
	binGlob = "/usr/lib/postgresql/*/bin"
)

// childEnv keeps the parent's PG* variables (PGDATA, PGPORT, ...) away
// from initdb and postgres; everything they need is on the command line.
var childEnv = []string{"PATH=/usr/bin:/bin", "LC_ALL=C"}

// Options configure Start.
type Options struct {
	// Dir holds everything: data/ (the cluster), the superuser's password
	// file, postgres.log and the socket directory. Created if missing.
	Dir string
	// Log receives the manager's own events (never postgres's log, which
	// goes to Dir/postgres.log).
	Log zerolog.Logger
	// Ephemeral tunes the server for throwaway data such as tests: fsync,
	// full-page writes and synchronous commit are off, so a crash of the
	// machine may lose or corrupt the cluster. Never for real data:
	// acknowledged likes must survive a crash.
	Ephemeral bool
	// Port is the loopback TCP port to listen on; 0 picks a free one. A
	// test that stops the server and starts it again on the same Dir gives
	// the first server's Port, so that clients keep their URL.
	Port int
}

// Server is a running postgres started by Start.
type Server struct {
	log     zerolog.Logger
	dir     string
	logPath string
	url     string
	port    int

	child   *child
	logf    *os.File
	lock    *os.File
	tmpSock string // a socket directory outside dir, removed by Stop

	stopping atomic.Bool
	stopOnce sync.Once
	stopErr  error
}

// Start starts postgres in o.Dir, creating the cluster and the campus
// database on first use, and returns once it accepts connections.
func Start(ctx context.Context, o Options) (*Server, error) {
	if o.Dir == "" {
		return nil, errors.New("pgserver: no directory given")
	}
	dir, err := filepath.Abs(o.Dir)
	if err != nil {
		return nil, fmt.Errorf("pgserver: %w", err)
	}
	began := time.Now()
	dataDir := filepath.Join(dir, "data")
	major, err := clusterMajor(dataDir)
	if err != nil {
		return nil, err
	}
	bins, err := findBinaries(ctx, searchPlaces(exec.LookPath, binGlob), major)
	if err != nil {
		return nil, err
	}
	acct, err := runAccount()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("pgserver: %w", err)
	}
	if err := acct.checkTraversable(dir); err != nil {
		return nil, err
	}
	if err := acct.chown(dir); err != nil {
		return nil, err
	}
	lock, err := lockDir(dir)
	if err != nil {
		return nil, err
	}
	s := &Server{log: o.Log, dir: dir, logPath: filepath.Join(dir, "postgres.log"), lock: lock}
	started := false
	defer func() {
		if !started {
			s.release()
		}
	}()

	password, err := loadPassword(filepath.Join(dir, "password"), major == 0, acct)
	if err != nil {
		return nil, err
	}
	logf, err := logFile(s.logPath)
	if err != nil {
		return nil, err
	}
	s.logf = logf

	if major == 0 {
		s.log.Info().Str("dir", dir).Int("version", bins.major).Msg("creating postgres cluster")
		if err := initCluster(ctx, bins, dir, dataDir, acct, o.Ephemeral, logf); err != nil {
			return nil, err
		}
	} else {
		if err := stopOrphan(ctx, dataDir, s.log); err != nil {
			return nil, err
		}
		owned, err := acct.owns(dataDir)
		if err != nil {
			return nil, err
		}
		if !owned {
			// An earlier run as another user created it; postgres insists
			// on owning its data directory.
			if err := acct.chownTree(dataDir); err != nil {
				return nil, err
			}
		}
	}
	sockDir, temp, err := socketDir(dir, acct)
	if err != nil {
		return nil, err
	}
	if temp {
		s.tmpSock = sockDir
	}

	for attempt := 1; ; attempt++ {
		port := o.Port
		if port == 0 {
			if port, err = freePort(); err != nil {
				return nil, err
			}
		}
		err = s.launch(ctx, bins, acct, dataDir, sockDir, port, password, o.Ephemeral)
		if err == nil {
			break
		}
		// Another process may take the port between freePort and postgres
		// binding it; pick another.
		if attempt < 3 && o.Port == 0 && errors.Is(err, errPortTaken) {
			s.log.Warn().Int("port", port).Msg("postgres port taken meanwhile, retrying on another")
			continue
		}
		return nil, err
	}
	started = true
	go s.watch()
	s.log.Info().Str("dir", dir).Int("port", s.port).Int("pid", s.child.pid).
		Int("version", bins.major).Int64("duration_ms", time.Since(began).Milliseconds()).
		Msg("postgres started")
	return s, nil
}

// URL is the campus database's connection string for pgdriver.
func (s *Server) URL() string { return s.url }

// Done is closed once the postgres process has exited, whether by Stop or
// by itself (a crash is logged).
func (s *Server) Done() <-chan struct{} { return s.child.exited }

// Stop shuts postgres down fast (open transactions roll back, committed
// ones are safe) and returns once the process is gone. When ctx ends first
// it forces an immediate shutdown. Calling it again returns the first
// result.
func (s *Server) Stop(ctx context.Context) error {
	s.stopOnce.Do(func() {
		s.stopping.Store(true)
		s.stopErr = s.child.stop(ctx)
		s.release()
		if s.stopErr == nil {
			s.log.Info().Str("dir", s.dir).Msg("postgres stopped")
		}
	})
	return s.stopErr
}

// StopImmediate shuts postgres down the way `pg_ctl stop -m immediate`
// does (SIGQUIT): every backend exits at once, clients see their
// connections dropped, nothing is checkpointed, and the next start runs
// crash recovery. Committed transactions survive it (unless Ephemeral).
// It is how fault tests take the database away under load; Stop is the
// way to shut down. It returns once the process is gone (escalating to
// SIGKILL when ctx ends first).
func (s *Server) StopImmediate(ctx context.Context) error {
	s.stopOnce.Do(func() {
		s.stopping.Store(true)
		s.child.signal(syscall.SIGQUIT)
		select {
		case <-s.child.exited:
		case <-ctx.Done():
			s.child.signal(syscall.SIGKILL)
			<-s.child.exited
			s.stopErr = fmt.Errorf("pgserver: immediate shutdown did not finish in time, killed: %w", ctx.Err())
		}
		s.release()
	})
	return s.stopErr
}

// Port is the TCP port the server listens on.
func (s *Server) Port() int { return s.port }

// errPortTaken marks a start that failed because the port was taken.
var errPortTaken = errors.New("pgserver: port taken")

// launch starts the postmaster on port and waits until it answers.
func (s *Server) launch(ctx context.Context, bins binaries, acct account, dataDir, sockDir string, port int, password string, ephemeral bool) error {
	settings := []string{
		"listen_addresses=127.0.0.1",
		"unix_socket_directories=" + sockDir,
		// Three nodes with 50 connections each, plus tools and headroom.
		"max_connections=200",
		"timezone=UTC",
		"log_timezone=UTC",
		"log_line_prefix=%m [%p] ",
	}
	if ephemeral {
		// Several test processes each run a server at once: keep it lean.
		settings = append(settings,
			"shared_buffers=128MB",
			"fsync=off",
			"full_page_writes=off",
			"synchronous_commit=off",
		)
	} else {
		// fsync and synchronous_commit keep their defaults (on): a like is
		// acknowledged only once it is durable.
		settings = append(settings, "shared_buffers=256MB",
			// Autovacuum looks at the database every 10 s instead of every
			// minute. A like storm turns post_likes over thousands of times
			// a second: its dead entries slow every probe of the hot post
			// until a vacuum, and a prepared statement's plan made while
			// the table was small (sequential scans) stays cached until an
			// analyze invalidates it (most likely why one storm on a young
			// table ran at a third of the rate, Postgres at twice its time).
			"autovacuum_naptime=10s")
	}
	args := []string{"-D", dataDir, "-p", strconv.Itoa(port)}
	for _, kv := range settings {
		args = append(args, "-c", kv)
	}
	cmd := command(bins.postgres(), args, s.dir, acct)
	cmd.Stdout = s.logf
	cmd.Stderr = s.logf
	// SIGINT is postgres's fast shutdown. The process group of its own
	// keeps a terminal's Ctrl-C away from it: campus decides when the
	// database stops (after flushing what it owes).
	cmd.SysProcAttr.Pdeathsig = syscall.SIGINT

	fi, err := s.logf.Stat()
	if err != nil {
		return fmt.Errorf("pgserver: stat log: %w", err)
	}
	from := fi.Size()
	c, err := spawn(cmd)
	if err != nil {
		return fmt.Errorf("pgserver: start postgres: %w", err)
	}
	s.child, s.port = c, port
	s.url = dsn(password, port, database)

	fail := func(err error) error {
		stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		_ = c.stop(stopCtx) // best effort: the start already failed and says why
		t := tail(s.logPath, from, 15)
		if strings.Contains(t, "could not create any TCP/IP sockets") {
			err = fmt.Errorf("%w: %w", errPortTaken, err)
		}
		return withLog(err, s.logPath, from)
	}
	if err := waitReady(ctx, c, dsn(password, port, "postgres")); err != nil {
		return fail(err)
	}
	if err := ensureDatabase(ctx, dsn(password, port, "postgres")); err != nil {
		return fail(err)
	}
	return nil
}

// watch logs a postgres that exits without being asked to.
func (s *Server) watch() {
	<-s.child.exited
	if s.stopping.Load() {
		return
	}
	s.log.Error().Err(s.child.err).Str("log", s.logPath).Str("log_tail", tail(s.logPath, 0, 10)).
		Msg("postgres exited unexpectedly")
}

// release frees what Start acquired besides the process.
func (s *Server) release() {
	if s.logf != nil {
		s.logf.Close()
	}
	if s.tmpSock != "" {
		os.RemoveAll(s.tmpSock) // best effort: a leftover empty dir in /tmp is harmless
	}
	s.lock.Close() // closing the descriptor drops the flock
}

// waitReady pings until postgres accepts connections, it exits, or the
// start times out.
func waitReady(ctx context.Context, c *child, dsn string) error {
	ctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	db := sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(dsn), pgdriver.WithTimeout(5*time.Second)))
	defer db.Close()
	for {
		pingCtx, cancelPing := context.WithTimeout(ctx, 5*time.Second)
		err := db.PingContext(pingCtx)
		cancelPing()
		if err == nil {
			return nil
		}
		// "the database system is starting up" (57P03) is worth waiting
		// for; any other answer from the server (a wrong password) is not.
		var pgErr pgdriver.Error
		if errors.As(err, &pgErr) && pgErr.Field('C') != "57P03" {
			return fmt.Errorf("pgserver: connect: %w", err)
		}
		select {
		case <-c.exited:
			return fmt.Errorf("pgserver: postgres exited during start: %v", c.err)
		case <-ctx.Done():
			return fmt.Errorf("pgserver: postgres not ready (last error: %v): %w", err, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// ensureDatabase creates the campus database on first start.
func ensureDatabase(ctx context.Context, adminDSN string) error {
	db := sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(adminDSN), pgdriver.WithTimeout(30*time.Second)))
	defer db.Close()
	var n int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM pg_database WHERE datname = '"+database+"'").Scan(&n); err != nil {
		return fmt.Errorf("pgserver: look up database: %w", err)
	}
	if n > 0 {
		return nil
	}
	if _, err := db.ExecContext(ctx, "CREATE DATABASE "+database); err != nil {
		return fmt.Errorf("pgserver: create database: %w", err)
	}
	return nil
}

// initCluster runs initdb into a scratch directory and renames it into
// place, so an interrupted initdb never leaves a half-made data directory.
func initCluster(ctx context.Context, bins binaries, dir, dataDir string, acct account, ephemeral bool, logf *os.File) error {
	scratch := dataDir + ".init"
	if err := os.RemoveAll(scratch); err != nil {
		return fmt.Errorf("pgserver: remove leftover %s: %w", scratch, err)
	}
	// C.UTF-8 gives lower()/upper() Unicode case rules; plain C (ASCII
	// only) is the fallback for a libc without it.
	for _, locale := range []string{"C.UTF-8", "C"} {
		args := []string{
			"-D", scratch,
			"-U", superuser,
			"--pwfile", filepath.Join(dir, "password"),
			"-E", "UTF8",
			"--locale", locale,
			"--auth-local", "scram-sha-256",
			"--auth-host", "scram-sha-256",
		}
		if ephemeral {
			args = append(args, "--no-sync")
		}
		var out bytes.Buffer
		cmd := command(bins.initdb(), args, dir, acct)
		cmd.Stdout = io.MultiWriter(logf, &out)
		cmd.Stderr = cmd.Stdout
		err := cmd.Run()
		if err == nil {
			if err := os.Rename(scratch, dataDir); err != nil {
				return fmt.Errorf("pgserver: %w", err)
			}
			return nil
		}
		os.RemoveAll(scratch) // initdb usually cleans up itself; this covers the rest
		if ctx.Err() != nil {
			return fmt.Errorf("pgserver: initdb: %w", ctx.Err())
		}
		if locale != "C" && strings.Contains(out.String(), "locale") {
			continue
		}
		return fmt.Errorf("pgserver: initdb: %w\n%s", err, indent(strings.TrimSpace(out.String())))
	}
	return errors.New("pgserver: initdb: no usable locale")
}

// command prepares one of the postgres binaries to run as acct, in its own
// process group, with a clean environment.
func command(name string, args []string, dir string, acct account) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir // initdb fails when it cannot read its working directory
	cmd.Env = childEnv
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: acct.cred, Setpgid: true}
	return cmd
}

// loadPassword reads the superuser's password, creating it for a new
// cluster. The file is 0600 and owned by the account because initdb reads
// it too.
func loadPassword(path string, fresh bool, acct account) (string, error) {
	b, err := os.ReadFile(path)
	if err == nil && len(bytes.TrimSpace(b)) > 0 {
		return string(bytes.TrimSpace(b)), nil
	}
	if err != nil && !os.IsNotExist(err) {
		return "", fmt.Errorf("pgserver: read password: %w", err)
	}
	if !fresh {
		return "", fmt.Errorf("pgserver: %s is missing or empty, so the existing cluster beside it cannot be opened: restore it, or move the data directory away to start afresh", path)
	}
	password := rand.Text()
	if err := os.WriteFile(path, []byte(password+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("pgserver: write password: %w", err)
	}
	if err := acct.chown(path); err != nil {
		return "", err
	}
	return password, nil
}

// lockDir takes an exclusive flock on dir/manager.lock. The kernel drops
// it when the process dies, however it dies, so a postmaster found holding
// the data directory while we hold this lock is an orphan of a killed run.
func lockDir(dir string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, "manager.lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("pgserver: open lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%w: %s", ErrInUse, dir)
		}
		return nil, fmt.Errorf("pgserver: lock %s: %w", dir, err)
	}
	return f, nil
}

// socketDir returns dir/sock, or a directory under the system's temp
// directory (temp = true) when dir is too deep for a unix socket path.
func socketDir(dir string, acct account) (path string, temp bool, err error) {
	path = filepath.Join(dir, "sock")
	if len(path)+len("/.s.PGSQL.65535") <= maxSocketPath {
		if err := os.MkdirAll(path, 0o700); err != nil {
			return "", false, fmt.Errorf("pgserver: socket dir: %w", err)
		}
		return path, false, acct.chown(path)
	}
	// Named after dir, so a run that was killed before it could remove
	// its directory leaves one behind, not one per run.
	sum := sha256.Sum256([]byte(dir))
	path = filepath.Join(os.TempDir(), "campus-pg-"+hex.EncodeToString(sum[:6]))
	if err := os.Mkdir(path, 0o700); err != nil && !os.IsExist(err) {
		return "", false, fmt.Errorf("pgserver: socket dir: %w", err)
	}
	if !privateDir(path, acct) {
		// Someone else made it: the name is predictable, so never use a
		// directory we do not own.
		if path, err = os.MkdirTemp("", "campus-pg-"); err != nil {
			return "", false, fmt.Errorf("pgserver: socket dir: %w", err)
		}
	}
	if err := acct.chown(path); err != nil {
		os.RemoveAll(path)
		return "", false, err
	}
	return path, true, nil
}

// privateDir reports whether path is a real directory, mode 0700, owned by
// us or by acct.
func privateDir(path string, acct account) bool {
	fi, err := os.Lstat(path)
	if err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && (int(st.Uid) == os.Geteuid() || int(st.Uid) == acct.uid)
}

// freePort asks the kernel for a free loopback port.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("pgserver: find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// dsn builds a pgdriver connection string over loopback TCP.
func dsn(password string, port int, db string) string {
	u := url.URL{
		Scheme:   "postgres",
		User:     url.UserPassword(superuser, password),
		Host:     net.JoinHostPort("127.0.0.1", strconv.Itoa(port)),
		Path:     "/" + db,
		RawQuery: "sslmode=disable",
	}
	return u.String()
}
