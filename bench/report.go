package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

// Results of a row.
const (
	resPass  = "PASS"
	resMiss  = "MISS"
	resFail  = "FAIL"  // a consistency check failed: the run exits non-zero
	resError = "ERROR" // the scenario could not run for another reason than a missing endpoint
	resNA    = "unavailable"
)

// row is one figure of the table.
type row struct {
	Scenario string  `json:"scenario"`
	Figure   string  `json:"figure"`
	Value    float64 `json:"value"`
	Unit     string  `json:"unit,omitempty"`
	// Text replaces the number when there is none ("unavailable: no /api/ws").
	Text     string  `json:"text,omitempty"`
	Baseline string  `json:"baseline,omitempty"`
	Ratio    float64 `json:"ratio,omitempty"`
	Target   string  `json:"target,omitempty"`
	Result   string  `json:"result,omitempty"`
	Note     string  `json:"note,omitempty"`
}

type report struct {
	o       opts
	rows    []*row
	cpu     []cpuRow
	soak    *soakReport // the soak's samples, when it ran
	fatal   string
	elapsed time.Duration
}

func newReport(o opts) *report { return &report{o: o} }

// add appends a figure and returns it for a target or ratio to be set.
func (r *report) add(scenario, figure string, value float64, unit string) *row {
	x := &row{Scenario: scenario, Figure: figure, Value: value, Unit: unit}
	r.rows = append(r.rows, x)
	return x
}

// text appends a row whose value is words.
func (r *report) text(scenario, figure, text string) *row {
	x := &row{Scenario: scenario, Figure: figure, Text: text}
	r.rows = append(r.rows, x)
	return x
}

// skip records a scenario that cannot run: unavailable when an endpoint is
// missing, an error otherwise.
func (r *report) skip(scenario string, err error) {
	if isUnavailable(err) {
		r.text(scenario, "—", err.Error()).Result = resNA
		return
	}
	r.text(scenario, "error", err.Error()).Result = resError
}

// vs sets the baseline and the ratio value/base.
func (x *row) vs(baseline string, base float64) *row {
	x.Baseline = baseline
	if base > 0 && x.Text == "" {
		x.Ratio = x.Value / base
	}
	return x
}

// against sets a target of at least min × a same-run baseline; a baseline
// that was not measured (--only) leaves nothing to judge.
func (x *row) against(name string, base, min float64, target string) *row {
	if base <= 0 {
		x.Baseline, x.Target = name+" not measured", target
		return x
	}
	return x.vs(fmt.Sprintf("%s %s/s", name, group(int64(base))), base).target(target, x.Value >= min*base)
}

// target sets the target text and PASS or MISS.
func (x *row) target(text string, ok bool) *row {
	x.Target = text
	if ok {
		x.Result = resPass
	} else {
		x.Result = resMiss
	}
	return x
}

// check sets a target that must hold: FAIL makes the run exit non-zero.
func (x *row) check(text string, ok bool) *row {
	x.Target = text
	if ok {
		x.Result = resPass
	} else {
		x.Result = resFail
	}
	return x
}

func (x *row) note(format string, args ...any) *row {
	n := fmt.Sprintf(format, args...)
	if x.Note != "" {
		x.Note += "; " + n
	} else {
		x.Note = n
	}
	return x
}

func (r *report) failed() bool {
	if r.fatal != "" {
		return true
	}
	for _, x := range r.rows {
		if x.Result == resFail || x.Result == resError {
			return true
		}
	}
	return false
}

func (r *report) missed() bool {
	for _, x := range r.rows {
		if x.Result == resMiss {
			return true
		}
	}
	return false
}

// format renders a value with its unit.
func format(v float64, unit string) string {
	switch unit {
	case "ms":
		if v < 10 {
			return fmt.Sprintf("%.2f ms", v)
		}
		return fmt.Sprintf("%.1f ms", v)
	case "s":
		return fmt.Sprintf("%.2f s", v)
	case "KiB":
		return fmt.Sprintf("%.1f KiB", v)
	case "MiB":
		return fmt.Sprintf("%.1f MiB", v)
	case "%":
		return fmt.Sprintf("%.1f%%", v)
	case "x":
		return fmt.Sprintf("%.2fx", v)
	case "µs":
		if v < 100 {
			return fmt.Sprintf("%.1f µs", v)
		}
	case "":
		return group(int64(math.Round(v)))
	}
	return group(int64(math.Round(v))) + " " + unit
}

