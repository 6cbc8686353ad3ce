package app

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/rs/zerolog"
	"github.com/uptrace/bun"

	"campus/persistence"
	"campus/persistence/testdb"
	"campus/searchindex"
)

// searchFixture is a real database and a real index over it.
type searchFixture struct {
	t   *testing.T
	db  *bun.DB
	idx *searchindex.Index
	n   int
}

func newSearchFixture(t *testing.T) *searchFixture {
	t.Helper()
	db := testdb.New(t)
	idx, err := searchindex.Open(context.Background(), searchindex.Options{
		Dir: filepath.Join(t.TempDir(), "search"), DB: db, Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { idx.Close() })
	return &searchFixture{t: t, db: db, idx: idx}
}

func (f *searchFixture) tx(fn func(ctx context.Context, tx bun.Tx) error) {
	f.t.Helper()
	if err := f.db.RunInTx(context.Background(), nil, fn); err != nil {
		f.t.Fatal(err)
	}
}

func (f *searchFixture) user(name, role, uid, dept, avatar string) uuid.UUID {
	f.t.Helper()
	f.n++
	u := &persistence.User{
		ID: persistence.NewID(), Name: name, Email: fmt.Sprintf("s%d@uni.edu", f.n), PasswordHash: "x",
		Role: role, UniversityID: uid, Department: dept, AvatarURL: avatar, EmailVerifiedAt: time.Now(),
	}
	f.tx(func(ctx context.Context, tx bun.Tx) error { return persistence.InsertUser(ctx, tx, u) })
	return u.ID
}

func (f *searchFixture) post(author uuid.UUID, content string) uuid.UUID {
	f.t.Helper()
	p := &persistence.Post{ID: persistence.NewID(), UserID: author, Content: content}
	f.tx(func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewInsert().Model(p).Exec(ctx); err != nil {
			return err
		}
		return persistence.AddOutbox(ctx, tx, persistence.EntityPost, p.ID, persistence.OpUpsert)
	})
	return p.ID
}

func (f *searchFixture) comment(post, author uuid.UUID, content string) uuid.UUID {
	f.t.Helper()
	c := &persistence.Comment{ID: persistence.NewID(), PostID: post, UserID: author, Content: content}
	f.tx(func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewInsert().Model(c).Exec(ctx); err != nil {
			return err
		}
		return persistence.AddOutbox(ctx, tx, persistence.EntityComment, c.ID, persistence.OpUpsert)
	})
	return c.ID
}

func (f *searchFixture) catchUp() {
	f.t.Helper()
	if _, err := f.idx.CatchUp(context.Background()); err != nil {
		f.t.Fatal(err)
	}
}

func (f *searchFixture) exec(query string, args ...any) {
	f.t.Helper()
	if _, err := f.db.ExecContext(context.Background(), query, args...); err != nil {
		f.t.Fatal(err)
	}
}

func brief(rs []SearchResult) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Type + ":" + r.Title
	}
	return out
}

