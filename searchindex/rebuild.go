package searchindex

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/google/uuid"
	"github.com/uptrace/bun"
	bolt "go.etcd.io/bbolt"

	"campus/persistence"
)

// Rebuild sizes.
const (
	rebuildPage = 2000 // rows per database page
	// rebuildBatch documents go into one index batch (one segment); bigger
	// batches mean fewer segments to merge.
	rebuildBatch = 5000
	// gapWindow is how far below the outbox's highest id a rebuild looks
	// for ids written by transactions still in flight when its scan began.
	gapWindow = 10_000
	// persistWait bounds how long a rebuild waits for its last batch to
	// reach the disk.
	persistWait = 2 * time.Minute
)

// Progress is how far a rebuild is: Done documents of about Total.
type Progress struct {
	Done, Total int64
	Elapsed     time.Duration
	Finished    bool
}

// Stats describe a finished rebuild.
type Stats struct {
	Users, Posts, Comments, Groups int64
	Elapsed                        time.Duration
	// Applied is the outbox position stored in the new index: every
	// outbox entry at or below it is reflected by the scan.
	Applied int64
}

// Docs is the number of documents indexed.
func (s Stats) Docs() int64 { return s.Users + s.Posts + s.Comments + s.Groups }

// DocsPerSecond is the rebuild's indexing rate, database reads included.
func (s Stats) DocsPerSecond() float64 {
	if s.Elapsed <= 0 {
		return 0
	}
	return float64(s.Docs()) / s.Elapsed.Seconds()
}

// Rebuild builds a complete index of every user, post and comment in db into
// dir, replacing what is there. It builds beside dir and swaps the finished
// index in, so dir is never half-built; it refuses (ErrInUse) while a node
// has the index at dir open. progress may be nil.
//
// Consistency with the outbox: the scan reads one REPEATABLE READ snapshot,
// and the stored position is just below the lowest outbox id that snapshot
// cannot see within gapWindow of its highest id. Every entry at or below
// the position is reflected by the scan; the entries above it (those that
// committed after the snapshot, and any whose ids were taken by
// transactions still running) are applied by the tailer, and applying an
// entry twice is harmless.
func Rebuild(ctx context.Context, db *bun.DB, dir string, progress func(Progress)) (Stats, error) {
	start := time.Now()
	if err := refuseIfOpen(dir); err != nil {
		return Stats{}, err
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return Stats{}, fmt.Errorf("searchindex: data dir: %w", err)
	}
	built := dir + ".build-" + randomSuffix()
	st, err := build(ctx, db, built, start, progress)
	if err != nil {
		_ = os.RemoveAll(built)
		return Stats{}, err
	}
	if err := swapIn(built, dir); err != nil {
		_ = os.RemoveAll(built)
		return Stats{}, err
	}
	st.Elapsed = time.Since(start)
	if progress != nil {
		progress(Progress{Done: st.Docs(), Total: st.Docs(), Elapsed: st.Elapsed, Finished: true})
	}
	return st, nil
}

// refuseIfOpen answers ErrInUse when another process holds the index at dir.
func refuseIfOpen(dir string) error {
	if _, err := os.Stat(dir); err != nil {
		return nil
	}
	bi, err := openBleve(dir, 200*time.Millisecond)
	if errors.Is(err, bolt.ErrTimeout) {
		return ErrInUse
	}
	if err == nil {
		if err := bi.Close(); err != nil {
			return fmt.Errorf("searchindex: close old index: %w", err)
		}
	}
	return nil // unreadable is fine: it is being replaced
}

func build(ctx context.Context, db *bun.DB, path string, start time.Time, progress func(Progress)) (Stats, error) {
	im, err := newMapping()
	if err != nil {
		return Stats{}, err
	}
	docs, err := newDocBuilder(im)
	if err != nil {
		return Stats{}, err
	}
	bi, err := bleve.NewUsing(path, im, scorch.Name, scorch.Name, runtimeConfig(5*time.Second))
	if err != nil {
		return Stats{}, fmt.Errorf("searchindex: create index: %w", err)
	}
	st, err := fill(ctx, db, bi, docs, start, progress)
	if cerr := bi.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("searchindex: close built index: %w", cerr)
	}
	return st, err
}

