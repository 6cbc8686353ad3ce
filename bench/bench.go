package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/uptrace/bun"
	"github.com/valyala/fasthttp"

	"campus/app"
)

// bench is one run: the server under test, its database, the seeded world
// and the report being filled.
type bench struct {
	o     opts
	t0    time.Time
	rep   *report
	tmp   string  // temp dir (managed server's data dir, secret copy); removed unless --keep
	srv   *server // nil with --url
	addr  string  // host:port of the HTTP server
	dsn   string
	db    *bun.DB
	w     *world
	dial  *dialer
	cpu   *cpuMeter
	avail map[string]error // endpoint probe results, nil = available
	// pprofAddr is the server's net/http/pprof listener (host:port), for
	// the soak's heap profiles; empty: none.
	pprofAddr string
	// lab is the netem scenario's network, holding the bench's Postgres
	// when that scenario runs; labErr says why it could not be built.
	lab    *netemLab
	labErr error
	// cl is the cluster the messages and cluster scenarios share (started
	// by the first of them); clErr says why it could not start.
	cl    *benchCluster
	clErr error

	base       base
	one        *fasthttp.HostClient // single requests: probes, polls, fan-out likes
	oneOnce    sync.Once
	stormStats *likeStats // for the campus event's ratios
	eventStats *likeStats // the campus event's closed loop: the event space's pace
	restarted  bool       // the crash scenario restarted the server

	logMu sync.Mutex
}

func newBench(o opts) *bench {
	return &bench{o: o, t0: time.Now(), rep: newReport(o), dial: newDialer(), cpu: newCPUMeter(0)}
}

// now is the bench's clock: nanoseconds since start, monotonic, cheap to
// compare across goroutines.
func (b *bench) now() int64 { return int64(time.Since(b.t0)) }

// progress prints one line to stderr, prefixed with the elapsed time.
func (b *bench) progress(format string, args ...any) {
	b.logMu.Lock()
	defer b.logMu.Unlock()
	fmt.Fprintf(os.Stderr, "[%6.1fs] %s\n", time.Since(b.t0).Seconds(), fmt.Sprintf(format, args...))
}

// ticker prints line() every second until the returned stop is called.
func (b *bench) ticker(line func() string) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				b.progress("%s", line())
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

func (b *bench) setup(ctx context.Context) error {
	raiseNoFile()
	tmp, err := os.MkdirTemp("", "campus-bench-")
	if err != nil {
		return fmt.Errorf("temp dir: %w", err)
	}
	b.tmp = tmp
	// 0711: when we are root the embedded Postgres runs as the postgres
	// user, which must traverse this dir to reach its own data dir.
	if err := os.Chmod(tmp, 0o711); err != nil {
		return fmt.Errorf("temp dir: %w", err)
	}
	secretPath := filepath.Join(tmp, "secret")

	if b.o.url != "" {
		u, err := url.Parse(b.o.url)
		if err != nil || u.Host == "" || u.Scheme != "http" {
			return fmt.Errorf("--url %q: want http://host:port", b.o.url)
		}
		b.addr = u.Host
		if _, _, err := net.SplitHostPort(b.addr); err != nil {
			b.addr = net.JoinHostPort(u.Host, "80")
		}
		b.dial.forTarget(b.addr)
		b.dsn = b.o.dbURL
		b.cpu = newCPUMeter(b.o.serverPID)
		// The target's own pprof listener, if the user says where it is.
		b.pprofAddr = os.Getenv("CAMPUS_PPROF_ADDR")
		b.progress("targeting %s (database from --database-url)", b.o.url)
	} else {
		port, err := freePort()
		if err != nil {
			return err
		}
		b.addr = net.JoinHostPort("127.0.0.1", fmt.Sprint(port))
		var env []string
		if b.o.soak > 0 {
			// The soak takes heap profiles; the scenarios run unprofiled
			// unless the user sets CAMPUS_PPROF_ADDR (it passes through).
			addr, own, err := pprofAddrFor(b.addr)
			if err != nil {
				return err
			}
			if own {
				env = append(env, "CAMPUS_PPROF_ADDR="+addr)
			}
			b.pprofAddr = addr
		}
		if b.want("netem") {
			// The scenario comes between nodes and their Postgres: the
			// bench's database runs in the lab from the start.
			b.lab, b.labErr = startNetemLab(ctx, tmp)
			switch {
			case b.labErr == nil:
				b.o.dbURL = b.lab.dsn
				b.progress("netem: network lab %s, Postgres at %s", b.lab.lab.Subnet(), b.lab.pg.IP)
			case isUnavailable(b.labErr):
				b.progress("netem: %v", b.labErr)
			default:
				return b.labErr
			}
		}
		b.progress("starting %s serve on %s (data dir %s)", b.o.bin, b.addr, tmp)
		b.srv, err = startServer(ctx, serverConfig{bin: b.o.bin, dir: tmp, addr: b.addr, dbURL: b.o.dbURL, env: env})
		if err != nil {
			return err
		}
		if err := b.srv.waitReady(ctx, 3*time.Minute); err != nil {
			return err
		}
		b.progress("server ready (pid %d) after %.1fs", b.srv.pid(), time.Since(b.t0).Seconds())
		b.dsn = b.o.dbURL
		if b.dsn == "" {
			if b.dsn, err = b.srv.embeddedDSN(); err != nil {
				return err
			}
		}
		b.cpu = newCPUMeter(b.srv.pid())
		secretPath = b.srv.secretPath()
	}
	b.db, err = openDB(ctx, b.dsn, 64)
	if err != nil {
		return err
	}
	b.cpu.setDB(b.db.DB)
	b.w, err = b.seed(ctx)
	if err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	keys, err := app.LoadKeys(ctx, b.db, secretPath)
	if err != nil {
		return fmt.Errorf("token keys: %w", err)
	}
	signer, err := app.NewSigner(keys.Token, b.o.product)
	if err != nil {
		return err
	}
	b.w.auth = make([]string, len(b.w.users))
	b.w.tokens = make([]string, len(b.w.users))
	for i, id := range b.w.users {
		tok, err := signer.Issue(id.String(), 0)
		if err != nil {
			return err
		}
		b.w.tokens[i], b.w.auth[i] = tok, "Bearer "+tok
	}
	b.progress("minted %d tokens", len(b.w.tokens))
	b.probe(ctx)
	return nil
}

