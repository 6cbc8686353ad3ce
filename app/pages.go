package app

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/rs/zerolog"
	"github.com/uptrace/bun"

	"campus/persistence"
)

// Reads of a page of posts are group-committed like likes are (docs/architecture.md §4.1),
// but for reading: the readers of one page (the same author filter, cursor
// and size: at a campus event, the first page of the feed) that arrive while
// that page's query runs wait for the next query and share it. One query
// answers them all, each reader's likes included, and the page is encoded
// once for all of them. A reader never joins a query that is already
// running, so every answer still comes straight from Postgres (docs/architecture.md §4),
// from a query that started after the request arrived: it sees every write
// committed before, the reader's own like included. Nothing is cached
// between queries. Blocks and mutes are per reader: the shared query marks
// whom each post is hidden from; a reader who hides some of a page's posts
// while more follow gets a query of their own that leaves them out (ownPage),
// so their page is still full. Most readers hide nothing and share.
//
// Concurrency: groups is guarded by mu. A group's runner goroutine is the
// only one that takes its waiting readers and answers them; a reader only
// appends itself and then waits for done.

// maxPageReaders bounds the readers one query serves: the like lookup costs
// a probe per post and reader.
const maxPageReaders = 512

// pageReadTimeout bounds one page query (request contexts carry no deadline).
const pageReadTimeout = 30 * time.Second

type pageReads struct {
	db  bun.IDB
	log zerolog.Logger

	mu     sync.Mutex
	groups map[pageKey]*pageGroup
}

// pageKey says which readers can share a query.
type pageKey struct {
	author uuid.UUID
	group  uuid.UUID
	// groups are the readers' groups of a home feed page (their ids in
	// order, concatenated): only readers of the same groups share a query.
	groups   string
	atMicros int64
	afterKey string
	afterID  uuid.UUID
	limit    int
}

// pageGroup is one page's readers: whether a runner serves them, and those
// waiting for its next query.
type pageGroup struct {
	running bool
	waiting []*pageReader
}

type pageReader struct {
	viewer uuid.UUID
	done   chan struct{}
	page   PostPage
	err    error
}

func newPageReads(db bun.IDB, log zerolog.Logger) *pageReads {
	return &pageReads{db: db, log: log, groups: make(map[pageKey]*pageGroup)}
}

// read answers the page q (Viewers unset) as viewer sees it.
func (r *pageReads) read(ctx context.Context, q persistence.PostQuery, viewer uuid.UUID) (PostPage, error) {
	key := pageKey{author: q.Author, group: q.Group, afterKey: q.After.Key, afterID: q.After.ID, limit: q.Limit}
	if q.Author == uuid.Nil && q.Group == uuid.Nil {
		var b strings.Builder
		for _, g := range q.Groups {
			b.Write(g[:])
		}
		key.groups = b.String()
	}
	if !q.After.At.IsZero() {
		key.atMicros = q.After.At.UnixMicro()
	}
	rd := &pageReader{viewer: viewer, done: make(chan struct{})}
	r.mu.Lock()
	g := r.groups[key]
	if g == nil {
		g = &pageGroup{}
		r.groups[key] = g
	}
	g.waiting = append(g.waiting, rd)
	start := !g.running
	g.running = true
	r.mu.Unlock()
	if start {
		go r.run(key, g, q)
	}
	select {
	case <-rd.done:
		return rd.page, rd.err
	case <-ctx.Done():
		return PostPage{}, ctx.Err()
	}
}

// run serves g's readers, one query for everyone waiting, until none wait.
func (r *pageReads) run(key pageKey, g *pageGroup, q persistence.PostQuery) {
	for {
		r.mu.Lock()
		readers := g.waiting
		if len(readers) > maxPageReaders {
			g.waiting = append([]*pageReader(nil), readers[maxPageReaders:]...)
			readers = readers[:maxPageReaders]
		} else {
			g.waiting = nil
		}
		if len(readers) == 0 {
			g.running = false
			delete(r.groups, key)
			r.mu.Unlock()
			return
		}
		r.mu.Unlock()
		r.serve(q, readers)
	}
}

