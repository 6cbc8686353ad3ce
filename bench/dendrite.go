package main

import (
	"cmp"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/uptrace/bun/driver/pgdriver"

	"campus/persistence"
)

func init() { peerTargets = append(peerTargets, newDendriteTarget) }

// dendriteDatabase is the database (and role) Dendrite gets on the bench's
// Postgres: its own, beside Campus's, as its docs set it up.
const dendriteDatabase = "dendrite"

// dendriteMaxConns is the sample config's global pool (max_open_conns).
const dendriteMaxConns = 90

// dendriteBenchPool is the bench's own pool on the same Postgres (openDB in
// bench.setup); with Campus's it is what Dendrite's pool must leave room for.
const dendriteBenchPool = 64

// dendriteEnv is where a Dendrite runs and what it shares.
type dendriteEnv struct {
	// adminDSN is a Postgres URL of a role that may create roles and
	// databases (the bench's, which is the embedded server's superuser).
	adminDSN string
	// dir holds the config, the signing key, JetStream's streams, the
	// media store and the log; the bench's temp dir.
	dir string
	// otherConns are the connections other software may hold on that
	// Postgres at once; Dendrite's pool is sized to leave them room.
	otherConns int
	// maxPool caps Dendrite's pool (0: the sample's 90).
	maxPool int
	// keep leaves the database in place at close (--keep).
	keep     bool
	dial     *dialer
	progress func(format string, args ...any)
}

// newDendriteTarget starts Dendrite beside the bench's Campus, on the same
// Postgres server (a database of its own), for the messages scenario.
func newDendriteTarget(ctx context.Context, b *bench) (msgTarget, error) {
	if b.dsn == "" {
		return nil, errors.New("dendrite: the bench has no Postgres")
	}
	dir := filepath.Join(b.tmp, "dendrite")
	return startDendriteTarget(ctx, dendriteEnv{
		adminDSN: b.dsn,
		dir:      dir,
		// Campus's node pool, a few LISTEN connections beside it, and the
		// bench's pool.
		otherConns: persistence.DefaultMaxConns + 10 + dendriteBenchPool,
		keep:       b.o.keep,
		dial:       b.dial,
		progress:   b.progress,
	})
}

// dendriteProc is a running dendrite the bench started.
type dendriteProc struct {
	cmd     *exec.Cmd
	done    chan struct{}
	waitErr error
	addr    string
	logPath string
	secret  string // the registration shared secret
}

// startDendrite builds (once) and starts Dendrite on a free loopback port,
// its database created on env's Postgres, and returns once it answers.
func startDendrite(ctx context.Context, env dendriteEnv) (*dendriteProc, *dendriteDB, error) {
	bins, err := dendriteBinaries(ctx, env.progress)
	if err != nil {
		return nil, nil, err
	}
	// A fresh dir as the database is fresh: JetStream's streams and the
	// media store belong to the database they were written beside.
	if err := os.RemoveAll(env.dir); err != nil {
		return nil, nil, fmt.Errorf("dendrite: %w", err)
	}
	if err := os.MkdirAll(env.dir, 0o700); err != nil {
		return nil, nil, fmt.Errorf("dendrite: %w", err)
	}
	ddb, err := createDendriteDB(ctx, env.adminDSN, env.otherConns, cmp.Or(env.maxPool, dendriteMaxConns))
	if err != nil {
		return nil, nil, err
	}
	ok := false
	defer func() {
		if !ok {
			ddb.drop()
		}
	}()
	keyPath := filepath.Join(env.dir, "matrix_key.pem")
	if out, err := exec.CommandContext(ctx, filepath.Join(bins, "generate-keys"), "--private-key", keyPath).CombinedOutput(); err != nil {
		return nil, nil, fmt.Errorf("dendrite: generate-keys: %w: %s", err, out)
	}
	secret, err := dendriteRandomHex(32)
	if err != nil {
		return nil, nil, err
	}
	cfgPath := filepath.Join(env.dir, "dendrite.yaml")
	if err := os.WriteFile(cfgPath, []byte(dendriteConfig(env.dir, keyPath, ddb.url, ddb.maxConns, secret)), 0o600); err != nil {
		return nil, nil, fmt.Errorf("dendrite: config: %w", err)
	}
	port, err := freePort()
	if err != nil {
		return nil, nil, err
	}
	p := &dendriteProc{
		addr:    net.JoinHostPort("127.0.0.1", fmt.Sprint(port)),
		logPath: filepath.Join(env.dir, "dendrite.log"),
		done:    make(chan struct{}),
	}
	logf, err := os.OpenFile(p.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("dendrite: log: %w", err)
	}
	defer logf.Close() // the child holds its own descriptor
	p.cmd = exec.Command(filepath.Join(bins, "dendrite"), "--config", cfgPath, "--http-bind-address", p.addr)
	p.cmd.Dir = env.dir
	p.cmd.Stdout, p.cmd.Stderr = logf, logf
	// Its own process group keeps a terminal's Ctrl-C away (the bench
	// stops it); SIGTERM if the bench dies without doing so.
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM, Setpgid: true}
	began := time.Now()
	if err := p.cmd.Start(); err != nil {
		return nil, nil, fmt.Errorf("dendrite: start: %w", err)
	}
	go func() {
		p.waitErr = p.cmd.Wait()
		close(p.done)
	}()
	if err := p.waitReady(ctx, 3*time.Minute); err != nil {
		_ = p.stop(10 * time.Second)
		return nil, nil, err
	}
	env.progress("dendrite: %s ready on %s (pid %d) after %.1fs; database %s, pool %d; log %s",
		dendriteVersion, p.addr, p.pid(), time.Since(began).Seconds(), dendriteDatabase, ddb.maxConns, p.logPath)
	p.secret = secret
	ok = true
	return p, ddb, nil
}

