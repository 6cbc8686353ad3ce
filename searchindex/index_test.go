package searchindex

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"campus/persistence"
)

// campus seeds the data most tests search.
func campus(f *fixture) {
	jose := f.user(userSpec{name: "José Álvarez", uid: "BWU/BCA/20/123", course: "BCA", batch: "2020"})
	asha := f.user(userSpec{name: "Asha Rao", role: "faculty", dept: "Mathematics"})
	f.user(userSpec{name: "Data Science", uid: "BWU/DS/21/7", course: "DS", batch: "2021"})
	p1 := f.post(jose, "Computer science fair tomorrow in the main hall")
	f.post(asha, "Mathematics exam results are out")
	f.post(asha, "data science data science data science")
	f.post(jose, "A moth flew into the lab")
	f.comment(p1, asha, "Great computer talk, thanks")
	f.comment(p1, jose, "Café at noon?")
}

func TestSearchMatching(t *testing.T) {
	f := newFixture(t)
	campus(f)
	x := f.open() // built from the database

	tests := []struct {
		name, q string
		want    []string // in order
	}{
		{"accent folded", "jose", []string{"user:José Álvarez"}},
		{"case folded", "JOSÉ ÁLVAREZ", []string{"=user:José Álvarez"}},
		{"accent in the query", "álvarez", []string{"user:José Álvarez"}},
		{"accent in the text", "cafe", []string{"comment:Café at noon?"}},
		{"university id", "bwu/bca/20/123", []string{"=user:José Álvarez"}},
		{"course and batch", "BCA 2020", []string{"user:José Álvarez"}},
		{"faculty department", "mathematics", []string{"user:Asha Rao", "post:Mathematics exam results are out"}},
		{"one typo on a long word", "mathmatics", []string{"user:Asha Rao", "post:Mathematics exam results are out"}},
		{"typo on a non-last long word", "mathmatics exam", []string{"post:Mathematics exam results are out"}},
		{"short words are not fuzzed", "mith", nil},
		{"short words are not fuzzed (4 letters, complete)", "lamb ", nil},
		{"two typos are too many in posts (a department is a name's: two on 8+ letters)", "mathmatcs", []string{"user:Asha Rao"}},
		{"prefix of the last word", "comp", []string{"post:Computer science fair tomorrow in the main hall", "comment:Great computer talk, thanks"}},
		{"prefix only for the last word", "comp talk", nil},
		{"completed words are not prefixes", "comp ", nil},
		{"all words must match", "computer talk", []string{"comment:Great computer talk, thanks"}},
		{"a trailing one-letter word is ignored", "computer t", []string{"post:Computer science fair tomorrow in the main hall", "comment:Great computer talk, thanks"}},
		{"nothing", "zebra", nil},
		{"only punctuation", "!!! ...", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := f.find(x, tt.q, 20)
			if !slices.Equal(got, tt.want) && (len(got) != 0 || len(tt.want) != 0) {
				t.Errorf("Search(%q) = %q, want %q", tt.q, got, tt.want)
			}
		})
	}
}

func TestSearchOrdering(t *testing.T) {
	f := newFixture(t)
	asha := f.user(userSpec{name: "Asha Rao", role: "faculty", dept: "Physics"})
	f.user(userSpec{name: "Data Science", uid: "BWU/DS/21/7"})
	f.user(userSpec{name: "Data Science Club", uid: "BWU/DS/21/8"})
	p := f.post(asha, "data science data science data science data science")
	f.post(asha, "Data   Science")
	f.post(asha, "An intro to data science")
	f.comment(p, asha, "data science!")
	f.comment(p, asha, "Data science")
	x := f.open()

	got := f.find(x, "data science", 20)
	want := []string{
		// exact title matches first, users then posts then comments
		"=user:Data Science",
		"=post:Data   Science",
		"=comment:Data science",
		// then users, posts, comments by relevance
		"user:Data Science Club",
		"post:data science data science data science data science",
		"post:An intro to data science",
		"comment:data science!",
	}
	if !slices.Equal(got, want) {
		t.Errorf("order:\n got %q\nwant %q", got, want)
	}

	// The limit keeps the order and is filled kind by kind.
	if got := f.find(x, "data science", 4); !slices.Equal(got, want[:4]) {
		t.Errorf("limit 4: got %q, want %q", got, want[:4])
	}
	// Subtitles are exact too: a faculty member's "Faculty · {department}".
	if got := f.find(x, "faculty · physics", 5); !slices.Equal(got, []string{"=user:Asha Rao"}) {
		t.Errorf("faculty subtitle: got %q", got)
	}

	users, err := x.SearchUsers(context.Background(), "data science", 20)
	if err != nil {
		t.Fatal(err)
	}
	if got := f.label(users); !slices.Equal(got, []string{"=user:Data Science", "user:Data Science Club"}) {
		t.Errorf("users only: got %q", got)
	}
}

