package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/rs/zerolog"

	"campus/persistence"
	"campus/persistence/pgserver"
)

// TestParseAdmin covers `campus admin`'s command lines, flags before or
// after the e-mail address, and what is refused before any database is
// touched.
func TestParseAdmin(t *testing.T) {
	for _, tc := range []struct {
		name    string
		args    []string
		want    adminArgs
		wantErr string
	}{
		{name: "grant admin", args: []string{"grant", "dean@uni.edu"},
			want: adminArgs{verb: "grant", email: "dean@uni.edu", role: "admin", limit: 50}},
		{name: "grant moderator, flag after", args: []string{"grant", "mod@uni.edu", "-role", "moderator"},
			want: adminArgs{verb: "grant", email: "mod@uni.edu", role: "moderator", limit: 50}},
		{name: "revoke moderator, flag before", args: []string{"revoke", "-role=moderator", "mod@uni.edu"},
			want: adminArgs{verb: "revoke", email: "mod@uni.edu", role: "moderator", limit: 50}},
		{name: "suspend for a week", args: []string{"suspend", "x@uni.edu", "-reason", "spam", "-days", "7"},
			want: adminArgs{verb: "suspend", email: "x@uni.edu", role: "admin", reason: "spam", days: 7, limit: 50}},
		{name: "unsuspend gets a default reason", args: []string{"unsuspend", "x@uni.edu"},
			want: adminArgs{verb: "unsuspend", email: "x@uni.edu", role: "admin", reason: "Lifted by the operator", limit: 50}},
		{name: "users list", args: []string{"users", "list", "-q", "rao", "-limit", "10"},
			want: adminArgs{verb: "users list", role: "admin", query: "rao", limit: 10}},
		{name: "nothing", args: nil, wantErr: "want a command"},
		{name: "grant without address", args: []string{"grant"}, wantErr: `want "grant EMAIL"`},
		{name: "two addresses", args: []string{"grant", "a@x", "b@x"}, wantErr: `want "grant EMAIL"`},
		{name: "unknown role", args: []string{"grant", "a@x", "-role", "owner"}, wantErr: `-role "owner"`},
		{name: "suspend without reason", args: []string{"suspend", "a@x"}, wantErr: "suspend needs -reason"},
		{name: "users without list", args: []string{"users"}, wantErr: `want "users list"`},
		{name: "unknown command", args: []string{"promote", "a@x"}, wantErr: `unknown command "promote"`},
		{name: "limit out of range", args: []string{"users", "list", "-limit", "1000"}, wantErr: "-limit must be"},
		{name: "unknown flag", args: []string{"grant", "a@x", "-x"}, wantErr: "flag provided but not defined"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stderr bytes.Buffer
			got, err := parseAdmin(tc.args, &stderr)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error()+stderr.String(), tc.wantErr) {
					t.Fatalf("err %v (stderr %q), want %q", err, stderr.String(), tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestAdminWhileANodeRuns: with the embedded Postgres of the data dir held
// by a running node (here: a server started in the data dir, which is what
// `campus serve` holds), every `campus admin` command works on it instead of
// failing with "the postgres directory is in use", and each change is in the
// audit log by the operator.
func TestAdminWhileANodeRuns(t *testing.T) {
	dataDir, err := os.MkdirTemp("", "campus-admin-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dataDir) })
	if err := os.Chmod(dataDir, 0o711); err != nil { // the postgres user traverses it when we are root
		t.Fatal(err)
	}
	ctx := context.Background()
	pg, err := pgserver.Start(ctx, pgserver.Options{Dir: filepath.Join(dataDir, "postgres"),
		Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel), Ephemeral: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = pg.Stop(c)
	})
	db, err := persistence.Open(ctx, pg.URL(), zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := persistence.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	mkUser := func(name, email string) uuid.UUID {
		u := &persistence.User{ID: uuid.New(), Name: name, Email: email, PasswordHash: "x", Role: "student",
			EmailVerifiedAt: time.Now()}
		if err := persistence.InsertUser(ctx, db, u); err != nil {
			t.Fatal(err)
		}
		return u.ID
	}
	dean := mkUser("Dean Rao", "dean@uni.test")
	student := mkUser("Sam Iyer", "sam@uni.test")

	t.Setenv("CAMPUS_DATA_DIR", dataDir)
	t.Setenv("DATABASE_URL", "")
	t.Setenv("CAMPUS_LOG_LEVEL", "warn")
	admin := func(t *testing.T, wantCode int, args ...string) string {
		t.Helper()
		var stdout, stderr bytes.Buffer
		if code := run(append([]string{"admin"}, args...), &stdout, &stderr); code != wantCode {
			t.Fatalf("campus admin %v: exit %d, want %d\nstdout %s\nstderr %s", args, code, wantCode, stdout.String(), stderr.String())
		}
		return stdout.String() + stderr.String()
	}
	caps := func(id uuid.UUID) []string {
		c, err := persistence.Capabilities(ctx, db, id)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	suspended := func(id uuid.UUID) bool {
		s, err := persistence.SuspensionOf(ctx, db, id)
		if err != nil {
			t.Fatal(err)
		}
		return s != nil
	}

	steps := []struct {
		name  string
		code  int
		args  []string
		out   string
		check func(t *testing.T)
	}{
		{"grant admin", 0, []string{"grant", "DEAN@uni.test"}, "Now an admin", func(t *testing.T) {
			if c := caps(dean); len(c) != 1 || c[0] != "admin" {
				t.Fatalf("dean's capabilities %v", c)
			}
		}},
		{"grant again says so", 0, []string{"grant", "dean@uni.test"}, "Already an admin", nil},
		{"grant moderator", 0, []string{"grant", "sam@uni.test", "-role", "moderator"}, "Now a moderator", nil},
		{"staff cannot be suspended", 1, []string{"suspend", "sam@uni.test", "-reason", "spam"}, "cannot be suspended", func(t *testing.T) {
			if suspended(student) {
				t.Fatal("a moderator was suspended")
			}
		}},
		{"revoke moderator", 0, []string{"revoke", "sam@uni.test", "-role", "moderator"}, "No longer a moderator", func(t *testing.T) {
			if c := caps(student); len(c) != 0 {
				t.Fatalf("sam's capabilities %v", c)
			}
		}},
		{"suspend", 0, []string{"suspend", "sam@uni.test", "-reason", "spam", "-days", "7"}, "Suspended for 7 days", func(t *testing.T) {
			if !suspended(student) {
				t.Fatal("not suspended")
			}
		}},
		{"users list", 0, []string{"users", "list", "-q", "uni.test"}, "suspended until", nil},
		{"users list by name", 0, []string{"users", "list", "-q", "Dean"}, "dean@uni.test", nil},
		{"unsuspend", 0, []string{"unsuspend", "sam@uni.test"}, "Suspension lifted", func(t *testing.T) {
			if suspended(student) {
				t.Fatal("still suspended")
			}
		}},
		{"unsuspend again", 1, []string{"unsuspend", "sam@uni.test"}, "not suspended", nil},
		{"no such account", 1, []string{"grant", "nobody@uni.test"}, "No account has that e-mail address", nil},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			if out := admin(t, s.code, s.args...); !strings.Contains(out, s.out) {
				t.Fatalf("output %q, want %q in it", out, s.out)
			}
			if s.check != nil {
				s.check(t)
			}
		})
	}

	// The contrast: a command that starts its own server finds the
	// directory taken, which is what `campus admin` used to answer.
	var stdout, stderr bytes.Buffer
	if code := run([]string{"migrate"}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "in use") {
		t.Errorf("campus migrate beside a running node: exit %d, stderr %q; want 1 and \"in use\"", code, stderr.String())
	}

	// The audit log names the operator for every change.
	entries, err := persistence.AuditLog(ctx, db, persistence.Keyset{}, 50)
	if err != nil {
		t.Fatal(err)
	}
	var actions []string
	for _, e := range entries {
		if e.ActorID != uuid.Nil {
			t.Errorf("audit entry %s by %s, want the operator (nil id)", e.Action, e.ActorID)
		}
		actions = append(actions, e.Action)
	}
	want := []string{"unsuspend", "suspend", "revoke_moderator", "grant_moderator", "grant_admin"}
	if strings.Join(actions, ",") != strings.Join(want, ",") {
		t.Errorf("audit actions (newest first) %v, want %v", actions, want)
	}
}
