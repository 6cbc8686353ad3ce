package httpapi

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/uptrace/bun"

	"campus/app"
	"campus/persistence"
	"campus/persistence/testdb"
	"campus/searchindex"
)

func TestSearchRoutes(t *testing.T) {
	db := testdb.New(t)
	ctx := context.Background()
	signer, err := app.NewSigner(bytes.Repeat([]byte("k"), 32), "Campus")
	if err != nil {
		t.Fatal(err)
	}
	sessions := app.NewSessions(db, signer, zerolog.Nop())

	users := map[string]*persistence.User{}
	for i, n := range []struct{ name, uid string }{{"Asha Rao", "BWU/BCA/20/1"}, {"Ashok Sen", "BWU/BCA/20/2"}, {"Ravi Kumar", "BWU/BCA/20/3"}} {
		u := &persistence.User{
			ID: persistence.NewID(), Name: n.name, Email: string(rune('a'+i)) + "@uni.edu", PasswordHash: "x",
			Role: "student", UniversityID: n.uid, EmailVerifiedAt: time.Now(),
		}
		if err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error { return persistence.InsertUser(ctx, tx, u) }); err != nil {
			t.Fatal(err)
		}
		users[n.name] = u
	}
	idx, err := searchindex.Open(ctx, searchindex.Options{Dir: filepath.Join(t.TempDir(), "search"), DB: db, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { idx.Close() })
	token, err := sessions.Issue(users["Ravi Kumar"])
	if err != nil {
		t.Fatal(err)
	}
	ts := newTestServer(t, func(d *Deps) {
		d.Sessions = sessions
		d.Search = app.NewSearch(app.SearchDeps{DB: db, Index: idx})
	})
	get := func(uri, token string) (int, map[string]any) {
		t.Helper()
		var h []string
		if token != "" {
			h = []string{"Authorization", "Bearer " + token}
		}
		a := ts.do(t, "GET", uri, nil, h...)
		return a.status, envelope(t, a.body)
	}

	tests := []struct {
		name, uri, token string
		status           int
		key              string // data.results or data.users
		want             []string
	}{
		{"signed out", "/api/search?q=asha", "", 401, "", nil},
		{"users and order", "/api/search?q=ash", token, 200, "results", []string{"Asha Rao", "Ashok Sen"}},
		{"exact first", "/api/search?q=Ashok%20Sen", token, 200, "results", []string{"Ashok Sen"}},
		{"limit", "/api/search?q=ash&limit=1", token, 200, "results", []string{"Asha Rao"}},
		{"malformed limit is the default", "/api/search?q=ash&limit=lots", token, 200, "results", []string{"Asha Rao", "Ashok Sen"}},
		{"blank", "/api/search?q=%20%20", token, 200, "results", []string{}},
		{"no query", "/api/search", token, 200, "results", []string{}},
		{"users search", "/api/users/search?q=ravi", token, 200, "users", []string{"Ravi Kumar"}},
		{"users search signed out", "/api/users/search?q=ravi", "", 401, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, env := get(tt.uri, tt.token)
			if status != tt.status {
				t.Fatalf("status %d, want %d: %v", status, tt.status, env)
			}
			if tt.key == "" {
				return
			}
			list, ok := data(env)[tt.key].([]any)
			if !ok {
				t.Fatalf("data.%s missing: %v", tt.key, env)
			}
			var names []string
			for _, item := range list {
				m := item.(map[string]any)
				if tt.key == "results" {
					names = append(names, m["title"].(string))
				} else {
					names = append(names, m["name"].(string))
				}
			}
			if len(names) != len(tt.want) {
				t.Fatalf("got %q, want %q", names, tt.want)
			}
			for i := range names {
				if names[i] != tt.want[i] {
					t.Fatalf("got %q, want %q", names, tt.want)
				}
			}
		})
	}

	// The result shape of docs/product.md §3.
	_, env := get("/api/search?q=asha", token)
	r := data(env)["results"].([]any)[0].(map[string]any)
	id := users["Asha Rao"].ID.String()
	want := map[string]any{"type": "user", "id": id, "title": "Asha Rao", "subtitle": "BWU/BCA/20/1", "avatar": "", "url": "/profile/" + id}
	if len(r) != len(want) {
		t.Errorf("result %v, want %v", r, want)
	}
	for k, v := range want {
		if r[k] != v {
			t.Errorf("result.%s = %v, want %v", k, r[k], v)
		}
	}
}