// dendriteConfig is the config file: the sample config's production
// settings (dendrite-sample.yaml in the release) with the bench's paths,
// database and secret. Only what differs from the sample, or what the
// bench depends on, is written out; the rest keeps Dendrite's defaults,
// which are the sample's values.
func dendriteConfig(dir, keyPath, dbURL string, maxConns int, secret string) string {
	q := func(s string) string { return fmt.Sprintf("%q", s) } // JSON quoting is valid YAML
	return strings.Join([]string{
		"version: 2",
		"global:",
		"  server_name: localhost",
		"  private_key: " + q(keyPath),
		"  key_validity_period: 168h0m0s",
		// The one global pool of a Postgres monolith, as the sample has
		// it, max_open_conns sized under the server's max_connections
		// as the docs' optimisation page asks (see createDendriteDB).
		"  database:",
		"    connection_string: " + q(dbURL),
		fmt.Sprintf("    max_open_conns: %d", maxConns),
		"    max_idle_conns: 5",
		"    conn_max_lifetime: -1",
		"  cache:",
		"    max_size_estimated: 1gb",
		"    max_age: 1h",
		// No federation: one homeserver on loopback, no traffic out. The
		// sample has it on; federation would only add idle listeners
		// and key fetches here.
		"  disable_federation: true",
		"  presence:",
		"    enable_inbound: false",
		"    enable_outbound: false",
		"  report_stats:",
		"    enabled: false",
		"  server_notices:",
		"    enabled: false",
		"  jetstream:",
		"    storage_path: " + q(filepath.Join(dir, "jetstream")),
		"    topic_prefix: Dendrite",
		"  metrics:",
		"    enabled: false",
		"  dns_cache:",
		"    enabled: false",
		"client_api:",
		"  registration_disabled: true",
		"  guests_disabled: true",
		// Users are made through the admin registration endpoint.
		"  registration_shared_secret: " + q(secret),
		"  enable_registration_captcha: false",
		// As shipped: per device (per connection for sign-in), 20 requests
		// in any 500 ms. Each person sends one message per ~10 s.
		"  rate_limiting:",
		"    enabled: true",
		"    threshold: 20",
		"    cooloff_ms: 500",
		"media_api:",
		"  base_path: " + q(filepath.Join(dir, "media_store")),
		"  max_file_size_bytes: 10485760",
		"  dynamic_thumbnails: false",
		"  max_thumbnail_generators: 10",
		"sync_api:",
		"  search:",
		"    enabled: false",
		"user_api:",
		"  bcrypt_cost: 10",
		// The sample logs at info both to stdout and to files in ./logs;
		// stdout alone, which the bench sends to dendrite.log, writes each
		// line once.
		"logging:",
		"  - type: std",
		"    level: info",
		"",
	}, "\n")
}

// dendriteDB is Dendrite's database on the shared Postgres.
type dendriteDB struct {
	adminDSN string
	url      string // Dendrite's own role's URL
	maxConns int
}

