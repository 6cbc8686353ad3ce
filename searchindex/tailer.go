package searchindex

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun/driver/pgdriver"

	"campus/persistence"
)

// Tailing sizes.
const (
	outboxPage = 5000 // outbox entries per round: one index batch, one segment
	// maxGaps bounds the missing ids remembered; beyond it the oldest are
	// given up (only a huge rolled-back bulk write gets there).
	maxGaps       = 10_000
	pruneInterval = time.Hour
	pruneBatch    = 5000
	// roundGap is the least time between two rounds of the tailer.
	roundGap = 50 * time.Millisecond
	// listenTimeout is how long a LISTEN waits before checking its
	// connection again.
	listenTimeout = 30 * time.Second
)

// tailState is how far the outbox has been applied.
//
// Outbox ids come from a sequence, so they are taken in order but committed
// in any order: id 10 can become visible after id 11 was applied, or never
// (rolled back). Both look the same at first: a gap. So the tailer reads
// entries above the highest id it applied (hi) plus the gaps below it, and
// keeps a gap until its entry shows up or GapTimeout passes (a writer's
// transaction does not stay open that long; a rolled-back id never shows
// up). The index stores applied = just below the lowest open gap, so after
// a restart everything not certainly applied is read again. Applying an
// entry twice is harmless: an entry only says "this entity changed", and
// applying it indexes the entity's current row, or deletes the document
// when the row is gone, whatever the op and the order.
type tailState struct {
	applied int64               // every id <= applied is done (stored in the index)
	hi      int64               // highest id applied
	gaps    map[int64]time.Time // ids below hi not seen yet, and since when
	// okAt is when a round last succeeded: the index was in sync then.
	okAt time.Time
}

func (s tailState) position() int64 {
	if len(s.gaps) == 0 {
		return s.hi
	}
	return slices.Min(slices.Collect(maps.Keys(s.gaps))) - 1
}

// advance is the state after entries (in id order) were read at now.
func (s tailState) advance(entries []persistence.OutboxEntry, now time.Time, gapTimeout time.Duration) tailState {
	next := tailState{hi: s.hi, gaps: maps.Clone(s.gaps), okAt: now}
	for _, e := range entries {
		if e.ID <= s.hi {
			delete(next.gaps, e.ID) // a gap filled
			continue
		}
		from := next.hi + 1
		if e.ID-from > maxGaps {
			from = e.ID - maxGaps
		}
		for g := from; g < e.ID; g++ {
			next.gaps[g] = now
		}
		next.hi = e.ID
	}
	for g, since := range next.gaps {
		if now.Sub(since) > gapTimeout {
			delete(next.gaps, g)
		}
	}
	for len(next.gaps) > maxGaps {
		delete(next.gaps, slices.Min(slices.Collect(maps.Keys(next.gaps))))
	}
	next.applied = next.position()
	return next
}

func (s tailState) gapIDs() []int64 {
	ids := slices.Collect(maps.Keys(s.gaps))
	slices.Sort(ids)
	return ids
}

// run follows the outbox until ctx ends: woken by NOTIFY, and polling as a
// fallback in case a notification is lost.
func (x *Index) run(ctx context.Context) {
	wake := x.wake
	var listening sync.WaitGroup
	defer listening.Wait() // Close waits for the listener too
	listening.Go(func() { x.listen(ctx, wake) })
	poll := time.NewTicker(x.opts.PollInterval)
	defer poll.Stop()
	prune := time.NewTicker(pruneInterval)
	defer prune.Stop()
	sinceWarm := warmAfterDocs // warm up once at the start
	for {
		// An index deleted or replaced under the running node is rebuilt
		// from the database here (searches answer 503 meanwhile).
		if !x.heal(ctx) {
			if !sleep(ctx, x.opts.PollInterval) {
				return
			}
			continue
		}
		n, err := x.CatchUp(ctx)
		if err != nil && ctx.Err() == nil {
			x.log.Warn().Err(err).Msg("search outbox apply failed; retrying")
		}
		sinceWarm += n
		if err == nil && n == 0 && sinceWarm >= warmAfterDocs {
			x.warm(ctx) // idle after a lot of changes
			sinceWarm = 0
		}
		// Under a stream of writes, let them gather for a moment: fewer,
		// bigger batches index faster and retire cached results less often.
		select {
		case <-ctx.Done():
			return
		case <-time.After(roundGap):
		}
		select {
		case <-ctx.Done():
			return
		case <-wake:
		case <-poll.C:
		case <-prune.C:
			x.housekeeping(ctx)
		}
	}
}