// group writes n with thousands separators.
func group(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

func ratioText(r float64) string {
	switch {
	case r == 0:
		return ""
	case r >= 2:
		return fmt.Sprintf("%.1fx", r)
	default:
		return fmt.Sprintf("%.0f%%", r*100)
	}
}

// sorted is the rows with the baselines first, then the scenarios by
// number, each in the order its figures were added.
func (r *report) sorted() []*row {
	rank := func(x *row) int {
		if x.Scenario == "baseline" {
			return 0
		}
		n, digits := 0, 0
		for _, c := range x.Scenario {
			if c < '0' || c > '9' {
				break
			}
			n, digits = n*10+int(c-'0'), digits+1
		}
		if digits > 0 {
			return n + 1
		}
		return 1000
	}
	out := slices.Clone(r.rows)
	slices.SortStableFunc(out, func(a, b *row) int { return rank(a) - rank(b) })
	return out
}

func (r *report) printTable(w io.Writer) {
	mode := "full"
	if r.o.quick {
		mode = "quick (scaled down: targets are indicative, consistency checks are not)"
	}
	if r.o.soak > 0 {
		mode = fmt.Sprintf("soak of %s at half capacity", r.o.soak)
	}
	fmt.Fprintf(w, "\nCampus benchmark — %s; %d users, %d posts; every baseline measured in this run\n\n", mode, r.o.users, r.o.posts)
	if r.fatal != "" {
		fmt.Fprintf(w, "FATAL: %s\n\n", r.fatal)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SCENARIO\tFIGURE\tVALUE\tBASELINE (same run)\tRATIO\tTARGET\tRESULT\tNOTE")
	prev := ""
	for _, x := range r.sorted() {
		sc := x.Scenario
		if sc == prev {
			sc = ""
		}
		prev = x.Scenario
		v := x.Text
		if v == "" {
			v = format(x.Value, x.Unit)
		}
		res := x.Result
		if r.o.quick && (res == resPass || res == resMiss) {
			res = strings.ToLower(res)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", sc, x.Figure, v, x.Baseline, ratioText(x.Ratio), x.Target, res, x.Note)
	}
	tw.Flush()
	if r.soak != nil {
		r.soak.print(w)
	}
	if len(r.cpu) > 0 {
		fmt.Fprintln(w, "\nCPU used per phase, in cores (2-core machine: bench, server and Postgres share them);")
		fmt.Fprintln(w, "transactions Postgres committed (xact_commit, reported up to ~1 s late) and assigned ids (the ones that wrote),")
		fmt.Fprintln(w, "and websocket frames the bench's viewers received, per second")
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "PHASE\tWALL\tBENCH\tSERVER\tPOSTGRES\tTX/S\tWRITE TX/S\tFRAMES/S\t")
		for _, c := range r.cpu {
			warn := ""
			if c.Bench >= 1 {
				warn = "the load generator took a whole core: figures may be bench-bound"
			}
			fmt.Fprintf(tw, "%s\t%.1fs\t%.2f\t%s\t%s\t%s\t%s\t%s\t%s\n", c.Phase, c.WallS, c.Bench, cores(c.Server), cores(c.Postgres),
				perSec(c.TxPerS), perSec(c.XidPerS), perSec(c.FramesPerS), warn)
		}
		tw.Flush()
	}
	pass, miss, fail := 0, 0, 0
	for _, x := range r.rows {
		switch x.Result {
		case resPass:
			pass++
		case resMiss:
			miss++
		case resFail, resError:
			fail++
		}
	}
	fmt.Fprintf(w, "\n%d pass, %d miss, %d fail/error; run took %.1fs\n", pass, miss, fail, r.elapsed.Seconds())
}

func cores(v float64) string {
	if v < 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.2f", v)
}

func (r *report) printJSON(w io.Writer) error {
	doc := struct {
		Quick    bool        `json:"quick"`
		Users    int         `json:"users"`
		Posts    int         `json:"posts"`
		Fatal    string      `json:"fatal,omitempty"`
		ElapsedS float64     `json:"elapsedSeconds"`
		Rows     []*row      `json:"rows"`
		CPU      []cpuRow    `json:"cpu"`
		Soak     *soakReport `json:"soak,omitempty"`
		Failed   bool        `json:"failed"`
	}{r.o.quick, r.o.users, r.o.posts, r.fatal, r.elapsed.Seconds(), r.sorted(), r.cpu, r.soak, r.failed()}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// dist is a latency distribution.
type dist struct {
	n             int
	p50, p99, max time.Duration
}

// distOf sorts ns (nanoseconds) in place and summarizes it.
func distOf(ns []int64) dist {
	if len(ns) == 0 {
		return dist{}
	}
	slices.Sort(ns)
	at := func(p float64) time.Duration {
		i := int(math.Ceil(p*float64(len(ns)))) - 1
		i = max(0, min(i, len(ns)-1))
		return time.Duration(ns[i])
	}
	return dist{n: len(ns), p50: at(0.50), p99: at(0.99), max: time.Duration(ns[len(ns)-1])}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// perSec is a rate of the CPU table, "n/a" when unknown.
func perSec(v float64) string {
	if v < 0 {
		return "n/a"
	}
	return group(int64(v + 0.5))
}