func TestOutboxUpdatesAndDeletes(t *testing.T) {
	f := newFixture(t)
	asha := f.user(userSpec{name: "Asha Rao", uid: "BWU/BCA/20/1"})
	x := f.open()

	p := f.post(asha, "Robotics workshop on Friday")
	c := f.comment(p, asha, "Robotics kits are in room 4")
	f.catchUp(x)
	if got := f.find(x, "robotics", 10); len(got) != 2 {
		t.Fatalf("after insert: %q", got)
	}

	f.setPost(p, "Drone workshop on Friday")
	f.catchUp(x)
	if got := f.find(x, "robotics", 10); !slices.Equal(got, []string{"comment:Robotics kits are in room 4"}) {
		t.Errorf("after edit, robotics: %q", got)
	}
	if got := f.find(x, "drone", 10); !slices.Equal(got, []string{"post:Drone workshop on Friday"}) {
		t.Errorf("after edit, drone: %q", got)
	}

	f.deletePost(p) // cascades to the comment
	f.catchUp(x)
	if got := f.find(x, "robotics", 10); len(got) != 0 {
		t.Errorf("after delete: %q", got)
	}
	if got := f.find(x, "drone", 10); len(got) != 0 {
		t.Errorf("after delete: %q", got)
	}
	_ = c

	// Account deletion (persistence.DeleteAccount) sends deletes for the
	// user, their posts and the comments on them.
	p2 := f.post(asha, "Chess club tonight")
	f.catchUp(x)
	f.tx(func(tx bun.Tx) error {
		_, err := persistence.DeleteAccount(context.Background(), tx, asha)
		return err
	})
	f.catchUp(x)
	for _, q := range []string{"asha", "chess"} {
		if got := f.find(x, q, 10); len(got) != 0 {
			t.Errorf("after account deletion, %q: %q", q, got)
		}
	}
	_ = p2
	if n, err := x.DocCount(); err != nil || n != 0 {
		t.Errorf("doc count after everything was deleted = %d, %v", n, err)
	}
}

func TestSecondIndexerCatchesUp(t *testing.T) {
	f := newFixture(t)
	asha := f.user(userSpec{name: "Asha Rao", uid: "BWU/BCA/20/1"})
	f.post(asha, "Hackathon registration opens")
	a := f.open()

	// A second node with an index of its own, built while the first runs.
	bDir := filepath.Join(t.TempDir(), "node-b", "search")
	b := f.openAt(bDir)
	applied := b.Applied()
	if err := b.Close(); err != nil { // node B goes down
		t.Fatal(err)
	}

	f.post(asha, "Hackathon prizes announced")
	p := f.post(asha, "Hackathon venue moved")
	f.deletePost(p)
	f.catchUp(a)

	b = f.openAt(bDir) // B comes back: no rebuild, it resumes from its position
	if b.Applied() != applied {
		t.Errorf("reopened at %d, want the stored %d", b.Applied(), applied)
	}
	f.catchUp(b)
	want := []string{"post:Hackathon registration opens", "post:Hackathon prizes announced"}
	for name, x := range map[string]*Index{"a": a, "b": b} {
		got := f.find(x, "hackathon", 10)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("node %s: %q, want %q", name, got, want)
		}
	}
	if a.Applied() != b.Applied() || a.Applied() == applied {
		t.Errorf("positions: a %d, b %d (was %d)", a.Applied(), b.Applied(), applied)
	}
}

