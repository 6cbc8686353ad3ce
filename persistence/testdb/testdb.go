// Package testdb gives every test a database of its own, migrated and
// empty, cloned from a template that is migrated once per test process
// (docs/architecture.md §7, §11.1).
//
// A test package wires it in once:
//
//	func TestMain(m *testing.M) { testdb.Main(m) }
//
// and each test asks for a database with New (a *bun.DB) or NewURL (for a
// test that starts a whole server). With TEST_DATABASE_URL set the
// databases live on that server; otherwise Main starts a private, throwaway
// one with pgserver.
package testdb

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/uptrace/bun"

	"campus/persistence"
	"campus/persistence/pgserver"
)

// envURL names the variable that points the tests at an existing server.
// Reading it here is the one exception to "os.Getenv only in config/".
const envURL = "TEST_DATABASE_URL"

// env is the server and template of this test process. It is package
// state because New has nothing but t to find them by; Main sets it before
// any test runs and nothing changes it afterwards.
var env *environment

type environment struct {
	base     *url.URL // the server; its database is where CREATE DATABASE runs
	admin    *bun.DB
	template string
}

// Main runs the test binary's tests against a fresh template database and
// exits with their result. Call it from TestMain.
func Main(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	ctx := context.Background()
	log := zerolog.New(zerolog.ConsoleWriter{Out: os.Stderr}).Level(zerolog.WarnLevel).With().Timestamp().Logger()

	base := os.Getenv(envURL)
	if base == "" {
		dir, err := os.MkdirTemp("", "campus-testdb-")
		if err != nil {
			fmt.Fprintln(os.Stderr, "testdb:", err)
			return 1
		}
		defer os.RemoveAll(dir)
		startCtx, cancel := context.WithTimeout(ctx, 2*time.Minute)
		srv, err := pgserver.Start(startCtx, pgserver.Options{Dir: dir, Log: log, Ephemeral: true})
		cancel()
		if err != nil {
			fmt.Fprintf(os.Stderr, "testdb: %v\n(or set %s to use a running server)\n", err, envURL)
			return 1
		}
		defer func() {
			stopCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
			defer cancel()
			if err := srv.Stop(stopCtx); err != nil {
				fmt.Fprintln(os.Stderr, "testdb:", err)
			}
		}()
		base = srv.URL()
	}

	e, err := setup(ctx, base, log)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testdb:", err)
		return 1
	}
	defer e.teardown(ctx)
	env = e
	return m.Run()
}

// setup creates and migrates this process's template. Its name is unique
// to the process, so test processes sharing one server never race on it.
func setup(ctx context.Context, base string, log zerolog.Logger) (*environment, error) {
	u, err := url.Parse(base)
	if err != nil {
		return nil, fmt.Errorf("parse %s: malformed URL", envURL) // the URL may hold a password
	}
	admin, err := persistence.Open(ctx, base, log)
	if err != nil {
		return nil, err
	}
	e := &environment{base: u, admin: admin, template: fmt.Sprintf("campus_tmpl_%d_%s", os.Getpid(), suffix())}
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+e.template); err != nil {
		admin.Close()
		return nil, fmt.Errorf("create template: %w", err)
	}
	tmpl, err := persistence.Open(ctx, e.url(e.template), log)
	if err != nil {
		e.teardown(ctx)
		return nil, err
	}
	err = persistence.Migrate(ctx, tmpl)
	// Cloning needs the template to have no sessions; Close ends ours.
	if cerr := tmpl.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		e.teardown(ctx)
		return nil, err
	}
	return e, nil
}

func (e *environment) teardown(ctx context.Context) {
	if _, err := e.admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+e.template+" WITH (FORCE)"); err != nil {
		fmt.Fprintln(os.Stderr, "testdb: drop template:", err)
	}
	e.admin.Close()
}

// url is the server's URL with another database.
func (e *environment) url(database string) string {
	u := *e.base
	u.Path = "/" + database
	u.RawPath = ""
	return u.String()
}

// New returns a connection pool to a fresh database migrated to the latest
// schema. The pool is closed and the database dropped when t ends.
func New(t testing.TB) *bun.DB {
	t.Helper()
	u := NewURL(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	db, err := persistence.Open(ctx, u, zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel))
	if err != nil {
		t.Fatalf("testdb: %v", err)
	}
	t.Cleanup(func() { db.Close() }) // before NewURL's drop: cleanups run last-in first-out
	return db
}

// NewURL creates a fresh migrated database, as New does, and returns its
// URL for tests that open their own connections or start a whole server.
// The database is dropped when t ends, even if connections remain.
func NewURL(t testing.TB) string {
	t.Helper()
	return create(t, "")
}

// NewBareURL creates a database without any tables, not even the
// migrations' (a restore wants one), and returns its URL. It is dropped
// when t ends.
func NewBareURL(t testing.TB) string {
	t.Helper()
	return create(t, "template0")
}

// create clones template (the migrated template when "") into a new
// database that t's end drops.
func create(t testing.TB, template string) string {
	t.Helper()
	if env == nil {
		t.Fatal("testdb: the package's TestMain must call testdb.Main")
	}
	if template == "" {
		template = env.template
	}
	name := "campus_test_" + suffix()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := env.admin.ExecContext(ctx, "CREATE DATABASE "+name+" TEMPLATE "+template); err != nil {
		t.Fatalf("testdb: create database from %s: %v", template, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := env.admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("testdb: drop %s: %v", name, err)
		}
	})
	return env.url(name)
}

// suffix is a random, lower-case identifier part (unquoted identifiers
// fold to lower case, and the URL must match).
func suffix() string {
	return strings.ToLower(rand.Text()[:12])
}
