// Package searchindex is Campus's search: an embedded Bleve index in the
// data dir over users, posts and comments, fed from Postgres through the
// transactional outbox (search_outbox), and the exact-first queries of docs/product.md
// §9. Every node keeps a full index of its own and tails the outbox itself;
// the index remembers, inside itself, how far it has applied the outbox, so
// a node that was down catches up and a lost or corrupt index is rebuilt
// from Postgres.
package searchindex

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/rs/zerolog"
	"github.com/uptrace/bun"
	bolt "go.etcd.io/bbolt"
)

// Keys of what the index stores about itself (bleve "internal" values,
// written in the same batch as the documents they describe).
var (
	keySchema   = []byte("campus_schema")
	keyOutbox   = []byte("campus_outbox_applied") // every outbox id <= this is applied
	keySyncedAt = []byte("campus_synced_at")      // unix seconds of the last apply
)

// Defaults of Options.
const (
	defaultPollInterval = time.Second
	defaultGapTimeout   = 2 * time.Minute
	defaultPruneAge     = 7 * 24 * time.Hour
	// closeWait bounds how long Close waits for the disk.
	closeWait = 30 * time.Second
)

// ErrInUse is returned when another process has the index open.
var ErrInUse = errors.New("searchindex: the index is in use by another process (stop the node first)")

// ErrClosed is returned by calls on a closed index.
var ErrClosed = errors.New("searchindex: index closed")

// Options configure Open.
type Options struct {
	Dir string // the index directory, $CAMPUS_DATA_DIR/search
	DB  *bun.DB
	Log zerolog.Logger
	// Progress, if set, hears how a rebuild at open is going.
	Progress func(Progress)
	// PollInterval is how often the outbox is read when no NOTIFY arrives
	// (default 1 s).
	PollInterval time.Duration
	// GapTimeout is how long a missing outbox id is waited for before it is
	// taken for a rolled-back transaction (default 2 min).
	GapTimeout time.Duration
	// PruneAge is how old outbox rows get before a node deletes them
	// (default 7 days; negative: never). An index that has not synced for
	// longer than PruneAge minus a day is rebuilt at open, since the rows it
	// would need may be gone.
	PruneAge time.Duration
}

func (o *Options) defaults() {
	if o.PollInterval <= 0 {
		o.PollInterval = defaultPollInterval
	}
	if o.GapTimeout <= 0 {
		o.GapTimeout = defaultGapTimeout
	}
	if o.PruneAge == 0 {
		o.PruneAge = defaultPruneAge
	}
}

// Index is an open search index with its outbox tailer.
type Index struct {
	opts Options
	log  zerolog.Logger
	// biMu guards bi and files: readers hold it while they use bi; a
	// rebuild at run time (heal) swaps them, and bi is nil meanwhile.
	biMu  sync.RWMutex
	bi    bleve.Index
	files indexFiles
	docs  *docBuilder
	query *queryBuilder
	cache *resultCache

	closed atomic.Bool
	stop   context.CancelFunc
	wg     sync.WaitGroup

	tailMu  sync.Mutex // one CatchUp at a time; guards tail
	tail    tailState
	applied atomic.Int64 // tail.applied, readable during a CatchUp

	// wake asks the tailer for a round (a NOTIFY arrived, or a search
	// failed and the files should be checked).
	wake chan struct{}
	// When a failed rebuild at run time is tried again (the tailer's
	// goroutine only).
	healAt   time.Time
	healWait time.Duration
}

// Open opens the index in opts.Dir, rebuilding it from Postgres first when
// it is missing, unreadable, of an older schema, or too stale to catch up.
// Call Start to follow the outbox and Close when done.
func Open(ctx context.Context, opts Options) (*Index, error) {
	opts.defaults()
	log := opts.Log.With().Str("component", "searchindex").Logger()
	im, err := newMapping()
	if err != nil {
		return nil, err
	}
	docs, err := newDocBuilder(im)
	if err != nil {
		return nil, err
	}
	bi, applied, reason, err := openExisting(opts.Dir, opts.PruneAge)
	if err != nil {
		return nil, err
	}
	if bi == nil {
		ev := log.Warn()
		if reason == "missing" { // a new node: nothing wrong
			ev = log.Info()
		}
		ev.Str("dir", opts.Dir).Str("reason", reason).Msg("building the search index from the database")
		st, err := Rebuild(ctx, opts.DB, opts.Dir, opts.Progress)
		if err != nil {
			return nil, err
		}
		log.Info().Int64("docs", st.Docs()).Int64("duration_ms", st.Elapsed.Milliseconds()).
			Int("docs_per_second", int(st.DocsPerSecond())).Msg("search index rebuilt")
		bi, applied, reason, err = openExisting(opts.Dir, opts.PruneAge)
		if err != nil {
			return nil, err
		}
		if bi == nil {
			return nil, fmt.Errorf("searchindex: rebuilt index does not open: %s", reason)
		}
	}
	files, err := statFiles(opts.Dir)
	if err != nil {
		_ = bi.Close()
		return nil, err
	}
	x := &Index{
		opts:  opts,
		log:   log,
		bi:    bi,
		files: files,
		wake:  make(chan struct{}, 1),
		docs:  docs,
		query: newQueryBuilder(docs.text),
		cache: newResultCache(),
		stop:  func() {},
		tail:  tailState{applied: applied, hi: applied, gaps: map[int64]time.Time{}},
	}
	x.applied.Store(applied)
	return x, nil
}

