package app

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
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

// TestSearchGroupsTagsAndTypos: the overlay finds groups (never a secret
// one for someone outside it) and tags (counted in the posts the reader
// may list; a tag only a secret group uses is not shown to outsiders),
// after people and before posts; names forgive a typo, exact matches
// first.
func TestSearchGroupsTagsAndTypos(t *testing.T) {
	f := newSearchFixture(t)
	reader := f.user("Reader Roy", "student", "BWU/BCA/20/1", "", "")
	owner := f.user("Chitra Iyer", "student", "BWU/BCA/20/2", "", "")
	f.user("Chitra Iyengar", "student", "BWU/BCA/20/3", "", "")
	f.group(owner, "Chess Club", "chess-club", "public")
	f.group(owner, "Chess Society", "chess-society", "closed")
	f.group(owner, "Chess Inner Circle", "chess-inner", "secret", reader)
	cabal := f.group(owner, "Chess Cabal", "chess-cabal", "secret")
	l := map[string]string{}
	f.tagged(l, "public 1", owner, uuid.Nil, "#chess tonight in the library")
	f.tagged(l, "public 2", owner, uuid.Nil, "More #Chess on Friday")
	f.tagged(l, "cabal", owner, cabal, "#chess and #cabalonly plans")
	f.catchUp()
	s := NewSearch(SearchDeps{DB: f.db, Index: f.idx})
	ctx := context.Background()
	search := func(user uuid.UUID, q string) []SearchResult {
		t.Helper()
		got, err := s.SearchFor(ctx, Principal{UserID: user}, q, 0)
		if err != nil {
			t.Fatal(err)
		}
		return got.Results
	}

	got := search(reader, "chess")
	var kinds, titles []string
	for _, r := range got {
		kinds = append(kinds, r.Type)
		titles = append(titles, r.Title)
	}
	if !slices.Equal(kinds, []string{"group", "group", "group", "tag", "post", "post"}) {
		t.Fatalf("chess: %q, want three groups, the tag, two posts", brief(got))
	}
	if slices.Contains(titles, "Chess Cabal") || !slices.Contains(titles, "Chess Inner Circle") {
		t.Errorf("chess: the reader's secret group only: %q", titles)
	}
	tag := got[3]
	if tag != (SearchResult{Type: "tag", ID: "chess", Title: "#chess", Subtitle: "2 posts", URL: "/tags/chess"}) {
		t.Errorf("the tag result: %+v", tag)
	}
	club := got[slices.Index(titles, "Chess Club")]
	if club.Subtitle != "Club · Public · 1 member" || club.URL != "/g/chess-club" {
		t.Errorf("the group result: %+v", club)
	}
	// The owner is in the cabal: its post counts, and they see it.
	if got := search(owner, "#chess"); len(got) == 0 || got[0].Title != "#chess" || got[0].Subtitle != "3 posts" {
		t.Errorf("#chess for the owner: %q, want the tag first with 3 posts", brief(got))
	}
	// Typed with '#', the tag is the exact match, first.
	if got := search(reader, "#chess"); len(got) == 0 || got[0].Type != "tag" {
		t.Errorf("#chess: %q, want the tag first", brief(got))
	}
	// A tag only a secret group uses is nobody else's business.
	if got := search(reader, "cabalonly"); len(got) != 0 {
		t.Errorf("cabalonly for an outsider: %q", brief(got))
	}
	if got := search(owner, "cabalonly"); len(got) != 2 || got[0].Type != "tag" {
		t.Errorf("cabalonly for the owner: %q, want the tag and the post", brief(got))
	}
	// A group's handle is an exact match too.
	if got := search(reader, "chess-society"); len(got) == 0 || got[0].Title != "Chess Society" {
		t.Errorf("by handle: %q", brief(got))
	}

	// One letter off in a name, and the name exactly.
	if got := search(reader, "Chitra Iyr"); len(got) != 1 || got[0].Title != "Chitra Iyer" {
		t.Errorf("Chitra Iyr: %q, want Chitra Iyer", brief(got))
	}
	if got := search(reader, "chitra iyer"); len(got) != 1 || got[0].Title != "Chitra Iyer" {
		t.Errorf("chitra iyer: %q", brief(got))
	}
	if got := search(reader, "chitra"); len(got) != 2 {
		t.Errorf("chitra: %q, want both", brief(got))
	}
}
