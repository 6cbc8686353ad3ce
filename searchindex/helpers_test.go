package searchindex

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/rs/zerolog"
	"github.com/uptrace/bun"

	"campus/persistence"
	"campus/persistence/testdb"
)

func TestMain(m *testing.M) { testdb.Main(m) }

// fixture is a database with a search index directory beside it. Writes go
// through transactions that add outbox rows, as the product's writers do.
type fixture struct {
	t      testing.TB
	db     *bun.DB
	dir    string
	labels map[uuid.UUID]string
	seq    atomic.Int64
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	return &fixture{
		t:      t,
		db:     testdb.New(t),
		dir:    filepath.Join(t.TempDir(), "search"),
		labels: map[uuid.UUID]string{},
	}
}

func (f *fixture) log() zerolog.Logger {
	return zerolog.New(zerolog.NewTestWriter(f.t)).Level(zerolog.WarnLevel)
}

// open opens (rebuilding if needed) the fixture's index without starting
// the tailer; it is closed when the test ends.
func (f *fixture) open() *Index {
	f.t.Helper()
	return f.openAt(f.dir)
}

func (f *fixture) openAt(dir string) *Index {
	f.t.Helper()
	return f.openWith(Options{Dir: dir})
}

// openWith is open with options o (the fixture's directory, database and
// log unless o sets them).
func (f *fixture) openWith(o Options) *Index {
	f.t.Helper()
	if o.Dir == "" {
		o.Dir = f.dir
	}
	if o.DB == nil {
		o.DB = f.db
	}
	o.Log = f.log()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	x, err := Open(ctx, o)
	if err != nil {
		f.t.Fatalf("open index: %v", err)
	}
	f.t.Cleanup(func() {
		if err := x.Close(); err != nil {
			f.t.Errorf("close index: %v", err)
		}
	})
	return x
}

func (f *fixture) tx(fn func(tx bun.Tx) error) {
	f.t.Helper()
	if err := f.db.RunInTx(context.Background(), nil, func(ctx context.Context, tx bun.Tx) error { return fn(tx) }); err != nil {
		f.t.Fatal(err)
	}
}

type userSpec struct {
	name, role, uid, dept, course, batch, avatar string
}

func (f *fixture) user(s userSpec) uuid.UUID {
	f.t.Helper()
	n := f.seq.Add(1)
	if s.role == "" {
		s.role = "student"
	}
	u := &persistence.User{
		ID: persistence.NewID(), Name: s.name, Email: fmt.Sprintf("u%d@uni.edu", n), PasswordHash: "x",
		Role: s.role, UniversityID: s.uid, Department: s.dept, Course: s.course, Batch: s.batch, AvatarURL: s.avatar,
	}
	f.tx(func(tx bun.Tx) error { return persistence.InsertUser(context.Background(), tx, u) })
	f.labels[u.ID] = "user:" + s.name
	return u.ID
}

func (f *fixture) post(author uuid.UUID, content string) uuid.UUID {
	f.t.Helper()
	p := &persistence.Post{ID: persistence.NewID(), UserID: author, Content: content}
	f.tx(func(tx bun.Tx) error {
		ctx := context.Background()
		if _, err := tx.NewInsert().Model(p).Exec(ctx); err != nil {
			return err
		}
		return persistence.AddOutbox(ctx, tx, persistence.EntityPost, p.ID, persistence.OpUpsert)
	})
	f.labels[p.ID] = "post:" + content
	return p.ID
}

func (f *fixture) comment(post, author uuid.UUID, content string) uuid.UUID {
	f.t.Helper()
	c := &persistence.Comment{ID: persistence.NewID(), PostID: post, UserID: author, Content: content}
	f.tx(func(tx bun.Tx) error {
		ctx := context.Background()
		if _, err := tx.NewInsert().Model(c).Exec(ctx); err != nil {
			return err
		}
		return persistence.AddOutbox(ctx, tx, persistence.EntityComment, c.ID, persistence.OpUpsert)
	})
	f.labels[c.ID] = "comment:" + content
	return c.ID
}

// group creates a group owned by owner, as the groups API does (with its
// outbox entry).
func (f *fixture) group(owner uuid.UUID, name, handle, description, visibility string) uuid.UUID {
	f.t.Helper()
	g := &persistence.Group{ID: persistence.NewID(), Handle: handle, Name: name, Description: description,
		Kind: "club", Visibility: visibility}
	f.tx(func(tx bun.Tx) error { return persistence.InsertGroup(context.Background(), tx, g, owner) })
	f.labels[g.ID] = "group:" + name
	return g.ID
}

// deletePost deletes a post and tells search about it and its comments.
func (f *fixture) deletePost(id uuid.UUID) {
	f.t.Helper()
	f.tx(func(tx bun.Tx) error {
		ctx := context.Background()
		if _, err := tx.ExecContext(ctx, `INSERT INTO search_outbox (entity, entity_id, op)
			SELECT 'comment', id, 'delete' FROM comments WHERE post_id = ?`, id); err != nil {
			return err
		}
		if err := persistence.AddOutbox(ctx, tx, persistence.EntityPost, id, persistence.OpDelete); err != nil {
			return err
		}
		_, err := tx.NewDelete().Model((*persistence.Post)(nil)).Where("id = ?", id).Exec(ctx)
		return err
	})
}

func (f *fixture) setPost(id uuid.UUID, content string) {
	f.t.Helper()
	f.tx(func(tx bun.Tx) error {
		ctx := context.Background()
		if _, err := tx.NewUpdate().Model((*persistence.Post)(nil)).Set("content = ?", content).Where("id = ?", id).Exec(ctx); err != nil {
			return err
		}
		return persistence.AddOutbox(ctx, tx, persistence.EntityPost, id, persistence.OpUpsert)
	})
	f.labels[id] = "post:" + content
}

// catchUp applies the outbox to x now.
func (f *fixture) catchUp(x *Index) {
	f.t.Helper()
	if _, err := x.CatchUp(context.Background()); err != nil {
		f.t.Fatalf("catch up: %v", err)
	}
}

// find searches and labels the hits ("user:Asha Rao", "post:…"), with a
// leading "=" on exact ones.
func (f *fixture) find(x *Index, q string, limit int) []string {
	f.t.Helper()
	hits, err := x.Search(context.Background(), q, limit)
	if err != nil {
		f.t.Fatalf("search %q: %v", q, err)
	}
	return f.label(hits)
}

func (f *fixture) label(hits []Hit) []string {
	out := make([]string, 0, len(hits))
	for _, h := range hits {
		l, ok := f.labels[h.ID]
		if h.Kind == "tag" {
			l, ok = fmt.Sprintf("tag:%s(%d)", h.Tag, int(h.Score)), true
		}
		if !ok {
			l = string(h.Kind) + ":?" + h.ID.String()
		}
		if !strings.HasPrefix(l, string(h.Kind)+":") {
			f.t.Errorf("hit %s has kind %s", l, h.Kind)
		}
		if h.Exact {
			l = "=" + l
		}
		out = append(out, l)
	}
	return out
}

// waitUntil polls cond until it holds. It bounds nothing itself (no test
// asserts how long something takes): only the test binary's deadline
// does, and the test fails a little before it rather than panic.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline, bounded := t.Deadline()
	for !cond() {
		if bounded && time.Until(deadline) < 10*time.Second {
			t.Fatalf("still waiting for %s when the test binary's deadline came near", what)
		}
		time.Sleep(5 * time.Millisecond) // polling interval, not synchronization
	}
}

func contains(list []string, s string) bool { return slices.Contains(list, s) }
