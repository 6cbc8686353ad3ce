package backup

import (
	"fmt"
	"io"
	"time"

	"github.com/schollz/progressbar/v3"
)

// Progress shows what a backup or restore is doing: redrawn bars on a
// terminal, and one line per step otherwise (a log file or a cron mail
// should not fill up with carriage returns). A nil *Progress shows nothing.
type Progress struct {
	w   io.Writer
	tty bool
}

// NewProgress draws on w; tty says whether w is a terminal.
func NewProgress(w io.Writer, tty bool) *Progress {
	return &Progress{w: w, tty: tty}
}

// meter is one step being measured: bytes of a known total, or (total < 0)
// bytes of an unknown total, shown as a spinner.
type meter struct {
	p      *Progress
	bar    *progressbar.ProgressBar
	desc   string
	start  time.Time
	total  int64
	n      int64
	lastAt time.Time // of the last plain line
}

// plainEvery is how often a long step prints a plain progress line.
const plainEvery = 10 * time.Second

// line prints one line of its own.
func (p *Progress) line(format string, args ...any) {
	if p == nil {
		return
	}
	fmt.Fprintf(p.w, format+"\n", args...)
}

// step starts measuring a step of total bytes (-1 when unknown).
func (p *Progress) step(desc string, total int64) *meter {
	m := &meter{p: p, desc: desc, start: time.Now(), total: total, lastAt: time.Now()}
	if p == nil {
		return m
	}
	if !p.tty {
		if total >= 0 {
			fmt.Fprintf(p.w, "%s: %s…\n", desc, humanBytes(total))
		} else {
			fmt.Fprintf(p.w, "%s…\n", desc)
		}
		return m
	}
	m.bar = progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(p.w),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionShowBytes(true),
		progressbar.OptionShowTotalBytes(true),
		progressbar.OptionShowCount(),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionSpinnerType(14),
		progressbar.OptionSetPredictTime(total >= 0),
		progressbar.OptionSetRenderBlankState(true),
	)
	return m
}

// add counts n more bytes done.
func (m *meter) add(n int64) {
	m.n += n
	switch {
	case m.bar != nil:
		_ = m.bar.Add64(n) // drawing on the terminal failed: nothing to do about it
	case m.p != nil && time.Since(m.lastAt) >= plainEvery:
		m.lastAt = time.Now()
		if m.total > 0 {
			fmt.Fprintf(m.p.w, "%s: %s of %s (%.0f%%)\n", m.desc, humanBytes(m.n), humanBytes(m.total), 100*float64(m.n)/float64(m.total))
		} else {
			fmt.Fprintf(m.p.w, "%s: %s\n", m.desc, humanBytes(m.n))
		}
	}
}

// set says how many bytes are done so far.
func (m *meter) set(n int64) {
	m.add(n - m.n)
}

// done ends the step with a summary line.
func (m *meter) done(what string) {
	if m.p == nil {
		return
	}
	if m.bar != nil {
		_ = m.bar.Finish()
		_ = m.bar.Clear()
		fmt.Fprint(m.p.w, "\r")
	}
	fmt.Fprintf(m.p.w, "%s: %s in %s\n", m.desc, what, time.Since(m.start).Round(time.Millisecond))
}

// humanBytes formats n bytes for people: 1.5 MB.
func humanBytes(n int64) string {
	const unit = 1000
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %cB", float64(n)/float64(div), "kMGTPE"[exp])
}
