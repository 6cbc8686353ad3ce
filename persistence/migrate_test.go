package persistence_test

import (
	"context"
	"io/fs"
	neturl "net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/uptrace/bun"

	"campus/persistence"
	"campus/persistence/testdb"
)

func TestMain(m *testing.M) { testdb.Main(m) }

// tables are every table the schema must have.
var tables = []string{
	"account_capabilities", "account_suspensions",
	"app_secrets", "comments", "conversation_members", "conversations", "experience", "friend_requests", "friendships", "group_members", "groups", "mail_outbox", "mentions", "message_images", "message_reactions",
	"message_settings", "messages", "moderation_audit",
	"node_status", "notifications", "otp_codes", "post_bookmarks", "post_images", "post_likes", "post_tags", "posts", "profile_likes", "profiles", "push_outbox",
	"push_subscriptions",
	"reports", "search_outbox", "sso_flows", "sso_replay", "sso_tickets", "tag_backfill", "user_blocks", "user_identities", "user_mutes", "users",
}

// ourTables lists the public tables that are not the migrator's own.
func ourTables(t *testing.T, db bun.IDB) []string {
	t.Helper()
	var names []string
	err := db.NewSelect().
		TableExpr("information_schema.tables").
		Column("table_name").
		Where("table_schema = 'public'").
		Where("table_name NOT LIKE 'bun\\_%'").
		Order("table_name").
		Scan(context.Background(), &names)
	if err != nil {
		t.Fatal(err)
	}
	return names
}

func TestMigrateDownAndUpAgain(t *testing.T) {
	ctx := context.Background()
	db := testdb.New(t)

	if got := ourTables(t, db); !slices.Equal(got, tables) {
		t.Fatalf("after Migrate: tables %v, want %v", got, tables)
	}
	if err := persistence.Rollback(ctx, db); err != nil {
		t.Fatal(err)
	}
	if got := ourTables(t, db); len(got) != 0 {
		t.Fatalf("after Rollback: tables %v remain", got)
	}
	var fns int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM pg_proc WHERE proname IN ('search_outbox_notify', 'mail_outbox_notify', 'push_outbox_enqueue', 'push_outbox_enqueue_messages')").Scan(&fns); err != nil || fns != 0 {
		t.Fatalf("after Rollback: %d trigger functions remain (%v)", fns, err)
	}
	if err := persistence.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	if got := ourTables(t, db); !slices.Equal(got, tables) {
		t.Fatalf("after Migrate again: tables %v, want %v", got, tables)
	}
	if err := persistence.Migrate(ctx, db); err != nil {
		t.Fatalf("Migrate with nothing pending: %v", err)
	}
}

// TestConcurrentMigrate starts several "nodes" migrating one empty database
// at once: each must succeed and the schema must be applied exactly once.
func TestConcurrentMigrate(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	url := testdb.NewURL(t)
	first, err := persistence.Open(ctx, url, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	if err := persistence.Rollback(ctx, first); err != nil {
		t.Fatal(err)
	}

	const nodes = 4
	var wg sync.WaitGroup
	errs := make([]error, nodes)
	for i := range nodes {
		wg.Go(func() {
			db, err := persistence.Open(ctx, url, zerolog.Nop())
			if err != nil {
				errs[i] = err
				return
			}
			defer db.Close()
			errs[i] = persistence.Migrate(ctx, db)
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("node %d: %v", i, err)
		}
	}
	var applied int
	if err := first.QueryRowContext(ctx, "SELECT count(*) FROM bun_migrations").Scan(&applied); err != nil {
		t.Fatal(err)
	}
	// Every migration applied exactly once, however many nodes raced.
	files, err := fs.Glob(persistence.MigrationFiles, "migrations/*.up.sql")
	if err != nil {
		t.Fatal(err)
	}
	if applied != len(files) {
		t.Errorf("bun_migrations has %d rows, want %d (one per migration)", applied, len(files))
	}
	if got := ourTables(t, first); !slices.Equal(got, tables) {
		t.Errorf("tables %v, want %v", got, tables)
	}
}

func TestClonesAreIsolated(t *testing.T) {
	ctx := context.Background()
	a, b := testdb.New(t), testdb.New(t)
	if _, err := a.NewInsert().Model(newUser("isolated")).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	for name, db := range map[string]*bun.DB{"a": a, "b": b} {
		n, err := db.NewSelect().Model((*persistence.User)(nil)).Count(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]int64{"a": 1, "b": 0}[name]
		if n != want {
			t.Errorf("clone %s has %d users, want %d", name, n, want)
		}
	}
}

func withDatabase(t *testing.T, raw, database string) string {
	t.Helper()
	u, err := neturl.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + database
	return u.String()
}

func TestOpen(t *testing.T) {
	ctx := context.Background()
	url := testdb.NewURL(t)
	tests := []struct {
		name    string
		url     string
		wantErr string
	}{
		{"good", url, ""},
		{"malformed", "mysql://nope", "malformed database URL"},
		{"missing database", withDatabase(t, url, "campus_no_such_db"), "ping"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db, err := persistence.Open(ctx, tt.url, zerolog.Nop())
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				db.Close()
				return
			}
			if err == nil {
				db.Close()
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("err = %v, want it to mention %q", err, tt.wantErr)
			}
		})
	}
}

// TestProfileLikeRollupKey: migration 20261124000007 admits the
// profile_like kind and allows one such row per user (its roll-up).
func TestProfileLikeRollupKey(t *testing.T) {
	ctx := context.Background()
	db := testdb.New(t)
	u := newUser("Key Owner")
	insert(t, db, u)
	add := func() error {
		_, err := db.ExecContext(ctx, `INSERT INTO notifications (id, user_id, type) VALUES (?, ?, 'profile_like')`, persistence.NewID(), u.ID)
		return err
	}
	if err := add(); err != nil {
		t.Fatalf("first profile_like row: %v", err)
	}
	if err := add(); err == nil {
		t.Fatal("a second profile_like row of one user was accepted")
	}
}