// CatchUp applies every outbox entry visible now and says how many it
// read. The tailer calls it; tests and tools may too. Rounds are pipelined:
// the next round is read from the database while this one is indexed.
func (x *Index) CatchUp(ctx context.Context) (int, error) {
	x.tailMu.Lock()
	defer x.tailMu.Unlock()
	if x.closed.Load() {
		return 0, ErrClosed
	}
	if x.bi == nil { // written only with tailMu held too
		return 0, ErrRebuilding
	}
	total := 0
	r, err := x.prepare(ctx, x.tail)
	for {
		if err != nil {
			return total, err
		}
		more := r.entries == outboxPage
		var next round
		var nextErr error
		prepared := make(chan struct{})
		if more {
			go func() {
				defer close(prepared)
				next, nextErr = x.prepare(ctx, r.next)
			}()
		} else {
			close(prepared)
		}
		if r.batch != nil {
			err := r.batch.apply(x.bi, r.internal(), false)
			if x.cache != nil {
				x.cache.invalidate() // even on error: some parts may be in
			}
			if err != nil {
				<-prepared
				return total, fmt.Errorf("searchindex: apply outbox: %w", err)
			}
		}
		x.tail = r.next
		x.applied.Store(r.next.applied)
		total += r.entries
		<-prepared
		if !more {
			return total, nil
		}
		r, err = next, nextErr
	}
}

// round is one page of the outbox made ready to apply.
type round struct {
	entries int
	next    tailState   // the state once applied
	batch   *splitBatch // nil: nothing to write
}

// internal is what the index stores about itself once the round is in.
func (r round) internal() map[string][]byte {
	return map[string][]byte{
		string(keyOutbox):   []byte(strconv.FormatInt(r.next.applied, 10)),
		string(keySyncedAt): []byte(strconv.FormatInt(r.next.okAt.Unix(), 10)),
	}
}

// prepare reads the next page of the outbox after from, and the current
// rows of the entities it names, into a batch.
func (x *Index) prepare(ctx context.Context, from tailState) (round, error) {
	entries, err := persistence.OutboxAfter(ctx, x.opts.DB, from.hi, from.gapIDs(), outboxPage)
	if err != nil {
		return round{}, err
	}
	r := round{entries: len(entries), next: from.advance(entries, time.Now(), x.opts.GapTimeout)}
	if len(entries) == 0 && r.next.applied == from.applied {
		return r, nil
	}
	if r.batch, err = x.changes(ctx, entries); err != nil {
		return round{}, err
	}
	return r, nil
}

// changes turns outbox entries into a batch: the current row of every
// entity named, loaded with one query per kind, or a delete when it is gone.
func (x *Index) changes(ctx context.Context, entries []persistence.OutboxEntry) (*splitBatch, error) {
	ids := map[string]map[uuid.UUID]bool{}
	for _, e := range entries {
		if _, ok := fieldsOf(e.Entity); !ok {
			x.log.Warn().Str("entity", e.Entity).Int64("outbox_id", e.ID).Msg("unknown outbox entity skipped")
			continue
		}
		if ids[e.Entity] == nil {
			ids[e.Entity] = map[uuid.UUID]bool{}
		}
		ids[e.Entity][e.EntityID] = true
	}
	b := newSplitBatch(x.bi, len(entries))
	for entity, set := range ids {
		f, _ := fieldsOf(entity)
		list := slices.Collect(maps.Keys(set))
		found := map[uuid.UUID]bool{}
		if entity == persistence.EntityGroup {
			gs, err := persistence.GroupTexts(ctx, x.opts.DB, list)
			if err != nil {
				return nil, err
			}
			for i := range gs {
				found[gs[i].ID] = true
				if err := b.index(x.docs.groupDoc(&gs[i])); err != nil {
					return nil, err
				}
			}
		} else if entity == persistence.EntityUser {
			us, err := persistence.SearchUsersByIDs(ctx, x.opts.DB, list)
			if err != nil {
				return nil, err
			}
			for i := range us {
				found[us[i].ID] = true
				if err := b.index(x.docs.userDoc(&us[i])); err != nil {
					return nil, err
				}
			}
		} else {
			load := persistence.PostTexts
			if entity == persistence.EntityComment {
				load = persistence.CommentTexts
			}
			ts, err := load(ctx, x.opts.DB, list)
			if err != nil {
				return nil, err
			}
			for _, t := range ts {
				found[t.ID] = true
				if err := b.index(x.docs.textDoc(f, t)); err != nil {
					return nil, err
				}
			}
		}
		for _, id := range list {
			if !found[id] {
				b.delete(f.docID(id))
			}
		}
	}
	return b, nil
}

