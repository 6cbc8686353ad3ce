package main

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/pprof/profile"
)

// Heap profiles of the soak's server (issue 31): a leak the RSS slope only
// hints at is named by the functions whose live heap grew between the end
// of the warm-up and the end of the run. The server serves net/http/pprof
// on CAMPUS_PPROF_ADDR; the soak sets that for the server it starts.

// heapSampleType is the sample of a Go heap profile that is the live heap:
// bytes allocated and not yet freed as of the last GC.
const heapSampleType = "inuse_space"

// heapProfile is one profile the soak took.
type heapProfile struct {
	Label    string  `json:"label"` // start (end of warm-up), mid, end
	AtS      float64 `json:"atSeconds"`
	Path     string  `json:"path,omitempty"`
	InuseMiB float64 `json:"inuseMiB"`
	Err      string  `json:"error,omitempty"`

	prof *profile.Profile
}

// heapGrowth is one function's change of flat inuse_space between two
// profiles, in bytes.
type heapGrowth struct {
	Func  string `json:"func"`
	Bytes int64  `json:"bytes"`
}

// soakProfiler fetches the server's heap profiles into dir.
type soakProfiler struct {
	addr string // the server's pprof listener, host:port
	dir  string

	mu    sync.Mutex
	taken []heapProfile
}

// heapFetchTimeout bounds one fetch: the forced GC and the profile's
// encoding take a server under load a second or two.
const heapFetchTimeout = time.Minute

// take fetches /debug/pprof/heap?gc=1 (a GC first, so inuse_space is the
// live heap, not the garbage since the last cycle), writes it to
// dir/heap-<label>.pb.gz and records it, or the error (none when ctx
// ended).
func (p *soakProfiler) take(ctx context.Context, label string, atS float64) {
	h := heapProfile{Label: label, AtS: atS}
	path := filepath.Join(p.dir, "heap-"+label+".pb.gz")
	prof, err := fetchHeap(ctx, p.addr, path)
	if err == nil {
		var total int64
		if total, err = inuseTotal(prof); err == nil {
			h.Path, h.InuseMiB, h.prof = path, float64(total)/(1<<20), prof
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			return // interrupted: the run is cut short, not the profile broken
		}
		h.Err = err.Error()
	}
	p.mu.Lock()
	p.taken = append(p.taken, h)
	p.mu.Unlock()
}

// get is the profile taken under label; false when none was (the run was
// cut short) or it failed.
func (p *soakProfiler) get(label string) (heapProfile, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, h := range p.taken {
		if h.Label == label {
			return h, true
		}
	}
	return heapProfile{}, false
}

// all is the profiles taken, in order.
func (p *soakProfiler) all() []heapProfile {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.taken)
}