// fill scans the database in one snapshot and indexes everything. Reading
// (one goroutine) and indexing (this one) overlap.
func fill(ctx context.Context, db *bun.DB, bi bleve.Index, docs *docBuilder, start time.Time, progress func(Progress)) (Stats, error) {
	var st Stats
	tx, err := db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
	if err != nil {
		return st, fmt.Errorf("searchindex: begin scan: %w", err)
	}
	defer func() { _ = tx.Rollback() }() // read-only: nothing to keep

	maxID, err := persistence.MaxOutboxID(ctx, tx)
	if err != nil {
		return st, err
	}
	missing, err := persistence.MissingOutboxIDs(ctx, tx, max(1, maxID-gapWindow+1), maxID)
	if err != nil {
		return st, err
	}
	st.Applied = maxID
	if len(missing) > 0 {
		st.Applied = missing[0] - 1
	}
	users, posts, comments, err := persistence.SearchCounts(ctx, tx)
	if err != nil {
		return st, err
	}
	total := users + posts + comments

	scanCtx, cancel := context.WithCancel(ctx)
	pages := make(chan page, 2)
	scanErr := make(chan error, 1)
	go func() {
		defer close(pages)
		scanErr <- scan(scanCtx, tx, pages)
	}()
	defer func() {
		// On an early return, stop the scan and let it finish with the
		// transaction before the rollback.
		cancel()
		for range pages {
		}
	}()

	b := newSplitBatch(bi, rebuildBatch)
	flush := func() error {
		if b.size() == 0 {
			return nil
		}
		if err := b.apply(bi, nil, false); err != nil {
			return err
		}
		b.reset()
		if progress != nil {
			progress(Progress{Done: st.Docs(), Total: total, Elapsed: time.Since(start)})
		}
		return nil
	}
	for p := range pages {
		for i := range p.users {
			if err := b.index(docs.userDoc(&p.users[i])); err != nil {
				return st, err
			}
		}
		for _, t := range p.texts {
			if err := b.index(docs.textDoc(p.kind, t)); err != nil {
				return st, err
			}
		}
		for i := range p.groups {
			if err := b.index(docs.groupDoc(&p.groups[i])); err != nil {
				return st, err
			}
		}
		switch p.kind {
		case userFields:
			st.Users += int64(len(p.users))
		case postFields:
			st.Posts += int64(len(p.texts))
		case commentFields:
			st.Comments += int64(len(p.texts))
		case groupFields:
			st.Groups += int64(len(p.groups))
		}
		if b.size() >= rebuildBatch {
			if err := flush(); err != nil {
				return st, err
			}
		}
	}
	if err := <-scanErr; err != nil {
		return st, err
	}
	if err := flush(); err != nil {
		return st, err
	}
	// The position goes last, so an index without it is known unfinished.
	// Wait for it to reach the disk: Close does not persist.
	return st, b.apply(bi, map[string][]byte{
		string(keySchema):   []byte(schemaVersion),
		string(keyOutbox):   []byte(strconv.FormatInt(st.Applied, 10)),
		string(keySyncedAt): []byte(strconv.FormatInt(time.Now().Unix(), 10)),
	}, true)
}

// page is one database page of one kind.
type page struct {
	kind   kindFields
	users  []persistence.User
	texts  []persistence.SearchText
	groups []persistence.GroupText
}

// scan pages through users, posts and comments in id order.
func scan(ctx context.Context, tx bun.Tx, out chan<- page) error {
	send := func(p page) error {
		select {
		case out <- p:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	after := uuid.Nil
	for {
		us, err := persistence.SearchUsersAfter(ctx, tx, after, rebuildPage)
		if err != nil {
			return err
		}
		if len(us) > 0 {
			after = us[len(us)-1].ID
			if err := send(page{kind: userFields, users: us}); err != nil {
				return err
			}
		}
		if len(us) < rebuildPage {
			break
		}
	}
	for _, k := range []struct {
		kind kindFields
		next func(context.Context, bun.IDB, uuid.UUID, int) ([]persistence.SearchText, error)
	}{{postFields, persistence.PostTextsAfter}, {commentFields, persistence.CommentTextsAfter}} {
		after := uuid.Nil
		for {
			ts, err := k.next(ctx, tx, after, rebuildPage)
			if err != nil {
				return err
			}
			if len(ts) > 0 {
				after = ts[len(ts)-1].ID
				if err := send(page{kind: k.kind, texts: ts}); err != nil {
					return err
				}
			}
			if len(ts) < rebuildPage {
				break
			}
		}
	}
	after = uuid.Nil
	for {
		gs, err := persistence.GroupTextsAfter(ctx, tx, after, rebuildPage)
		if err != nil {
			return err
		}
		if len(gs) > 0 {
			after = gs[len(gs)-1].ID
			if err := send(page{kind: groupFields, groups: gs}); err != nil {
				return err
			}
		}
		if len(gs) < rebuildPage {
			break
		}
	}
	return nil
}
