package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rs/zerolog"
	"github.com/uptrace/bun/driver/pgdriver"

	"campus/bench/netlab"
	"campus/persistence/pgserver"
)

// netemLab is the netem scenario's network (bench/netlab): Postgres, etcd
// and three nodes each in a namespace of their own, on addresses of their
// own, the bench in its own namespace reaching all of them. Postgres runs
// from setup on (the bench seeds it and its own server uses it), so that a
// fault can come between a node and its database.
type netemLab struct {
	lab   *netlab.Lab
	dir   string
	pg    *netlab.Host
	etcd  *netlab.Host
	nodes []*netlab.Host
	dsn   string
	pgp   *labProc
}

// Ports inside the lab: every host has an address of its own, so each
// service keeps its usual port.
const (
	labPGPort       = 5432
	labEtcdPort     = 2379
	labEtcdPeerPort = 2380
	labHTTPPort     = 8080
	labRemotingPort = 6331
)

// startNetemLab builds the network and starts Postgres in it. An error
// wrapping errUnavailable means this machine cannot run the scenario (not
// root, no namespaces, no etcd): the scenario reports it and the rest of
// the bench runs as usual.
func startNetemLab(ctx context.Context, tmp string) (*netemLab, error) {
	if _, err := exec.LookPath("etcd"); err != nil {
		return nil, fmt.Errorf("%w: no etcd (scripts/ensure-system.sh --etcd installs Debian's etcd-server)", errUnavailable)
	}
	if err := netlab.Check(); err != nil {
		return nil, fmt.Errorf("%w: %v", errUnavailable, err)
	}
	lab, err := netlab.New()
	if err != nil {
		return nil, err
	}
	l := &netemLab{lab: lab, dir: filepath.Join(tmp, "netem")}
	fail := func(err error) (*netemLab, error) {
		l.close()
		return nil, err
	}
	if err := os.MkdirAll(l.dir, 0o711); err != nil {
		return fail(err)
	}
	if l.pg, err = lab.AddHost("pg"); err != nil {
		return fail(err)
	}
	if l.etcd, err = lab.AddHost("etcd"); err != nil {
		return fail(err)
	}
	for i := range 3 {
		h, err := lab.AddHost("n" + strconv.Itoa(i+1))
		if err != nil {
			return fail(err)
		}
		l.nodes = append(l.nodes, h)
	}
	if err := l.startPostgres(ctx); err != nil {
		return fail(err)
	}
	return l, nil
}

