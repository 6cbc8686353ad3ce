package persistence_test

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"net"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/uptrace/bun"

	"campus/persistence"
	"campus/persistence/testdb"
)

// IsUnavailable tells "the database is out of reach" from "the query is
// wrong", on errors the real driver returns.
func TestIsUnavailable(t *testing.T) {
	ctx := context.Background()
	db := testdb.New(t)

	// A server error that ends the session: 57P01 admin_shutdown, as an
	// immediate shutdown or pg_terminate_backend sends it.
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_, terminated := conn.ExecContext(ctx, "SELECT pg_terminate_backend(pg_backend_pid())")
	conn.Close()
	_, syntax := db.ExecContext(ctx, "SELEC 1")
	_, divide := db.ExecContext(ctx, "SELECT 1/0")

	// Nothing listens on a port just freed.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	_, refused := persistence.Open(ctx, "postgres://campus:x@127.0.0.1:"+strconv.Itoa(port)+"/campus?sslmode=disable", zerolog.Nop())

	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"server terminated the connection", terminated, true},
		{"connection refused", refused, true},
		{"wrapped end of file", fmt.Errorf("persistence: feed: %w", io.EOF), true},
		{"bad connection", fmt.Errorf("x: %w", sql.ErrConnDone), true},
		{"syntax error", syntax, false},
		{"division by zero", divide, false},
		{"no rows", sql.ErrNoRows, false},
		{"cancelled", context.Canceled, false},
		{"nil", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if (tt.err == nil) != (tt.name == "nil") {
				t.Fatalf("the real error was not produced: %v", tt.err)
			}
			if got := persistence.IsUnavailable(tt.err); got != tt.want {
				t.Fatalf("IsUnavailable(%v) = %t, want %t", tt.err, got, tt.want)
			}
		})
	}
}

// After the server dropped every connection of the pool (as a restart
// does), the next queries, prepared statements included, run on fresh
// connections without failing: dead connections are found before use.
func TestPoolSurvivesDroppedConnections(t *testing.T) {
	ctx := context.Background()
	url := testdb.NewURL(t)
	open := func() *bun.DB {
		db, err := persistence.Open(ctx, url, zerolog.Nop())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	db, admin := open(), open()
	author := newUser("Pool Author")
	insert(t, db, author)
	newPost(t, db, author, "pool post", 0)
	feed := func(db bun.IDB) error {
		_, _, err := persistence.Posts(ctx, db, persistence.PostQuery{Viewers: nil, Limit: 10})
		return err
	}
	// Fill the pool: several connections at once, each having prepared the
	// feed's statement.
	const conns = 8
	hold := func() {
		var wg sync.WaitGroup
		errs := make(chan error, conns)
		for range conns {
			wg.Go(func() {
				tx, err := db.BeginTx(ctx, nil)
				if err != nil {
					errs <- err
					return
				}
				defer tx.Rollback()
				if _, err := tx.ExecContext(ctx, "SELECT pg_sleep(0.05)"); err != nil {
					errs <- err
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
	}
	hold()
	for range conns {
		if err := feed(db); err != nil {
			t.Fatal(err)
		}
	}

	// Another connection ends every one of them.
	var killed int
	if err := admin.QueryRowContext(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE datname = current_database() AND pid <> pg_backend_pid()`).Scan(&killed); err != nil {
		t.Fatal(err)
	}
	if killed == 0 {
		t.Fatal("no connection of the pool was open")
	}
	// Let the terminations land.
	deadline := time.Now().Add(5 * time.Second)
	for {
		var left int
		if err := admin.QueryRowContext(ctx, `SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND pid <> pg_backend_pid()`).Scan(&left); err != nil {
			t.Fatal(err)
		}
		if left == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d connections still open", left)
		}
		time.Sleep(20 * time.Millisecond)
	}

	for i := range 2 * conns {
		if err := feed(db); err != nil {
			t.Fatalf("feed %d after the connections were dropped: %v", i, err)
		}
		var one int
		if err := db.QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil {
			t.Fatalf("query %d after the connections were dropped: %v", i, err)
		}
	}
}

// A listener's reconnection pauses start short, double, stop growing at
// the cap, and start short again after a success; jitter stays within 20%.
func TestBackoff(t *testing.T) {
	var b persistence.Backoff
	want := []time.Duration{250, 500, 1000, 2000, 2000, 2000}
	for round := range 2 {
		for i, w := range want {
			w *= time.Millisecond
			if d := b.Next(); d < w-w/5 || d > w+w/5 {
				t.Fatalf("round %d, pause %d: %s, want %s ± 20%%", round, i, d, w)
			}
		}
		if b.Failures() != len(want) {
			t.Fatalf("failures %d, want %d", b.Failures(), len(want))
		}
		b.Reset()
	}
}
