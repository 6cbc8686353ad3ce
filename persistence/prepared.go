package persistence

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"time"

	"github.com/rs/zerolog"
	"github.com/uptrace/bun"
)

// Prepared statements for the hottest reads. Bun sends every query as text
// with its arguments inlined, so Postgres plans it on every call; for the
// feed that planning cost as much as running it. A statement prepared on the
// pool is prepared once per connection (database/sql does that lazily) and
// Postgres then reuses its plan. It survives a restart of Postgres: the
// pool drops the dead connections (checkConn) and database/sql prepares the
// statement again on each new one.

// maxPrepared bounds the statements kept per database: queries are keyed by
// their text, which for posts varies only with the filter and page size.
const maxPrepared = 64

type stmtCache struct {
	log   *zerolog.Logger // Open's logger, for slow queries; nil for a DB Open did not make
	mu    sync.Mutex
	stmts map[string]*sql.Stmt
}

// registerStatements gives the statement cache of sqldb Open's logger.
func registerStatements(sqldb *sql.DB, log zerolog.Logger) {
	stmtCaches.Store(sqldb, &stmtCache{log: &log, stmts: make(map[string]*sql.Stmt)})
}

// stmtCaches holds one cache per *sql.DB (a node has one; tests many).
var stmtCaches sync.Map // *sql.DB → *stmtCache

// prepared runs query ($1… placeholders) with args: through a prepared
// statement on a *bun.DB, as a plain query on a transaction or connection.
// Slow queries are logged like Bun's hook does for the rest.
func prepared(ctx context.Context, db bun.IDB, query string, args ...any) (*sql.Rows, error) {
	switch d := db.(type) {
	case *bun.DB:
		c := statements(d.DB)
		start := time.Now()
		defer func() {
			if took := time.Since(start); took >= slowQuery && c.log != nil {
				c.log.Warn().Str("op", "prepared").Int64("duration_ms", took.Milliseconds()).Msg("slow query")
			}
		}()
		st, err := c.statement(ctx, d.DB, query)
		if err != nil {
			return nil, err
		}
		if st == nil { // cache full: plan it this once
			return d.DB.QueryContext(ctx, query, args...)
		}
		return st.QueryContext(ctx, args...)
	case pooledTx:
		// The pool's statement, bound to the transaction's connection
		// (prepared there once, then reused): the node-wide writer runs
		// the hot like statement inside a transaction.
		st, err := statements(d.pool).statement(ctx, d.pool, query)
		if err != nil {
			return nil, err
		}
		if st == nil {
			return d.Tx.Tx.QueryContext(ctx, query, args...)
		}
		return d.Tx.Tx.StmtContext(ctx, st).QueryContext(ctx, args...)
	case bun.Tx:
		return d.Tx.QueryContext(ctx, query, args...)
	case bun.Conn:
		return d.Conn.QueryContext(ctx, query, args...)
	default:
		return nil, fmt.Errorf("persistence: cannot run a prepared query on %T", db)
	}
}

// pooledTx is a transaction (or a savepoint of one) that runs prepared
// queries with the statements of the pool it came from.
type pooledTx struct {
	bun.Tx
	pool *sql.DB
}

// onPool is tx with the prepared statements of db's pool, when db is one.
func onPool(db bun.IDB, tx bun.Tx) bun.IDB {
	if d, ok := db.(*bun.DB); ok {
		return pooledTx{Tx: tx, pool: d.DB}
	}
	return tx
}

// unprepared runs query ($1… placeholders) with args as an unnamed
// statement, which Postgres plans for these very arguments. For a
// statement over arrays whose sizes vary from a handful to thousands of
// elements, a prepared statement's generic plan (which assumes a size) was
// the slower choice.
func unprepared(ctx context.Context, db bun.IDB, query string, args ...any) (*sql.Rows, error) {
	switch d := db.(type) {
	case pooledTx:
		return d.Tx.Tx.QueryContext(ctx, query, args...)
	case bun.Tx:
		return d.Tx.QueryContext(ctx, query, args...)
	case *bun.DB:
		return d.DB.QueryContext(ctx, query, args...)
	case bun.Conn:
		return d.Conn.QueryContext(ctx, query, args...)
	default:
		return nil, fmt.Errorf("persistence: cannot run a query on %T", db)
	}
}

func statements(sqldb *sql.DB) *stmtCache {
	v, ok := stmtCaches.Load(sqldb)
	if !ok {
		v, _ = stmtCaches.LoadOrStore(sqldb, &stmtCache{stmts: make(map[string]*sql.Stmt)})
	}
	return v.(*stmtCache)
}

// statement is query prepared on sqldb, or nil when the cache is full.
func (c *stmtCache) statement(ctx context.Context, sqldb *sql.DB, query string) (*sql.Stmt, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if st := c.stmts[query]; st != nil {
		return st, nil
	}
	if len(c.stmts) >= maxPrepared {
		return nil, nil
	}
	st, err := sqldb.PrepareContext(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("prepare: %w", err)
	}
	c.stmts[query] = st
	return st, nil
}