// listen turns NOTIFYs on the outbox channel into wake-ups, reconnecting
// after errors with a growing pause (the database may be restarting).
// Each (re)connection wakes the tailer once for a catch-up read, since
// notifications sent while disconnected are lost.
func (x *Index) listen(ctx context.Context, wake chan<- struct{}) {
	var b persistence.Backoff
	for ctx.Err() == nil {
		err := x.listenOnce(ctx, wake, func() {
			if b.Failures() > 0 {
				x.log.Info().Int("attempts", b.Failures()).Msg("search outbox listener reconnected")
			}
			b.Reset()
		})
		if ctx.Err() != nil {
			return
		}
		if b.Failures() == 0 { // the first failure since it last worked
			x.log.Warn().Err(err).Msg("search outbox listener lost; polling until it is back")
		}
		if !sleep(ctx, b.Next()) {
			return
		}
	}
}

// sleep waits d or until ctx ends, and says whether ctx is still live.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// listenOnce listens until the connection fails; up runs once the LISTEN
// is known to be in effect.
func (x *Index) listenOnce(ctx context.Context, wake chan<- struct{}, up func()) error {
	ln := pgdriver.NewListener(x.opts.DB)
	defer ln.Close()
	// A receive does not end when ctx does; closing the listener ends it.
	defer context.AfterFunc(ctx, func() { _ = ln.Close() })()
	if err := ln.Listen(ctx, persistence.OutboxChannel); err != nil {
		return fmt.Errorf("searchindex: listen: %w", err)
	}
	// Know that the LISTEN is in effect before the catch-up read below:
	// every write committed after that read is then sure to NOTIFY us,
	// and every one before it is read.
	if err := persistence.AwaitListening(ctx, x.opts.DB, ln, persistence.OutboxChannel, func(string) {}); err != nil {
		return fmt.Errorf("searchindex: %w", err)
	}
	up()
	poke(wake)
	for {
		if _, ok, err := persistence.Receive(ctx, ln, listenTimeout); !ok {
			if err != nil {
				return fmt.Errorf("searchindex: %w", err)
			}
			return nil
		}
		poke(wake)
	}
}

func poke(wake chan<- struct{}) {
	select {
	case wake <- struct{}{}:
	default:
	}
}

// housekeeping prunes old outbox rows (any node may; the others skip what
// is gone) and records that this index is in sync even when nothing
// changed, so an idle node is not thought stale at its next start.
func (x *Index) housekeeping(ctx context.Context) {
	if x.opts.PruneAge > 0 {
		for {
			n, err := persistence.PruneOutbox(ctx, x.opts.DB, x.opts.PruneAge, pruneBatch)
			if err != nil {
				if ctx.Err() == nil {
					x.log.Warn().Err(err).Msg("search outbox prune failed")
				}
				break
			}
			if n > 0 {
				x.log.Info().Int64("rows", n).Msg("search outbox pruned")
			}
			if n < pruneBatch {
				break
			}
		}
	}
	x.tailMu.Lock()
	defer x.tailMu.Unlock()
	if x.closed.Load() || x.bi == nil {
		return
	}
	if x.tail.okAt.IsZero() {
		return
	}
	if err := x.bi.SetInternal(keySyncedAt, []byte(strconv.FormatInt(x.tail.okAt.Unix(), 10))); err != nil {
		x.log.Warn().Err(err).Msg("search index sync time not recorded")
	}
}