// want reports whether --only selects the scenario; an opt-in scenario
// only when --only names it.
func (b *bench) want(name string) bool {
	only := splitList(b.o.only)
	if name == "messages" && contains(only, "peers") && len(peerTargets) > 0 {
		return true // --only peers: the messages scenario carries its peers
	}
	return contains(only, name) || len(only) == 0 && !contains(optIn, name)
}

// runScenarios runs everything in an order that keeps the figures honest:
// the index drains before anything is timed, baselines come first, the
// crash restarts the server, and the idle-socket RSS is read on that fresh
// process (no freed heap from earlier storms to reuse).
func (b *bench) runScenarios(ctx context.Context) {
	if b.o.soak > 0 {
		// The soak runs alone, once the index has drained and the server
		// has settled.
		for _, fn := range []func(context.Context){b.indexing, b.settle, b.runSoak} {
			if ctx.Err() != nil {
				return
			}
			fn(ctx)
		}
		return
	}
	steps := []struct {
		name string
		fn   func(context.Context)
	}{
		// The index drains and the server settles whatever --only says:
		// the seeded outbox is indexed (and its segments merged) in the
		// background, and that work must not land in a timed phase.
		{"", b.indexing},
		{"", b.settle},
		{"baselines", b.baselines},
		{"storm", b.storm},
		{"event", b.event},
		{"event2x", b.event2x},
		{"eventspace", b.eventSpace},
		{"feed", b.feed},
		{"search", b.search},
		{"crash", b.crash},
		{"conns", b.connections},
		// The count fan-out beside Centrifugo (the messages peers run in
		// the messages scenario).
		{"peers", b.peers},
		// Its cluster phase starts the three nodes the cluster scenario
		// then uses.
		{"messages", b.messages},
		// Last: it adds four processes over the same database.
		{"cluster", b.cluster},
		// Opt-in: network namespaces, three nodes, etcd.
		{"netem", b.netem},
		{"sso", b.sso}, // a node of its own, rate limits on: the lecture hall
	}
	for _, s := range steps {
		if ctx.Err() != nil {
			return
		}
		if s.name != "" && !b.want(s.name) {
			continue
		}
		s.fn(ctx)
	}
}

// settle waits, up to a bound, until the server and its Postgres are idle
// (under 0.1 core over a second): after the seeding, background work (the
// search index merging its segments) can run on for a while.
func (b *bench) settle(ctx context.Context) {
	if b.cpu.pid <= 0 {
		return
	}
	limit := 2 * time.Minute
	if b.o.quick {
		limit = 20 * time.Second
	}
	done := b.cpu.phase("settle (until the server is idle)")
	defer done()
	start := time.Now()
	for time.Since(start) < limit && ctx.Err() == nil {
		a := b.cpu.snap()
		time.Sleep(time.Second)
		z := b.cpu.snap()
		if !a.known || !z.known {
			return
		}
		busy := ((z.server - a.server) + (z.db - a.db)).Seconds() / z.wall.Sub(a.wall).Seconds()
		if busy < 0.1 {
			b.progress("server idle after %.0fs", time.Since(start).Seconds())
			return
		}
	}
	b.progress("server still busy after %s; measuring anyway", limit)
}

// baselines measures the three same-run references.
func (b *bench) baselines(ctx context.Context) {
	b.ceiling(ctx)
	b.naive(ctx)
	b.rawPush(ctx)
}

func (b *bench) print() {
	if b.cpu != nil {
		b.rep.cpu = b.cpu.rows
	}
	b.rep.elapsed = time.Since(b.t0)
	if b.o.json {
		b.rep.printTable(os.Stderr)
		if err := b.rep.printJSON(os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "bench: json:", err)
		}
		return
	}
	b.rep.printTable(os.Stdout)
}

// close stops what setup started, in reverse order.
func (b *bench) close() {
	b.closeCluster()
	if b.db != nil {
		_ = b.db.Close()
	}
	if b.srv != nil {
		if err := b.srv.stop(30 * time.Second); err != nil {
			b.progress("stop server: %v", err)
		}
	}
	if b.lab != nil {
		if err := b.lab.close(); err != nil {
			b.progress("netem: tear down the lab: %v", err)
		}
	}
	if b.tmp == "" {
		return
	}
	if b.o.keep {
		b.progress("kept %s", b.tmp)
		return
	}
	if err := os.RemoveAll(b.tmp); err != nil {
		b.progress("remove %s: %v", b.tmp, err)
	}
}

// errUnavailable marks an endpoint the server does not have (yet).
var errUnavailable = errors.New("unavailable")

// unavailableErr says which endpoint is missing.
func unavailableErr(what string) error { return fmt.Errorf("%w: no %s", errUnavailable, what) }
