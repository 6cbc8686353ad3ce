package httpapi

import (
	"bytes"
	"context"
	"net/url"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/uptrace/bun"

	"campus/app"
	"campus/domain"
	"campus/persistence"
	"campus/persistence/testdb"
)

// TestTagRoutes: a tag's page and trending over HTTP: the tag in the path
// (any script, any case, with or without its '#'), the sorts and cursors,
// bad input in the envelope, signed out refused.
func TestTagRoutes(t *testing.T) {
	db := testdb.New(t)
	ctx := context.Background()
	signer, err := app.NewSigner(bytes.Repeat([]byte("k"), 32), "Campus")
	if err != nil {
		t.Fatal(err)
	}
	sessions := app.NewSessions(db, signer, zerolog.Nop())
	u := &persistence.User{ID: persistence.NewID(), Name: "Asha Rao", Email: "a@uni.edu", PasswordHash: "x",
		Role: "student", UniversityID: "BWU/BCA/20/1", EmailVerifiedAt: time.Now()}
	var older, newer *persistence.Post
	if err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := persistence.InsertUser(ctx, tx, u); err != nil {
			return err
		}
		older = &persistence.Post{ID: persistence.NewID(), UserID: u.ID, Content: "हिन्दी दिवस #हिन्दी"}
		newer = &persistence.Post{ID: persistence.NewID(), UserID: u.ID, Content: "#हिन्दी again, and #Chess"}
		if err := persistence.InsertPost(ctx, tx, older, nil); err != nil {
			return err
		}
		return persistence.InsertPost(ctx, tx, newer, nil)
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, "INSERT INTO post_likes (post_id, user_id) VALUES (?, ?); UPDATE posts SET likes_count = 1 WHERE id = ?",
		older.ID, u.ID, older.ID); err != nil {
		t.Fatal(err)
	}
	token, err := sessions.Issue(u)
	if err != nil {
		t.Fatal(err)
	}
	ts := newTestServer(t, func(d *Deps) {
		d.Sessions = sessions
		d.Tags = app.NewTags(app.TagsDeps{DB: db})
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
	ids := func(env map[string]any) []string {
		var out []string
		for _, p := range data(env)["posts"].([]any) {
			out = append(out, p.(map[string]any)["id"].(string))
		}
		return out
	}
	hindi := url.PathEscape("हिन्दी")

	tests := []struct {
		name, uri string
		status    int
		want      []string
	}{
		{"newest first", "/api/tags/" + hindi + "/posts", 200, []string{newer.ID.String(), older.ID.String()}},
		{"top first", "/api/tags/" + hindi + "/posts?sort=top", 200, []string{older.ID.String(), newer.ID.String()}},
		{"any case, with its #", "/api/tags/" + url.PathEscape("#CHESS") + "/posts", 200, []string{newer.ID.String()}},
		{"a tag nobody used", "/api/tags/nobody/posts", 200, nil},
		{"not a tag", "/api/tags/2026/posts", 400, nil},
		{"unknown sort", "/api/tags/chess/posts?sort=hot", 400, nil},
		{"bad cursor", "/api/tags/chess/posts?cursor=zzz", 400, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, env := get(tt.uri, token)
			if status != tt.status {
				t.Fatalf("status %d, want %d: %v", status, tt.status, env)
			}
			if status != 200 {
				if env["status"] != "error" || env["message"] == "" {
					t.Fatalf("no error envelope: %v", env)
				}
				return
			}
			if got := ids(env); len(got) != len(tt.want) || (len(got) > 0 && got[0] != tt.want[0]) {
				t.Fatalf("posts %q, want %q", got, tt.want)
			}
		})
	}

	// Pages: a cursor leads on, and says it when none follows.
	_, env := get("/api/tags/"+hindi+"/posts?limit=1", token)
	next, _ := data(env)["nextCursor"].(string)
	if next == "" {
		t.Fatalf("no nextCursor on a first page of one: %v", env)
	}
	_, env = get("/api/tags/"+hindi+"/posts?limit=1&cursor="+url.QueryEscape(next), token)
	if got := ids(env); len(got) != 1 || got[0] != older.ID.String() || data(env)["nextCursor"] != nil {
		t.Fatalf("second page: %v", env)
	}

	status, env := get("/api/tags/"+hindi, token)
	tag, _ := data(env)["tag"].(map[string]any)
	if status != 200 || tag["name"] != "हिन्दी" || tag["postsCount"] != float64(2) || tag["postsLabel"] != "2 posts" ||
		tag["url"] != "/tags/"+hindi {
		t.Errorf("GET /api/tags/{tag}: %d %v", status, env)
	}
	if status, env := get("/api/tags/"+url.PathEscape("c#"), token); status != 400 || env["message"] != domain.MsgTagInvalid {
		t.Errorf("a bad tag: %d %v", status, env)
	}

	status, env = get("/api/trending", token)
	if status != 200 {
		t.Fatalf("trending: %d %v", status, env)
	}
	if tags, _ := data(env)["tags"].([]any); len(tags) != 2 || tags[0].(map[string]any)["tag"] != "हिन्दी" {
		t.Errorf("trending tags: %v", env)
	}
	if posts, _ := data(env)["posts"].([]any); len(posts) != 1 || posts[0].(map[string]any)["id"] != older.ID.String() {
		t.Errorf("trending posts (only the liked one moved): %v", env)
	}

	for _, uri := range []string{"/api/tags/chess", "/api/tags/chess/posts", "/api/trending"} {
		if status, _ := get(uri, ""); status != 401 {
			t.Errorf("%s signed out: %d", uri, status)
		}
	}
}