func TestRebuildWhenMissingOrCorrupt(t *testing.T) {
	f := newFixture(t)
	asha := f.user(userSpec{name: "Asha Rao", uid: "BWU/BCA/20/1"})
	f.post(asha, "Orientation week schedule")
	x := f.open()
	f.post(asha, "Orientation photos")
	f.catchUp(x)
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}

	breakers := []struct {
		name   string
		break_ func(t *testing.T, dir string)
	}{
		{"directory removed", func(t *testing.T, dir string) {
			if err := os.RemoveAll(dir); err != nil {
				t.Fatal(err)
			}
		}},
		{"metadata corrupt", func(t *testing.T, dir string) {
			if err := os.WriteFile(filepath.Join(dir, "index_meta.json"), []byte("{not json"), 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{"store corrupt", func(t *testing.T, dir string) {
			if err := os.WriteFile(filepath.Join(dir, "store", "root.bolt"), []byte("garbage"), 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{"empty directory", func(t *testing.T, dir string) {
			if err := os.RemoveAll(dir); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(dir, 0o700); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, bt := range breakers {
		t.Run(bt.name, func(t *testing.T) {
			bt.break_(t, f.dir)
			ctx := context.Background()
			x, err := Open(ctx, Options{Dir: f.dir, DB: f.db, Log: f.log()})
			if err != nil {
				t.Fatalf("open: %v", err)
			}
			defer x.Close()
			hits, err := x.Search(ctx, "orientation", 10)
			if err != nil || len(hits) != 2 {
				t.Errorf("after rebuild: %v, %v", f.label(hits), err)
			}
		})
	}
}

func TestRebuildRefusesAnIndexInUse(t *testing.T) {
	f := newFixture(t)
	x := f.open()
	_, err := Rebuild(context.Background(), f.db, f.dir, nil)
	if !errors.Is(err, ErrInUse) {
		t.Errorf("Rebuild on an open index: %v, want ErrInUse", err)
	}
	if err := x.Ready(); err != nil {
		t.Errorf("still ready: %v", err)
	}
	x.Close()
	if err := x.Ready(); !errors.Is(err, ErrClosed) {
		t.Errorf("Ready after close = %v", err)
	}
	st, err := Rebuild(context.Background(), f.db, f.dir, nil)
	if err != nil {
		t.Fatalf("Rebuild on a closed index: %v", err)
	}
	if st.Docs() != 0 {
		t.Errorf("docs = %d", st.Docs())
	}
}

// TestOutboxGaps: an outbox id taken by a transaction that commits after a
// higher id was applied is still applied.
func TestOutboxGaps(t *testing.T) {
	f := newFixture(t)
	asha := f.user(userSpec{name: "Asha Rao", uid: "BWU/BCA/20/1"})
	x := f.open()
	f.catchUp(x)
	ctx := context.Background()

	slow, err := f.db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Rollback()
	late := &persistence.Post{ID: persistence.NewID(), UserID: asha, Content: "Late breaking news"}
	if _, err := slow.NewInsert().Model(late).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if err := persistence.AddOutbox(ctx, slow, persistence.EntityPost, late.ID, persistence.OpUpsert); err != nil {
		t.Fatal(err)
	}
	f.labels[late.ID] = "post:Late breaking news"

	f.post(asha, "Early news") // a higher outbox id, committed first
	before := x.Applied()
	f.catchUp(x)
	if got := f.find(x, "news", 10); !slices.Equal(got, []string{"post:Early news"}) {
		t.Fatalf("before the slow commit: %q", got)
	}
	if x.Applied() != before {
		t.Errorf("position moved past an open gap: %d -> %d", before, x.Applied())
	}

	if err := slow.Commit(); err != nil {
		t.Fatal(err)
	}
	f.catchUp(x)
	got := f.find(x, "news", 10)
	slices.Sort(got)
	if !slices.Equal(got, []string{"post:Early news", "post:Late breaking news"}) {
		t.Errorf("after the slow commit: %q", got)
	}
	if x.Applied() <= before {
		t.Errorf("position did not move once the gap filled: %d", x.Applied())
	}
}

func TestTailStateAdvance(t *testing.T) {
	t0 := time.Unix(1000, 0)
	entries := func(ids ...int64) []persistence.OutboxEntry {
		out := make([]persistence.OutboxEntry, len(ids))
		for i, id := range ids {
			out[i] = persistence.OutboxEntry{ID: id}
		}
		return out
	}
	tests := []struct {
		name     string
		from     tailState
		read     []int64
		at       time.Time
		wantHi   int64
		wantAt   int64
		wantGaps []int64
	}{
		{"in order", tailState{hi: 5}, []int64{6, 7, 8}, t0, 8, 8, nil},
		{"a gap opens", tailState{hi: 5}, []int64{6, 8, 9}, t0, 9, 6, []int64{7}},
		{"a gap fills", tailState{hi: 9, gaps: map[int64]time.Time{7: t0}}, []int64{7, 10}, t0, 10, 10, nil},
		{"two gaps, the lower fills", tailState{hi: 9, gaps: map[int64]time.Time{3: t0, 7: t0}}, []int64{3}, t0, 9, 6, []int64{7}},
		{"a gap expires", tailState{hi: 9, gaps: map[int64]time.Time{7: t0}}, nil, t0.Add(time.Hour), 9, 9, nil},
		{"a gap waits", tailState{hi: 9, gaps: map[int64]time.Time{7: t0}}, nil, t0.Add(time.Second), 9, 6, []int64{7}},
		{"a huge gap is capped", tailState{hi: 0}, []int64{maxGaps + 100}, t0, maxGaps + 100, 99, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.from.gaps == nil {
				tt.from.gaps = map[int64]time.Time{}
			}
			got := tt.from.advance(entries(tt.read...), tt.at, time.Minute)
			if got.hi != tt.wantHi || got.applied != tt.wantAt {
				t.Errorf("hi %d applied %d, want %d %d", got.hi, got.applied, tt.wantHi, tt.wantAt)
			}
			if tt.name == "a huge gap is capped" {
				if len(got.gaps) != maxGaps {
					t.Errorf("%d gaps, want %d", len(got.gaps), maxGaps)
				}
				return
			}
			if ids := got.gapIDs(); !slices.Equal(ids, tt.wantGaps) && !(len(ids) == 0 && tt.wantGaps == nil) {
				t.Errorf("gaps %v, want %v", ids, tt.wantGaps)
			}
		})
	}
}

// TestWriteSearchableByNotify runs the real tailer (LISTEN/NOTIFY): each
// write becomes searchable because its NOTIFY wakes the tailer. The poll
// is set far beyond the test, so nothing else can wake it. How long that
// takes is the benchmark's business, not a test's (README, Tests): the
// second write is made while the indexer is held up for longer than the
// 1 s this test used to allow, as on a busy machine, and is not
// searchable until it is let go.
func TestWriteSearchableByNotify(t *testing.T) {
	f := newFixture(t)
	x := f.openWith(Options{PollInterval: 24 * time.Hour})
	x.Start()
	ctx := context.Background()
	found := func(prefix string) func() bool {
		return func() bool {
			hits, err := x.Search(ctx, prefix, 5)
			return err == nil && len(hits) == 1
		}
	}
	for i, name := range []string{"Zara Quill", "Yusuf Quimby", "Xena Quinlan"} {
		prefix := string([]rune(name)[0:4])
		if i == 1 {
			// CatchUp holds tailMu while it applies: holding it here
			// stalls the tailer, woken or not.
			x.tailMu.Lock()
			f.user(userSpec{name: name, uid: "BWU/BCA/20/9" + string(rune('0'+i))})
			time.Sleep(1500 * time.Millisecond) // a stand-in for a slow machine; nothing depends on its length
			stalled := found(prefix)()
			x.tailMu.Unlock()
			if stalled {
				t.Fatalf("%q searchable while the indexer was held up", name)
			}
		} else {
			f.user(userSpec{name: name, uid: "BWU/BCA/20/9" + string(rune('0'+i))})
		}
		waitUntil(t, "the tailer to index "+name, found(prefix))
	}
}

func TestHousekeepingPrunesOldOutboxRows(t *testing.T) {
	f := newFixture(t)
	asha := f.user(userSpec{name: "Asha Rao", uid: "BWU/BCA/20/1"})
	f.post(asha, "Old news")
	f.post(asha, "Fresh news")
	x := f.open()
	ctx := context.Background()
	// The first two rows (the user and the first post) are eight days old.
	if _, err := f.db.ExecContext(ctx, `UPDATE search_outbox SET created_at = now() - interval '8 days'
		WHERE id IN (SELECT id FROM search_outbox ORDER BY id LIMIT 2)`); err != nil {
		t.Fatal(err)
	}
	x.housekeeping(ctx)
	var left int
	if err := f.db.QueryRowContext(ctx, "SELECT count(*) FROM search_outbox").Scan(&left); err != nil {
		t.Fatal(err)
	}
	if left != 1 {
		t.Errorf("%d outbox rows left, want 1", left)
	}
}

// TestStaleIndexIsRebuilt: an index that has not synced for longer than the
// outbox keeps rows may have missed pruned ones, so it is rebuilt at open.
func TestStaleIndexIsRebuilt(t *testing.T) {
	f := newFixture(t)
	asha := f.user(userSpec{name: "Asha Rao", uid: "BWU/BCA/20/1"})
	p := f.post(asha, "Vanishing post")
	x := f.open()
	if err := x.bi.SetInternal(keySyncedAt, []byte(strconv.FormatInt(time.Now().Add(-7*24*time.Hour).Unix(), 10))); err != nil {
		t.Fatal(err)
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	// Gone from the database, and its outbox row pruned: only a rebuild
	// can notice.
	ctx := context.Background()
	if _, err := f.db.ExecContext(ctx, "DELETE FROM posts WHERE id = ?", p); err != nil {
		t.Fatal(err)
	}
	x = f.open()
	if got := f.find(x, "vanishing", 5); len(got) != 0 {
		t.Errorf("stale index not rebuilt: %q", got)
	}
}

func TestWarmCachesTheMostFrequentWords(t *testing.T) {
	f := newFixture(t)
	asha := f.user(userSpec{name: "Asha Rao", uid: "BWU/BCA/20/1"})
	for i := range 5 {
		f.post(asha, "campus news number "+strconv.Itoa(i))
	}
	f.post(asha, "quiet library")
	x := f.open()
	terms, err := x.frequentTerms(context.Background(), 2)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(terms, []string{"campus", "news"}) {
		t.Errorf("frequent terms %q", terms)
	}
	x.warm(context.Background())
	// The key names the kinds searched (all of them: the search page's),
	// the limit and the query.
	x.cache.mu.Lock()
	ok := false
	for k := range x.cache.byKey {
		ok = ok || strings.HasSuffix(k, "|20|true|campus")
	}
	x.cache.mu.Unlock()
	if !ok {
		t.Errorf("warm-up did not cache the search for campus")
	}
}

// TestPrefixPicksTheCommonestCompletions: a short prefix of many words
// stands for the ones in the most documents.
func TestPrefixPicksTheCommonestCompletions(t *testing.T) {
	f := newFixture(t)
	asha := f.user(userSpec{name: "Asha Rao", uid: "BWU/BCA/20/1"})
	for i := range maxCompletions + 4 {
		f.post(asha, "comp"+string(rune('a'+i))+"x once") // a 1-document word each
	}
	for range 3 {
		f.post(asha, "computer lab")
	}
	x := f.open()
	got := f.find(x, "comp", 50)
	n := 0
	for _, g := range got {
		if g == "post:computer lab" {
			n++
		}
	}
	if n != 3 || len(got) != 3+maxCompletions-1 {
		t.Errorf("comp: %d computer posts of %d results: %q", n, len(got), got)
	}
}

// Hits with equal scores keep one order whatever the limit: a smaller limit
// answers the first hits of a larger one.
func TestSearchTiesKeepOrderUnderLimit(t *testing.T) {
	f := newFixture(t)
	for range 12 {
		f.user(userSpec{name: "Sam Lee"})
	}
	x := f.open()
	ctx := context.Background()
	all, err := x.Search(ctx, "sam", 12)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 12 {
		t.Fatalf("%d hits, want 12", len(all))
	}
	for limit := 1; limit < 12; limit++ {
		got, err := x.Search(ctx, "sam", limit)
		if err != nil {
			t.Fatal(err)
		}
		for i := range got {
			if got[i].ID != all[i].ID {
				t.Fatalf("limit %d: hit %d is %s, the full list has %s", limit, i, got[i].ID, all[i].ID)
			}
		}
	}
}

// TestNameTypos: names (people, groups) forgive a typo from 3 letters and
// two from 8, and rank the exact word and the words it starts above typo
// matches, with the whole name typed exactly first of all.
func TestNameTypos(t *testing.T) {
	f := newFixture(t)
	owner := f.user(userSpec{name: "Chitra Iyer", uid: "BWU/BCA/20/1"})
	f.user(userSpec{name: "Chitra Iyengar", uid: "BWU/BCA/20/2"})
	f.user(userSpec{name: "Sam Rao", uid: "BWU/BCA/20/3"})
	f.user(userSpec{name: "Samir Khan", uid: "BWU/BCA/20/4"})
	f.user(userSpec{name: "Pam Rao", uid: "BWU/BCA/20/5"})
	f.user(userSpec{name: "Arindam Chakraborty", uid: "BWU/BCA/20/6"})
	f.group(owner, "Chess Club", "chess-club", "Weekly games in the library", "public")
	f.post(owner, "Iyr is not a word")
	x := f.open()

	tests := []struct {
		name, q string
		want    []string // in order
	}{
		{"a letter missing in a short surname", "Chitra Iyr", []string{"user:Chitra Iyer"}},
		{"the same, finished", "chitra iyr ", []string{"user:Chitra Iyer"}},
		{"the whole name exactly: first, marked exact", "Chitra Iyer", []string{"=user:Chitra Iyer"}},
		{"exact word, then the words it starts, then typos", "sam", []string{"user:Sam Rao", "user:Samir Khan", "user:Pam Rao"}},
		{"two typos in a long surname", "chakrabroty", []string{"user:Arindam Chakraborty"}},
		{"a typo in a group's name", "chess clob", []string{"group:Chess Club"}},
		{"posts keep their rule: no typo under five letters", "iyer", []string{"user:Chitra Iyer"}},
		{"two letters are not fuzzed", "pa ", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := f.find(x, tt.q, 20); !slices.Equal(got, tt.want) && (len(got) != 0 || len(tt.want) != 0) {
				t.Errorf("Search(%q) = %q, want %q", tt.q, got, tt.want)
			}
		})
	}
}

// TestGroupsInSearch: groups are in the main results, after people and
// before posts, exact names and handles first; the index holds every
// group (who may see one is the caller's to decide) and follows edits and
// deletions through the outbox.
func TestGroupsInSearch(t *testing.T) {
	f := newFixture(t)
	asha := f.user(userSpec{name: "Asha Rao", uid: "BWU/BCA/20/1"})
	f.user(userSpec{name: "Chess Kumar", uid: "BWU/BCA/20/2"})
	club := f.group(asha, "Chess Club", "chess-club", "Weekly games", "public")
	f.group(asha, "Secret Chess Circle", "chess-circle", "", "secret")
	f.post(asha, "chess tonight in the library")
	x := f.open()

	// People, then groups (by relevance), then posts.
	got := f.find(x, "chess", 20)
	if len(got) != 4 || got[0] != "user:Chess Kumar" || !contains(got[1:3], "group:Chess Club") ||
		!contains(got[1:3], "group:Secret Chess Circle") || got[3] != "post:chess tonight in the library" {
		t.Errorf("chess: got %q, want the user, the two groups, the post", got)
	}
	for _, q := range []string{"chess club", "CHESS-CLUB"} {
		if got := f.find(x, q, 20); len(got) == 0 || got[0] != "=group:Chess Club" {
			t.Errorf("%s: got %q, want the club first and exact", q, got)
		}
	}

	f.tx(func(tx bun.Tx) error {
		ctx := context.Background()
		if _, err := tx.ExecContext(ctx, "UPDATE groups SET name = 'Go Club' WHERE id = ?", club); err != nil {
			return err
		}
		return persistence.AddOutbox(ctx, tx, persistence.EntityGroup, club, persistence.OpUpsert)
	})
	f.labels[club] = "group:Go Club"
	f.catchUp(x)
	if got := f.find(x, "go club", 20); len(got) == 0 || got[0] != "=group:Go Club" {
		t.Errorf("after the rename: %q", got)
	}
	f.tx(func(tx bun.Tx) error {
		ctx := context.Background()
		if _, err := tx.ExecContext(ctx, "DELETE FROM groups WHERE id = ?", club); err != nil {
			return err
		}
		return persistence.AddOutbox(ctx, tx, persistence.EntityGroup, club, persistence.OpDelete)
	})
	f.catchUp(x)
	if got := f.find(x, "go club", 20); len(got) != 0 {
		t.Errorf("after the deletion: %q", got)
	}
}

// TestTags: the tags a query names come from the posts' tags, kept by the
// outbox like the posts: the tag itself first, then the tags it starts by
// how many posts hold them.
func TestTags(t *testing.T) {
	f := newFixture(t)
	asha := f.user(userSpec{name: "Asha Rao", uid: "BWU/BCA/20/1"})
	f.post(asha, "Tonight #Chess")
	f.post(asha, "#chess again, and #ChessClub")
	f.post(asha, "#chessclub meets, #chessclub wins")
	f.post(asha, "#chessclub #chemistry")
	p := f.post(asha, "#chesspuzzle of the day")
	x := f.open()
	tags := func(q string, limit int) []string {
		t.Helper()
		hits, err := x.Tags(context.Background(), q, limit)
		if err != nil {
			t.Fatal(err)
		}
		return f.label(hits)
	}

	tests := []struct {
		q     string
		limit int
		want  []string
	}{
		{"chess", 5, []string{"=tag:chess(2)", "tag:chessclub(3)", "tag:chesspuzzle(1)"}},
		{"#Chess", 2, []string{"=tag:chess(2)", "tag:chessclub(3)"}},
		{"ches", 5, []string{"tag:chessclub(3)", "tag:chess(2)", "tag:chesspuzzle(1)"}},
		{"chess club", 5, []string{"=tag:chessclub(3)"}},
		{"chem", 5, []string{"tag:chemistry(1)"}},
		{"zebra", 5, nil},
		{"2026", 5, nil},
	}
	for _, tt := range tests {
		t.Run(tt.q, func(t *testing.T) {
			if got := tags(tt.q, tt.limit); !slices.Equal(got, tt.want) && (len(got) != 0 || len(tt.want) != 0) {
				t.Errorf("Tags(%q) = %q, want %q", tt.q, got, tt.want)
			}
		})
	}

	f.setPost(p, "no puzzle today")
	f.catchUp(x)
	if got := tags("chessp", 5); len(got) != 0 {
		t.Errorf("after the edit: %q", got)
	}
}
