package persistence_test

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"campus/persistence"
	"campus/persistence/testdb"
)

// TestMaxConns: the pool never holds more server connections than
// CAMPUS_DB_MAX_CONNS allows; one more caller waits for a connection to come
// back rather than opening another, which is what keeps a whole cluster
// inside the server's max_connections.
func TestMaxConns(t *testing.T) {
	tests := []struct {
		name string
		opts []persistence.Option
		want int
	}{
		{"default", nil, persistence.DefaultMaxConns},
		{"set", []persistence.Option{persistence.MaxConns(12)}, 12},
		{"not positive keeps the default", []persistence.Option{persistence.MaxConns(0)}, persistence.DefaultMaxConns},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			url := testdb.NewURL(t)
			db, err := persistence.Open(ctx, url, zerolog.Nop(), tt.opts...)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if got := db.DB.Stats().MaxOpenConnections; got != tt.want {
				t.Fatalf("MaxOpenConnections = %d, want %d", got, tt.want)
			}

			// Hold every connection the pool may open.
			var held []*sql.Conn
			defer func() {
				for _, c := range held {
					c.Close()
				}
			}()
			for range tt.want {
				c, err := db.DB.Conn(ctx)
				if err != nil {
					t.Fatal(err)
				}
				held = append(held, c)
			}
			// One more must wait, not connect.
			got := make(chan error, 1)
			go func() {
				c, err := db.DB.Conn(ctx)
				if err == nil {
					err = c.Close()
				}
				got <- err
			}()
			for db.DB.Stats().WaitCount == 0 {
				time.Sleep(5 * time.Millisecond)
			}
			var onServer int
			// current_database() is this test's own: other tests' pools
			// are elsewhere.
			err = held[0].QueryRowContext(ctx,
				"SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'campus'").Scan(&onServer)
			if err != nil {
				t.Fatal(err)
			}
			if onServer != tt.want {
				t.Errorf("%d connections on the server while one caller waits, want %d", onServer, tt.want)
			}
			// Giving one back lets the waiter through.
			held[len(held)-1].Close()
			held = held[:len(held)-1]
			if err := <-got; err != nil {
				t.Fatal(err)
			}
		})
	}
}