// createDendriteDB makes the dendrite role and database on the server of
// adminDSN, fresh (a previous run's, on a --database-url server, is dropped),
// as the docs' "Preparing database storage" does: a role with a password
// owning one UTF-8 database. Dendrite makes its tables at start.
//
// The pool: the sample's 90 unless that would break the server's
// max_connections with the other software's pools open (the docs'
// optimisation page: Dendrite's max_open_conns must fit the connection
// limit left by whatever else uses the server). On the bench's embedded
// server (200) beside Campus's and the bench's pools that leaves 73.
//
// Dendrite needs about two connections per /sync in flight: a woken long
// poll holds a snapshot transaction and, inside it, takes more connections
// from the same pool (room server and user API queries). Once the woken
// polls hold the whole pool it deadlocks until clients give their polls up
// (Dendrite issue 3230). Its long polls then go unanswered: notes()
// counts them.
func createDendriteDB(ctx context.Context, adminDSN string, otherConns, maxPool int) (*dendriteDB, error) {
	admin := sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(adminDSN), pgdriver.WithTimeout(30*time.Second),
		pgdriver.WithApplicationName("campus-bench-dendrite")))
	defer admin.Close()
	var maxConn, reserved int
	if err := admin.QueryRowContext(ctx, `SELECT current_setting('max_connections')::int,
		current_setting('superuser_reserved_connections')::int + coalesce(current_setting('reserved_connections', true)::int, 0)`).
		Scan(&maxConn, &reserved); err != nil {
		return nil, fmt.Errorf("dendrite: postgres connection limit: %w", err)
	}
	pool := min(maxPool, maxConn-reserved-otherConns)
	if pool < 10 {
		return nil, fmt.Errorf("dendrite: postgres max_connections %d leaves %d connections for Dendrite beside %d of others", maxConn, pool, otherConns)
	}
	pw, err := dendriteRandomHex(16)
	if err != nil {
		return nil, err
	}
	for _, q := range []string{
		`DROP DATABASE IF EXISTS ` + dendriteDatabase + ` WITH (FORCE)`,
		`DROP ROLE IF EXISTS ` + dendriteDatabase,
		// The password is hex: nothing to escape.
		`CREATE ROLE ` + dendriteDatabase + ` LOGIN PASSWORD '` + pw + `'`,
		`CREATE DATABASE ` + dendriteDatabase + ` OWNER ` + dendriteDatabase + ` ENCODING 'UTF8' TEMPLATE template0`,
	} {
		if _, err := admin.ExecContext(ctx, q); err != nil {
			return nil, fmt.Errorf("dendrite: %s: %w", strings.SplitN(q, " PASSWORD", 2)[0], err)
		}
	}
	u, err := url.Parse(adminDSN)
	if err != nil {
		return nil, fmt.Errorf("dendrite: postgres URL: %w", err)
	}
	dq := u.Query()
	dq.Del("application_name")
	if dq.Get("sslmode") == "" {
		dq.Set("sslmode", "disable")
	}
	d := url.URL{Scheme: "postgres", User: url.UserPassword(dendriteDatabase, pw), Host: u.Host, Path: "/" + dendriteDatabase, RawQuery: dq.Encode()}
	return &dendriteDB{adminDSN: adminDSN, url: d.String(), maxConns: pool}, nil
}

// drop removes the database and role (best effort; the next run drops
// them anyway).
func (d *dendriteDB) drop() error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	admin := sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(d.adminDSN), pgdriver.WithTimeout(30*time.Second)))
	defer admin.Close()
	for _, q := range []string{
		`DROP DATABASE IF EXISTS ` + dendriteDatabase + ` WITH (FORCE)`,
		`DROP ROLE IF EXISTS ` + dendriteDatabase,
	} {
		if _, err := admin.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("dendrite: %s: %w", q, err)
		}
	}
	return nil
}

func (p *dendriteProc) pid() int { return p.cmd.Process.Pid }

// waitReady polls GET /_matrix/client/versions until it answers 200 (the
// database migrated, every component up), the process exits or the
// timeout passes.
func (p *dendriteProc) waitReady(ctx context.Context, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	c := &http.Client{Timeout: 2 * time.Second}
	last := "no answer"
	for time.Now().Before(deadline) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+p.addr+"/_matrix/client/versions", nil)
		resp, err := c.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
			last = resp.Status
		} else {
			last = err.Error()
		}
		select {
		case <-p.done:
			return fmt.Errorf("dendrite exited during start (%v); log tail:\n%s", p.waitErr, dendriteLogTail(p.logPath, 20))
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
	return fmt.Errorf("dendrite not ready after %s (last: %s); log tail:\n%s", timeout, last, dendriteLogTail(p.logPath, 20))
}

// stop asks dendrite to shut down (SIGTERM) and kills it after timeout.
func (p *dendriteProc) stop(timeout time.Duration) error {
	select {
	case <-p.done:
		return nil
	default:
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
		return nil
	case <-time.After(timeout):
		_ = p.cmd.Process.Kill()
		<-p.done
		return fmt.Errorf("dendrite ignored SIGTERM for %s and was killed", timeout)
	}
}

func dendriteRandomHex(n int) (string, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("random: %w", err)
	}
	return hex.EncodeToString(b), nil
}