func TestSearchResults(t *testing.T) {
	f := newSearchFixture(t)
	asha := f.user("Asha Rao", "student", "BWU/BCA/20/123", "", "/media/asha.png")
	sen := f.user("Data Science", "faculty", "", "Statistics", "")
	f.user("Data Science Society", "student", "BWU/DS/21/9", "", "")
	long := "Data science data science data science: a whole afternoon of talks in hall B, with snacks"
	p1 := f.post(asha, long)
	p2 := f.post(sen, "data science")
	c1 := f.comment(p1, sen, "Data science is fun")
	f.catchUp()
	s := NewSearch(SearchDeps{DB: f.db, Index: f.idx})
	ctx := context.Background()

	got, err := s.Search(ctx, "Data Science", 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []SearchResult{
		// exact: the user named so, then the post saying just that
		{Type: "user", ID: sen.String(), Title: "Data Science", Subtitle: "Faculty · Statistics", Avatar: "", URL: "/profile/" + sen.String()},
		{Type: "post", ID: p2.String(), Title: "data science", Subtitle: "Data Science", Avatar: "", URL: "/post/" + p2.String()},
		// then users, posts, comments
		{Type: "user", Title: "Data Science Society", Subtitle: "BWU/DS/21/9"},
		{Type: "post", ID: p1.String(), Title: "Data science data science data science: a whole afternoon of...",
			Subtitle: "Asha Rao", Avatar: "/media/asha.png", URL: "/post/" + p1.String()},
		{Type: "comment", ID: c1.String(), Title: "Data science is fun", Subtitle: "Comment on Asha Rao's post", Avatar: "", URL: "/post/" + p1.String()},
	}
	if len(got.Results) != len(want) {
		t.Fatalf("results %q, want %q", brief(got.Results), brief(want))
	}
	for i, w := range want {
		g := got.Results[i]
		if w.ID == "" { // not checked
			w.ID, w.URL = g.ID, g.URL
		}
		if g != w {
			t.Errorf("result %d:\n got %+v\nwant %+v", i, g, w)
		}
	}

	// A university ID is an exact subtitle.
	if got, _ := s.Search(ctx, "bwu/bca/20/123", 5); len(got.Results) == 0 || got.Results[0].Title != "Asha Rao" {
		t.Errorf("by university id: %q", brief(got.Results))
	}
	// The limit.
	if got, _ := s.Search(ctx, "data science", 2); len(got.Results) != 2 {
		t.Errorf("limit 2: %q", brief(got.Results))
	}

	// What is shown is read at query time: a renamed author shows under
	// the new name at once, and when the new name equals the query the
	// post is an exact match (its subtitle) and moves up.
	f.exec("UPDATE users SET name = 'Data Science' WHERE id = ?", asha)
	got, _ = s.Search(ctx, "Data Science", 0)
	pos := map[string]int{}
	for i, r := range got.Results {
		pos[r.Title] = i
		if r.ID == c1.String() && r.Subtitle != "Comment on Data Science's post" {
			t.Errorf("comment after the rename: %+v", r)
		}
	}
	if p, ok := pos[want[3].Title]; !ok || p > pos["Data Science Society"] {
		t.Errorf("after the rename the post should be exact: %q", brief(got.Results))
	}

	// Deleted since indexed (the outbox not applied yet): never shown.
	f.exec("DELETE FROM posts WHERE id = ?", p1) // cascades to the comment
	got, _ = s.Search(ctx, "Data Science", 0)
	for _, r := range got.Results {
		if r.ID == p1.String() || r.ID == c1.String() {
			t.Errorf("deleted %s still shown", r.Type)
		}
	}
	if len(got.Results) != 3 {
		t.Errorf("after the delete: %q", brief(got.Results))
	}
}

func TestSearchBlankQueryTouchesNothing(t *testing.T) {
	s := NewSearch(SearchDeps{}) // no index, no database: any use would panic
	for _, q := range []string{"", "   ", "\t\n"} {
		got, err := s.Search(context.Background(), q, 10)
		if err != nil || got.Results == nil || len(got.Results) != 0 {
			t.Errorf("Search(%q) = %+v, %v", q, got, err)
		}
		users, err := s.Users(context.Background(), q, 10)
		if err != nil || users.Users == nil || len(users.Users) != 0 {
			t.Errorf("Users(%q) = %+v, %v", q, users, err)
		}
	}
}

func TestSearchUsers(t *testing.T) {
	f := newSearchFixture(t)
	a := f.user("Asha Rao", "student", "BWU/BCA/20/1", "", "/media/a.png")
	f.user("Ashanti Rao", "student", "BWU/BCA/20/2", "", "")
	f.user("Ravi Kumar", "faculty", "", "Mathematics", "")
	f.post(a, "Asha Rao wrote this post")
	f.catchUp()
	s := NewSearch(SearchDeps{DB: f.db, Index: f.idx})

	got, err := s.Users(context.Background(), "asha rao", 0)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, u := range got.Users {
		names = append(names, u.Name)
	}
	if strings.Join(names, ",") != "Asha Rao" {
		t.Errorf("users: %v", names)
	}
	got, _ = s.Users(context.Background(), "asha", 0)
	if len(got.Users) != 2 || got.Users[0].Avatar.URL != "/media/a.png" && got.Users[1].Avatar.URL != "/media/a.png" {
		t.Errorf("prefix users: %+v", got.Users)
	}
	// An unfinished signup is nobody yet.
	pending := f.user("Asha Pending", "student", "BWU/BCA/20/9", "", "")
	f.exec("UPDATE users SET email_verified_at = NULL WHERE id = ?", pending)
	f.catchUp()
	for _, q := range []string{"asha pending", "pending"} {
		if got, _ := s.Users(context.Background(), q, 0); len(got.Users) != 0 {
			t.Errorf("unverified user shown for %q: %+v", q, got.Users)
		}
		if got, _ := s.Search(context.Background(), q, 0); len(got.Results) != 0 {
			t.Errorf("unverified user in results for %q: %+v", q, got.Results)
		}
	}
	got, _ = s.Users(context.Background(), "mathematics", 0)
	if len(got.Users) != 1 || got.Users[0].Role != "faculty" || got.Users[0].Department != "Mathematics" {
		t.Errorf("by department: %+v", got.Users)
	}
}
