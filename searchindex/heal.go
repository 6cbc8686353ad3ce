package searchindex

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/blevesearch/bleve/v2"
)

// ErrRebuilding is answered while the index is being rebuilt from the
// database at run time (its directory was deleted or replaced under the
// running node); searches work again once it is back.
var ErrRebuilding = errors.New("searchindex: the index is being rebuilt")

// Retrying a rebuild that failed (the database was down, the disk full):
// from healRetryMin, doubling up to healRetryMax.
const (
	healRetryMin = time.Second
	healRetryMax = 10 * time.Second
)

// indexFiles are the identities of the index's directory and its root file
// as opened, to notice when they are deleted or replaced while the node
// runs. Scorch keeps working from open descriptors and memory until it
// next writes, so a deleted index would otherwise fail much later, or
// never be noticed until the next start.
type indexFiles struct {
	dir, root os.FileInfo
}

func rootFile(dir string) string { return filepath.Join(dir, "store", "root.bolt") }

// statFiles records the identities of the index at dir.
func statFiles(dir string) (indexFiles, error) {
	d, err := os.Stat(dir)
	if err != nil {
		return indexFiles{}, fmt.Errorf("searchindex: %w", err)
	}
	r, err := os.Stat(rootFile(dir))
	if err != nil {
		return indexFiles{}, fmt.Errorf("searchindex: %w", err)
	}
	return indexFiles{dir: d, root: r}, nil
}

// damage says why the index on disk is no longer the one open, or "".
func (f indexFiles) damage(dir string) string {
	if f.dir == nil {
		return "" // not recorded (an index built in memory by a test)
	}
	d, err := os.Stat(dir)
	if errors.Is(err, os.ErrNotExist) {
		return "directory deleted"
	}
	if err != nil {
		return "directory unreadable: " + err.Error()
	}
	if !os.SameFile(d, f.dir) {
		return "directory replaced"
	}
	r, err := os.Stat(rootFile(dir))
	if errors.Is(err, os.ErrNotExist) {
		return "root file deleted"
	}
	if err != nil {
		return "root file unreadable: " + err.Error()
	}
	if !os.SameFile(r, f.root) {
		return "root file replaced"
	}
	// Bleve reads its metadata only at open; it must still say what the
	// index is for the next start. (A few bytes: read on every check.)
	b, err := os.ReadFile(filepath.Join(dir, "index_meta.json"))
	if err != nil {
		return "metadata unreadable: " + err.Error()
	}
	var meta struct {
		Storage string `json:"storage"`
	}
	if json.Unmarshal(b, &meta) != nil || meta.Storage == "" {
		return "metadata corrupt"
	}
	return ""
}

// heal checks the index on disk and rebuilds it from the database when it
// was lost, or when an earlier rebuild failed and its retry is due. While
// it rebuilds, searches answer ErrRebuilding and the tailer waits; the
// rest of the node is not affected. It answers whether the index is usable.
func (x *Index) heal(ctx context.Context) bool {
	x.biMu.RLock()
	lost := x.bi == nil
	files := x.files
	x.biMu.RUnlock()
	reason := "an earlier rebuild failed"
	if !lost {
		if reason = files.damage(x.opts.Dir); reason == "" {
			return true
		}
	} else if time.Now().Before(x.healAt) {
		return false
	}
	if err := x.rebuildLive(ctx, reason); err != nil {
		if ctx.Err() != nil {
			return false
		}
		x.healWait = min(max(2*x.healWait, healRetryMin), healRetryMax)
		x.healAt = time.Now().Add(x.healWait)
		x.log.Error().Err(err).Int64("retry_in_ms", x.healWait.Milliseconds()).Msg("search index rebuild failed; searches answer 503 until it succeeds")
		return false
	}
	x.healWait, x.healAt = 0, time.Time{}
	return true
}

// rebuildLive closes the lost index and builds a new one from Postgres in
// its place, then follows the outbox from the new index's position.
func (x *Index) rebuildLive(ctx context.Context, reason string) error {
	x.tailMu.Lock()
	defer x.tailMu.Unlock()
	if x.closed.Load() {
		return ErrClosed
	}
	x.biMu.Lock()
	old := x.bi
	x.bi = nil // searches answer ErrRebuilding from here on
	x.biMu.Unlock()
	if old != nil {
		x.log.Warn().Str("dir", x.opts.Dir).Str("reason", reason).
			Msg("search index lost while running; rebuilding it from the database")
		if err := closeLost(old); err != nil {
			// Its files are gone or foreign: nothing of it is kept anyway.
			x.log.Debug().Err(err).Msg("closing the lost search index")
		}
	}
	st, err := Rebuild(ctx, x.opts.DB, x.opts.Dir, nil)
	if err != nil {
		return err
	}
	bi, applied, why, err := openExisting(x.opts.Dir, x.opts.PruneAge)
	if err != nil {
		return err
	}
	if bi == nil {
		return fmt.Errorf("searchindex: rebuilt index does not open: %s", why)
	}
	files, err := statFiles(x.opts.Dir)
	if err != nil {
		_ = bi.Close()
		return err
	}
	x.tail = tailState{applied: applied, hi: applied, gaps: map[int64]time.Time{}}
	x.applied.Store(applied)
	x.biMu.Lock()
	x.bi, x.files = bi, files
	x.biMu.Unlock()
	if x.cache != nil {
		x.cache.invalidate()
	}
	x.log.Info().Int64("docs", st.Docs()).Int64("duration_ms", st.Elapsed.Milliseconds()).Msg("search index rebuilt")
	return nil
}

// closeLost closes an index whose files were taken away; the storage layer
// may fail or even panic on what is left.
func closeLost(bi bleve.Index) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("searchindex: close lost index: %v", r)
		}
	}()
	return bi.Close()
}

// acquire answers the open index for reading, with the function that
// releases it; ErrRebuilding while there is none.
func (x *Index) acquire() (bleve.Index, func(), error) {
	x.biMu.RLock()
	if x.closed.Load() {
		x.biMu.RUnlock()
		return nil, nil, ErrClosed
	}
	if x.bi == nil {
		x.biMu.RUnlock()
		return nil, nil, ErrRebuilding
	}
	return x.bi, x.biMu.RUnlock, nil
}

// suspect wakes the tailer to check the index's files after a search
// failed for a reason of its own (not the caller's deadline).
func (x *Index) suspect(ctx context.Context) {
	if ctx.Err() == nil {
		poke(x.wake)
	}
}

// usable answers ErrClosed or ErrRebuilding when there is no index to read.
func (x *Index) usable() error {
	_, release, err := x.acquire()
	if err != nil {
		return err
	}
	release()
	return nil
}