// serve runs one query for readers and answers each of them.
func (r *pageReads) serve(q persistence.PostQuery, readers []*pageReader) {
	defer func() {
		// A panic must not leave readers waiting forever.
		if v := recover(); v != nil {
			err := fmt.Errorf("app: page read panicked: %v", v)
			r.log.Error().Err(err).Msg("page read")
			for _, rd := range readers {
				select {
				case <-rd.done: // answered before the panic
				default:
					answerReader(rd, PostPage{}, err)
				}
			}
		}
	}()
	index := make(map[uuid.UUID]int, len(readers))
	q.Viewers = make([]uuid.UUID, 0, len(readers))
	for _, rd := range readers {
		if _, ok := index[rd.viewer]; !ok {
			index[rd.viewer] = len(q.Viewers)
			q.Viewers = append(q.Viewers, rd.viewer)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), pageReadTimeout)
	defer cancel()
	rows, more, err := persistence.Posts(ctx, r.db, q)
	if err != nil {
		for _, rd := range readers {
			answerReader(rd, PostPage{}, err)
		}
		return
	}
	shared := PostPage{Posts: make([]PostView, len(rows))}
	for i, row := range rows {
		shared.Posts[i] = NewPostView(row).withViewer(false, false, false)
	}
	if more {
		last := rows[len(rows)-1]
		next := encodeKeyset(persistence.Keyset{At: last.SortAt, ID: last.ID})
		shared.NextCursor = &next
	}
	shared.enc = encodePage(shared)
	// flags[v*len(rows)+i]: viewer v's flags of post i, flagLiked,
	// flagSaved and flagReposted.
	flags := make([]byte, len(q.Viewers)*len(rows))
	for i, row := range rows {
		for _, set := range []struct {
			by   []int
			flag byte
		}{{row.LikedBy, flagLiked}, {row.SavedBy, flagSaved}, {row.RepostedBy, flagReposted}} {
			for _, v := range set.by {
				if v < len(q.Viewers) {
					flags[v*len(rows)+i] |= set.flag
				}
			}
		}
	}
	// Readers with the same flags on the page's posts share one copy of
	// the page (most like, save and repost none of them and get the shared
	// one): a copy per reader was a page of garbage per request. The pages
	// answered are read-only.
	pages := make(map[string]PostPage)
	mask := make([]byte, len(rows))
	var own []*pageReader // readers whose page the filter would leave short
	for _, rd := range readers {
		v := index[rd.viewer]
		mine := flags[v*len(rows) : (v+1)*len(rows)]
		if hidden := hiddenFrom(rows, v); hidden != nil {
			if more {
				own = append(own, rd)
				continue
			}
			answerReader(rd, filteredPage(shared, mine, hidden), nil)
			continue
		}
		flagsSome := false
		for i, f := range mine {
			mask[i] = '0' + f
			flagsSome = flagsSome || f != 0
		}
		if !flagsSome {
			answerReader(rd, shared, nil)
			continue
		}
		page, ok := pages[string(mask)]
		if !ok {
			page = shared
			page.Posts = make([]PostView, len(rows))
			for i := range page.Posts {
				page.Posts[i] = shared.Posts[i].withFlags(mine[i])
			}
			pages[string(mask)] = page
		}
		answerReader(rd, page, nil)
	}
	// A query of its own for each reader who hides some of this page's
	// posts and would otherwise get a short page; it leaves out what they
	// hide, so their page still holds q.Limit posts when more exist. Off
	// the runner, which goes on to the page's next readers meanwhile.
	for _, rd := range own {
		go r.answerOwn(q, rd)
	}
}

// answerOwn answers rd with its own page of q (ownPage).
func (r *pageReads) answerOwn(q persistence.PostQuery, rd *pageReader) {
	defer func() {
		if v := recover(); v != nil {
			err := fmt.Errorf("app: own page read panicked: %v", v)
			r.log.Error().Err(err).Msg("page read")
			answerReader(rd, PostPage{}, err)
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), pageReadTimeout)
	defer cancel()
	page, err := r.ownPage(ctx, q, rd.viewer)
	answerReader(rd, page, err)
}

// ownPage is the page q as viewer alone sees it, without the posts hidden
// from them, read by a query of its own.
func (r *pageReads) ownPage(ctx context.Context, q persistence.PostQuery, viewer uuid.UUID) (PostPage, error) {
	q.Viewers, q.HiddenFrom = []uuid.UUID{viewer}, viewer
	rows, more, err := persistence.Posts(ctx, r.db, q)
	if err != nil {
		return PostPage{}, err
	}
	return rowsPage(rows, more), nil
}

// rowsPage is the page of rows read for one reader (their flags are the
// rows' Is… values), with the keyset of its last row when more follow.
func rowsPage(rows []*persistence.PostRow, more bool) PostPage {
	page := PostPage{Posts: make([]PostView, len(rows))}
	for i, row := range rows {
		page.Posts[i] = NewPostView(row)
	}
	if more {
		last := rows[len(rows)-1]
		next := encodeKeyset(persistence.Keyset{At: last.SortAt, ID: last.ID})
		page.NextCursor = &next
	}
	return page
}

// A reader's flags of one post, as serve collects them.
const (
	flagLiked byte = 1 << iota
	flagSaved
	flagReposted
)

// withFlags is v with the reader's flags f (withViewer).
func (v PostView) withFlags(f byte) PostView {
	return v.withViewer(f&flagLiked != 0, f&flagSaved != 0, f&flagReposted != 0)
}

// hiddenFrom answers which of rows viewer v must not see (blocks, mutes),
// or nil when none: most readers hide nothing and share the page.
func hiddenFrom(rows []*persistence.PostRow, v int) []bool {
	var hidden []bool
	for i, row := range rows {
		for _, h := range row.HiddenFor {
			if h == v {
				if hidden == nil {
					hidden = make([]bool, len(rows))
				}
				hidden[i] = true
			}
		}
	}
	return hidden
}

// filteredPage is shared without the hidden posts, with the reader's flags:
// the last page (no more posts follow), so holding fewer posts than asked
// for is right.
func filteredPage(shared PostPage, flags []byte, hidden []bool) PostPage {
	page := PostPage{NextCursor: shared.NextCursor, Posts: make([]PostView, 0, len(shared.Posts))}
	for i, post := range shared.Posts {
		if hidden[i] {
			continue
		}
		page.Posts = append(page.Posts, post.withFlags(flags[i]))
	}
	return page
}

func answerReader(rd *pageReader, page PostPage, err error) {
	rd.page, rd.err = page, err
	close(rd.done)
}