// openExisting opens the index at dir. A nil index with a reason means it
// must be rebuilt; an error means something else is wrong (another process
// holds it).
func openExisting(dir string, pruneAge time.Duration) (bleve.Index, int64, string, error) {
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		return nil, 0, "missing", nil
	}
	bi, err := openBleve(dir, 5*time.Second)
	if errors.Is(err, bolt.ErrTimeout) {
		return nil, 0, "", ErrInUse
	}
	if err != nil {
		return nil, 0, "unreadable: " + err.Error(), nil
	}
	applied, reason := checkInternal(bi, pruneAge)
	if reason != "" {
		if err := bi.Close(); err != nil {
			return nil, 0, "", fmt.Errorf("searchindex: close stale index: %w", err)
		}
		return nil, 0, reason, nil
	}
	return bi, applied, "", nil
}

// openBleve opens the index at dir, waiting up to lockWait for another
// holder to let go. Some damaged files make the storage layer panic rather
// than fail; that is an error here too.
func openBleve(dir string, lockWait time.Duration) (bi bleve.Index, err error) {
	defer func() {
		if r := recover(); r != nil {
			bi, err = nil, fmt.Errorf("searchindex: open %s: %v", dir, r)
		}
	}()
	return bleve.OpenUsing(dir, runtimeConfig(lockWait))
}

// checkInternal reads what the index says about itself; a non-empty reason
// says why it cannot be used.
func checkInternal(bi bleve.Index, pruneAge time.Duration) (int64, string) {
	v, err := bi.GetInternal(keySchema)
	if err != nil || string(v) != schemaVersion {
		return 0, fmt.Sprintf("schema %q, want %q", v, schemaVersion)
	}
	v, err = bi.GetInternal(keyOutbox)
	if err != nil || v == nil {
		return 0, "incomplete (no outbox position)"
	}
	applied, err := strconv.ParseInt(string(v), 10, 64)
	if err != nil {
		return 0, "corrupt outbox position"
	}
	if pruneAge > 0 {
		v, _ = bi.GetInternal(keySyncedAt)
		at, err := strconv.ParseInt(string(v), 10, 64)
		if err != nil {
			return 0, "corrupt sync time"
		}
		if time.Since(time.Unix(at, 0)) > pruneAge-24*time.Hour {
			return 0, "last synced " + time.Unix(at, 0).UTC().Format(time.RFC3339) + ", older than the outbox keeps"
		}
	}
	return applied, ""
}

// runtimeConfig is scorch's configuration. Batches return once applied in
// memory, without waiting for the disk: the outbox position is in the same
// batch, so whatever a crash loses is simply read again from the outbox.
func runtimeConfig(lockWait time.Duration) map[string]any {
	return map[string]any{
		"unsafe_batch": true,
		"bolt_timeout": lockWait.String(),
	}
}

// Start follows the outbox in the background until Close.
func (x *Index) Start() {
	ctx, cancel := context.WithCancel(context.Background())
	x.stop = cancel
	x.wg.Add(1)
	go func() {
		defer x.wg.Done()
		x.run(ctx)
	}()
}

// Ready reports whether searches can be answered.
func (x *Index) Ready() error {
	if x.closed.Load() {
		return ErrClosed
	}
	return nil
}

// Applied is the outbox id up to which every change is in the index.
func (x *Index) Applied() int64 { return x.applied.Load() }

// DocCount is the number of documents in the index.
func (x *Index) DocCount() (uint64, error) {
	bi, release, err := x.acquire()
	if err != nil {
		return 0, err
	}
	defer release()
	n, err := bi.DocCount()
	if err != nil {
		return 0, fmt.Errorf("searchindex: doc count: %w", err)
	}
	return n, nil
}

// Close stops the tailer, waits for what was applied to reach the disk
// (so the next start need not read it again) and closes the index.
func (x *Index) Close() error {
	if x.closed.Swap(true) {
		return nil
	}
	x.stop()
	x.wg.Wait()
	x.biMu.Lock() // wait for searches still running
	defer x.biMu.Unlock()
	if x.bi == nil {
		return nil // lost, and its rebuild did not finish: nothing to keep
	}
	err := x.persist()
	if cerr := x.bi.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("searchindex: close: %w", cerr)
	}
	return err
}

