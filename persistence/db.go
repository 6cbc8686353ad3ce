// Package persistence is Campus's only door to Postgres, the single source
// of truth (docs/architecture.md §7): the Bun models, the migrations, and the queries,
// one file per area. Queries take a bun.IDB so that callers choose between
// the pool and a transaction.
package persistence

import (
	"context"
	"database/sql"
	"fmt"
	"net"
	"time"

	"github.com/rs/zerolog"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/driver/pgdriver"

	"campus/rawio"
)

const (
	// DefaultMaxConns sizes the pool for a busy node (CAMPUS_DB_MAX_CONNS'
	// default); three nodes stay well inside the embedded server's
	// max_connections of 200.
	DefaultMaxConns = 50
	// readTimeout is a backstop against a connection that hangs; a query
	// is normally bounded by its context. A URL's read_timeout wins.
	readTimeout = 2 * time.Minute
	// slowQuery is when a query is worth a warning.
	slowQuery = 500 * time.Millisecond
)

// Option changes how Open sets up the pool.
type Option func(*options)

type options struct {
	maxConns int
}

// MaxConns caps the pool at n open connections (DefaultMaxConns without
// it; n < 1 keeps the default). The LISTEN connections of pgdriver's
// listeners are opened beside the pool and are not counted in n.
func MaxConns(n int) Option {
	return func(o *options) {
		if n > 0 {
			o.maxConns = n
		}
	}
}

// Open connects to the database at url (a postgres:// URL as pgdriver reads
// it) and checks that it answers.
func Open(ctx context.Context, url string, log zerolog.Logger, opts ...Option) (*bun.DB, error) {
	o := options{maxConns: DefaultMaxConns}
	for _, opt := range opts {
		opt(&o)
	}
	c, err := connector(url)
	if err != nil {
		return nil, err
	}
	sqldb := sql.OpenDB(c)
	sqldb.SetMaxOpenConns(o.maxConns)
	sqldb.SetMaxIdleConns(o.maxConns)
	sqldb.SetConnMaxIdleTime(5 * time.Minute)
	db := bun.NewDB(sqldb, pgdialect.New())
	db.AddQueryHook(slowQueryHook{log: log})
	registerStatements(sqldb, log)

	pingCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := db.PingContext(pingCtx); err != nil {
		db.Close()
		return nil, fmt.Errorf("persistence: ping: %w", err)
	}
	return db, nil
}

// connector builds the pgdriver connector; pgdriver panics on a malformed
// URL, which becomes an error here.
func connector(url string) (c *pgdriver.Connector, err error) {
	defer func() {
		if r := recover(); r != nil {
			// The panic value may quote the URL, password and all.
			err = fmt.Errorf("persistence: malformed database URL")
		}
	}()
	return pgdriver.NewConnector(
		pgdriver.WithApplicationName("campus"),
		pgdriver.WithReadTimeout(readTimeout),
		pgdriver.WithWriteTimeout(30*time.Second),
		// Tracing creates a span per query; nothing here collects them.
		pgdriver.WithTracing(false),
		// Drop connections the server closed before using them (a restart).
		pgdriver.WithResetSessionFunc(checkConn),
		pgdriver.WithDSN(url), // the URL's own settings win
		rawDialer,
	), nil
}

// rawDialer makes the driver's connections read and write with raw system
// calls (rawio.Conn): every query is a write and a read or more, and
// through the scheduler's syscall path each woke the runtime's monitor
// thread after an idle moment (see package rawio). TLS, when the URL asks
// for it, wraps the connection dialed here as before.
func rawDialer(conf *pgdriver.Config) {
	dial := conf.Dialer
	conf.Dialer = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return rawio.Conn(c), nil
	}
}

// slowQueryHook warns about slow queries. It names the operation and table
// only: Bun inlines arguments into the query text, which may hold e-mail
// addresses and hashes that must not reach the logs.
type slowQueryHook struct {
	log zerolog.Logger
}

func (h slowQueryHook) BeforeQuery(ctx context.Context, _ *bun.QueryEvent) context.Context {
	return ctx
}

func (h slowQueryHook) AfterQuery(_ context.Context, e *bun.QueryEvent) {
	took := time.Since(e.StartTime)
	if took < slowQuery {
		return
	}
	ev := h.log.Warn().Str("op", e.Operation()).Int64("duration_ms", took.Milliseconds())
	if e.IQuery != nil {
		ev = ev.Str("table", e.IQuery.GetTableName())
	}
	ev.Msg("slow query")
}
