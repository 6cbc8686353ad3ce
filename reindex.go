package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"campus/config"
	"campus/searchindex"
)

// reindex rebuilds the search index in the data dir from the database,
// drawing a progress bar on w. The node using that data dir must be stopped
// (searchindex.ErrInUse otherwise); other nodes keep their own indexes.
func reindex(ctx context.Context, cfg config.Config, log zerolog.Logger, w io.Writer) error {
	db, closeDB, err := openDatabase(ctx, cfg, log)
	defer closeDB()
	if err != nil {
		return err
	}
	bar := &progressBar{w: w}
	st, err := searchindex.Rebuild(ctx, db, cfg.SearchDir(), bar.update)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "indexed %d users, %d posts, %d comments in %s (%.0f docs/s) into %s\n",
		st.Users, st.Posts, st.Comments, st.Elapsed.Round(time.Millisecond), st.DocsPerSecond(), cfg.SearchDir())
	return nil
}

// progressBar draws one self-overwriting line, at most ten times a second.
type progressBar struct {
	w    io.Writer
	last time.Time
}

func (b *progressBar) update(p searchindex.Progress) {
	if !p.Finished && time.Since(b.last) < 100*time.Millisecond {
		return
	}
	b.last = time.Now()
	const width = 30
	frac := 1.0
	if p.Total > 0 {
		frac = min(1, float64(p.Done)/float64(p.Total))
	}
	filled := int(frac * width)
	rate := 0.0
	if p.Elapsed > 0 {
		rate = float64(p.Done) / p.Elapsed.Seconds()
	}
	fmt.Fprintf(b.w, "\rindexing [%s%s] %3.0f%%  %d/%d docs  %.0f docs/s ",
		strings.Repeat("#", filled), strings.Repeat(".", width-filled), frac*100, p.Done, p.Total, rate)
	if p.Finished {
		fmt.Fprintln(b.w)
	}
}