// fetchHeap GETs the heap profile from the pprof listener at addr, writes
// the body (gzipped protobuf) to path and parses it.
func fetchHeap(ctx context.Context, addr, path string) (*profile.Profile, error) {
	ctx, cancel := context.WithTimeout(ctx, heapFetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+"/debug/pprof/heap?gc=1", nil)
	if err != nil {
		return nil, fmt.Errorf("heap profile: %w", err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("heap profile: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("heap profile: read: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("heap profile: status %d: %.200s", resp.StatusCode, body)
	}
	if err := os.WriteFile(path, body, 0o644); err != nil {
		return nil, fmt.Errorf("heap profile: %w", err)
	}
	prof, err := profile.Parse(bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("heap profile %s: parse: %w", path, err)
	}
	return prof, nil
}

// sampleIndex is the index of the sample type typ in p's values.
func sampleIndex(p *profile.Profile, typ string) (int, error) {
	for i, st := range p.SampleType {
		if st.Type == typ {
			return i, nil
		}
	}
	var have []string
	for _, st := range p.SampleType {
		have = append(have, st.Type)
	}
	return 0, fmt.Errorf("profile has no %s sample (has %s)", typ, strings.Join(have, ", "))
}

// inuseTotal is p's live heap in bytes: the sum of its inuse_space values,
// the total `go tool pprof -sample_index=inuse_space` shows.
func inuseTotal(p *profile.Profile) (int64, error) {
	i, err := sampleIndex(p, heapSampleType)
	if err != nil {
		return 0, err
	}
	var total int64
	for _, s := range p.Sample {
		total += s.Value[i]
	}
	return total, nil
}

// flatByFunc is p's inuse_space by the function that allocated it — the
// innermost frame: the first line of the first location (a location's
// lines run from the inlined callee out to its caller). That is pprof's
// "flat" at function granularity.
func flatByFunc(p *profile.Profile) (map[string]int64, error) {
	i, err := sampleIndex(p, heapSampleType)
	if err != nil {
		return nil, err
	}
	out := map[string]int64{}
	for _, s := range p.Sample {
		if len(s.Location) == 0 {
			out["<no stack>"] += s.Value[i]
			continue
		}
		out[leafName(s.Location[0])] += s.Value[i]
	}
	return out, nil
}

// leafName names a location's innermost function, or its address when the
// profile carries no symbols for it.
func leafName(l *profile.Location) string {
	if len(l.Line) > 0 && l.Line[0].Function != nil && l.Line[0].Function.Name != "" {
		return l.Line[0].Function.Name
	}
	return fmt.Sprintf("0x%x", l.Address)
}

// heapGrowthTop is the n functions whose flat inuse_space grew most from
// base to p, largest first: the growing rows of
// `go tool pprof -top -diff_base base p` (which subtracts base's samples
// from p's). Functions that shrank or held level are left out.
func heapGrowthTop(base, p *profile.Profile, n int) ([]heapGrowth, error) {
	before, err := flatByFunc(base)
	if err != nil {
		return nil, fmt.Errorf("base: %w", err)
	}
	after, err := flatByFunc(p)
	if err != nil {
		return nil, err
	}
	var out []heapGrowth
	for fn, v := range after {
		if d := v - before[fn]; d > 0 {
			out = append(out, heapGrowth{Func: fn, Bytes: d})
		}
	}
	slices.SortFunc(out, func(a, b heapGrowth) int {
		if c := cmp.Compare(b.Bytes, a.Bytes); c != 0 {
			return c
		}
		return strings.Compare(a.Func, b.Func)
	})
	if len(out) > n {
		out = out[:n]
	}
	return out, nil
}

// signedBytes is a change in bytes as "+1.25 MiB", "-512.0 KiB", "+96 B".
func signedBytes(v int64) string {
	a := math.Abs(float64(v))
	sign := "+"
	if v < 0 {
		sign = "-"
	}
	switch {
	case a >= 1<<20:
		return fmt.Sprintf("%s%.2f MiB", sign, a/(1<<20))
	case a >= 1<<10:
		return fmt.Sprintf("%s%.1f KiB", sign, a/(1<<10))
	}
	return fmt.Sprintf("%s%d B", sign, int64(a))
}

// pprofAddrFor is where the started server is to serve pprof for the soak:
// the user's CAMPUS_PPROF_ADDR when set (it passes through to the server;
// own is false), else a free loopback port other than the server's own
// (own: the bench must set it).
func pprofAddrFor(serverAddr string) (addr string, own bool, err error) {
	if v := os.Getenv("CAMPUS_PPROF_ADDR"); v != "" {
		return v, false, nil
	}
	_, sp, _ := net.SplitHostPort(serverAddr)
	// Two ports asked of the kernel one after the other, each released
	// before the server binds it, could be the same one.
	for range 5 {
		port, err := freePort()
		if err != nil {
			return "", false, err
		}
		if fmt.Sprint(port) != sp {
			return net.JoinHostPort("127.0.0.1", fmt.Sprint(port)), true, nil
		}
	}
	return "", false, errors.New("pprof: no free loopback port apart from the server's")
}