// startPostgres makes a cluster with pgserver (initdb, the campus
// database, the superuser's password; on loopback, then stopped), admits
// the lab's network in pg_hba.conf and runs postgres in the pg namespace
// on its address, as the postgres user, with pgserver's durable settings.
func (l *netemLab) startPostgres(ctx context.Context) error {
	dir := filepath.Join(l.dir, "pg")
	initCtx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	srv, err := pgserver.Start(initCtx, pgserver.Options{Dir: dir, Log: zerolog.Nop()})
	if err != nil {
		return fmt.Errorf("netem: make the postgres cluster: %w", err)
	}
	if err := srv.Stop(initCtx); err != nil {
		return fmt.Errorf("netem: make the postgres cluster: %w", err)
	}
	pw, err := os.ReadFile(filepath.Join(dir, "password"))
	if err != nil {
		return fmt.Errorf("netem: postgres password: %w", err)
	}
	data := filepath.Join(dir, "data")
	hba, err := os.OpenFile(filepath.Join(data, "pg_hba.conf"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("netem: pg_hba.conf: %w", err)
	}
	_, err = fmt.Fprintf(hba, "\n# the bench's network lab\nhost all all %s scram-sha-256\n", l.lab.Subnet())
	if cerr := hba.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("netem: pg_hba.conf: %w", err)
	}
	bin, err := postgresBinary()
	if err != nil {
		return err
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return fmt.Errorf("netem: the postgres user: %w", err)
	}
	// setpriv drops to the postgres user after `ip netns exec` (which
	// needs root) has entered the namespace; postgres refuses root.
	cmd := l.pg.Command("setpriv", "--reuid="+u.Uid, "--regid="+u.Gid, "--clear-groups", bin,
		"-D", data, "-p", strconv.Itoa(labPGPort),
		"-c", "listen_addresses="+l.pg.IP,
		"-c", "unix_socket_directories=",
		// The bench's server and three nodes (CAMPUS_DB_MAX_CONNS 50 and
		// a few each), the bench's own pool, headroom.
		"-c", "max_connections=400",
		"-c", "shared_buffers=256MB",
		"-c", "autovacuum_naptime=10s",
		"-c", "timezone=UTC", "-c", "log_timezone=UTC",
		"-c", "log_line_prefix=%m [%p] ")
	cmd.Dir = dir
	l.pgp, err = startProc(cmd, filepath.Join(dir, "postgres-lab.log"))
	if err != nil {
		return fmt.Errorf("netem: start postgres: %w", err)
	}
	l.dsn = (&url.URL{
		Scheme:   "postgres",
		User:     url.UserPassword("campus", strings.TrimSpace(string(pw))),
		Host:     net.JoinHostPort(l.pg.IP, strconv.Itoa(labPGPort)),
		Path:     "/campus",
		RawQuery: "sslmode=disable",
	}).String()
	db := sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(l.dsn), pgdriver.WithTimeout(5*time.Second)))
	defer db.Close()
	deadline := time.Now().Add(time.Minute)
	for {
		pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		err := db.PingContext(pctx)
		cancel()
		if err == nil {
			return nil
		}
		if l.pgp.exited() || time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("netem: postgres at %s not answering (%v); log tail:\n%s", l.pg.IP, err, l.pgp.tail(15))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// postgresBinary is the postgres beside the initdb on PATH (as pgserver
// picks it), else the newest of Debian's.
func postgresBinary() (string, error) {
	if p, err := exec.LookPath("initdb"); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		if pg := filepath.Join(filepath.Dir(p), "postgres"); fileExists(pg) {
			return pg, nil
		}
	}
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin/postgres")
	if len(matches) == 0 {
		return "", errors.New("netem: no postgres binary (beside initdb on PATH or in /usr/lib/postgresql)")
	}
	best, bestV := "", -1
	for _, m := range matches {
		v, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(m))))
		if v > bestV {
			best, bestV = m, v
		}
	}
	return best, nil
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// close stops Postgres and tears the network down (with anything still
// running in it).
func (l *netemLab) close() error {
	var errs []error
	if l.pgp != nil {
		errs = append(errs, l.pgp.stop(syscall.SIGINT, 30*time.Second))
	}
	errs = append(errs, l.lab.Close())
	return errors.Join(errs...)
}

// labProc is a process the netem scenario started (Postgres, etcd).
type labProc struct {
	cmd  *exec.Cmd
	done chan struct{}
	log  string
}

// startProc starts cmd with its output appended to logPath.
func startProc(cmd *exec.Cmd, logPath string) (*labProc, error) {
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	defer logf.Close() // the child holds its own descriptor
	cmd.Stdout, cmd.Stderr = logf, logf
	// Its own process group keeps a Ctrl-C meant for the bench away: the
	// bench stops it in order.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM, Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &labProc{cmd: cmd, done: make(chan struct{}), log: logPath}
	go func() { _ = cmd.Wait(); close(p.done) }()
	return p, nil
}

func (p *labProc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// stop sends sig and kills the process if it has not exited after timeout.
func (p *labProc) stop(sig syscall.Signal, timeout time.Duration) error {
	if p.exited() {
		return nil
	}
	_ = p.cmd.Process.Signal(sig)
	select {
	case <-p.done:
		return nil
	case <-time.After(timeout):
		_ = p.cmd.Process.Kill()
		<-p.done
		return fmt.Errorf("%s ignored %s for %s and was killed", filepath.Base(p.cmd.Path), sig, timeout)
	}
}

// tail is the last n lines of the process's log.
func (p *labProc) tail(n int) string {
	s := &server{logPath: p.log}
	return s.tail(n)
}