// persist (with biMu held) writes the outbox position once more and waits until that batch,
// and so everything before it, is on disk. Batches do not wait for the
// disk (see runtimeConfig), and scorch's Close does not persist.
func (x *Index) persist() error {
	x.tailMu.Lock()
	defer x.tailMu.Unlock()
	b := x.bi.NewBatch()
	b.SetInternal(keyOutbox, []byte(strconv.FormatInt(x.tail.applied, 10)))
	if !x.tail.okAt.IsZero() {
		b.SetInternal(keySyncedAt, []byte(strconv.FormatInt(x.tail.okAt.Unix(), 10)))
	}
	return applyPersisted(x.bi, b, closeWait)
}

// applyPersisted applies b and waits up to wait for it to reach the disk.
func applyPersisted(bi bleve.Index, b *bleve.Batch, wait time.Duration) error {
	persisted := make(chan error, 1)
	b.SetPersistedCallback(func(err error) { persisted <- err })
	if err := bi.Batch(b); err != nil {
		return fmt.Errorf("searchindex: batch: %w", err)
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case err := <-persisted:
		if err != nil {
			return fmt.Errorf("searchindex: persist: %w", err)
		}
		return nil
	case <-t.C:
		return errors.New("searchindex: the index did not reach the disk in time")
	}
}

// randomSuffix names temporary sibling directories.
func randomSuffix() string { return rand.Text()[:8] }

// swapIn replaces dir with the freshly built index in built.
func swapIn(built, dir string) error {
	old := ""
	if _, err := os.Stat(dir); err == nil {
		old = dir + ".old-" + randomSuffix()
		if err := os.Rename(dir, old); err != nil {
			return fmt.Errorf("searchindex: move old index aside: %w", err)
		}
	}
	if err := os.Rename(built, dir); err != nil {
		return fmt.Errorf("searchindex: move new index in place: %w", err)
	}
	if old != "" {
		if err := os.RemoveAll(old); err != nil {
			return fmt.Errorf("searchindex: remove old index: %w", err)
		}
	}
	return syncDir(filepath.Dir(dir))
}

func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("searchindex: sync %s: %w", dir, err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		return fmt.Errorf("searchindex: sync %s: %w", dir, err)
	}
	return nil
}

// parallelMinDocs: batches with at least this many documents are split so
// that their segments are built on every CPU at once.
const parallelMinDocs = 1000

// splitBatch spreads documents over one batch per CPU; scorch builds each
// batch's segment in the goroutine that applies it, so applying the parts
// side by side uses every core. Internal values go in only after all parts
// are in, so the stored outbox position never runs ahead of the documents.
type splitBatch struct {
	parts []*bleve.Batch
	n     int
}

func newSplitBatch(bi bleve.Index, docs int) *splitBatch {
	k := 1
	if docs >= parallelMinDocs {
		k = max(1, runtime.GOMAXPROCS(0))
	}
	s := &splitBatch{parts: make([]*bleve.Batch, k)}
	for i := range s.parts {
		s.parts[i] = bi.NewBatch()
	}
	return s
}

func (s *splitBatch) index(d *document.Document) error {
	b := s.parts[s.n%len(s.parts)]
	s.n++
	if err := b.IndexAdvanced(d); err != nil {
		return fmt.Errorf("searchindex: add %s: %w", d.ID(), err)
	}
	return nil
}

func (s *splitBatch) delete(docID string) { s.parts[0].Delete(docID) }

func (s *splitBatch) size() int {
	n := 0
	for _, b := range s.parts {
		n += b.Size()
	}
	return n
}

// apply writes the parts, then the internal values: in the same batch when
// there is one part, in a batch of their own after the parts otherwise.
// With persisted set, it waits (up to persistWait) until they are on disk.
func (s *splitBatch) apply(bi bleve.Index, internal map[string][]byte, persisted bool) error {
	last := bi.NewBatch()
	if len(s.parts) == 1 {
		last = s.parts[0]
	} else {
		errs := make([]error, len(s.parts))
		var wg sync.WaitGroup
		for i, b := range s.parts {
			if b.Size() == 0 {
				continue
			}
			wg.Go(func() { errs[i] = bi.Batch(b) })
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			return fmt.Errorf("searchindex: batch: %w", err)
		}
	}
	for k, v := range internal {
		last.SetInternal([]byte(k), v)
	}
	if persisted {
		return applyPersisted(bi, last, persistWait)
	}
	if err := bi.Batch(last); err != nil {
		return fmt.Errorf("searchindex: batch: %w", err)
	}
	return nil
}

// reset empties the parts for reuse.
func (s *splitBatch) reset() {
	for _, b := range s.parts {
		b.Reset()
	}
	s.n = 0
}
