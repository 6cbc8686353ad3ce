package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/pprof"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
)

// stackFrame is one location of a test stack: its functions, innermost first
// (more than one: the first ones were inlined into the last).
type stackFrame []string

// heapSample is one stack (leaf first) and its inuse_space.
type heapSample struct {
	stack []stackFrame
	inuse int64
}

// buildHeap builds a heap profile shaped like the Go runtime's (four
// sample types, inuse_space last) and round-trips it through the gzipped
// protobuf encoding, as the soak reads one.
func buildHeap(t *testing.T, samples []heapSample) *profile.Profile {
	t.Helper()
	p := &profile.Profile{
		SampleType: []*profile.ValueType{
			{Type: "alloc_objects", Unit: "count"}, {Type: "alloc_space", Unit: "bytes"},
			{Type: "inuse_objects", Unit: "count"}, {Type: heapSampleType, Unit: "bytes"},
		},
		PeriodType: &profile.ValueType{Type: "space", Unit: "bytes"},
		Period:     512 * 1024,
	}
	funcs := map[string]*profile.Function{}
	fn := func(name string) *profile.Function {
		if f, ok := funcs[name]; ok {
			return f
		}
		f := &profile.Function{ID: uint64(len(funcs) + 1), Name: name, SystemName: name}
		funcs[name] = f
		p.Function = append(p.Function, f)
		return f
	}
	for _, s := range samples {
		var locs []*profile.Location
		for _, fr := range s.stack {
			l := &profile.Location{ID: uint64(len(p.Location) + 1), Address: uint64(0x1000 + len(p.Location))}
			for _, name := range fr {
				l.Line = append(l.Line, profile.Line{Function: fn(name), Line: 1})
			}
			p.Location = append(p.Location, l)
			locs = append(locs, l)
		}
		p.Sample = append(p.Sample, &profile.Sample{Location: locs, Value: []int64{1, s.inuse, 1, s.inuse}})
	}
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		t.Fatalf("write profile: %v", err)
	}
	back, err := profile.Parse(&buf)
	if err != nil {
		t.Fatalf("parse profile: %v", err)
	}
	return back
}

// leaf is a one-stackFrame stack.
func leaf(name string, inuse int64) heapSample {
	return heapSample{stack: []stackFrame{{name}, {"main.main"}}, inuse: inuse}
}

func TestHeapGrowthTop(t *testing.T) {
	tests := []struct {
		name        string
		base, end   []heapSample
		n           int
		want        []heapGrowth
		wantEndSize int64
	}{
		{
			name: "grown and new functions, largest first; shrunk and level ones left out",
			base: []heapSample{leaf("a.A", 100), leaf("b.B", 500), leaf("c.C", 50)},
			end:  []heapSample{leaf("a.A", 300), leaf("b.B", 200), leaf("c.C", 50), leaf("d.D", 1000)},
			n:    5,
			want: []heapGrowth{{"d.D", 1000}, {"a.A", 200}},
			// 300 + 200 + 50 + 1000
			wantEndSize: 1550,
		},
		{
			name: "top n of more, ties by name",
			base: []heapSample{leaf("f1", 10)},
			end: []heapSample{leaf("f1", 70), leaf("f2", 50), leaf("f3", 40), leaf("f4", 40),
				leaf("f5", 30), leaf("f6", 20), leaf("f7", 10)},
			n:           5,
			want:        []heapGrowth{{"f1", 60}, {"f2", 50}, {"f3", 40}, {"f4", 40}, {"f5", 30}},
			wantEndSize: 260,
		},
		{
			name: "a function's samples from several stacks add up",
			base: []heapSample{leaf("x.Grow", 100)},
			end: []heapSample{
				{stack: []stackFrame{{"x.Grow"}, {"a.Caller"}}, inuse: 150},
				{stack: []stackFrame{{"x.Grow"}, {"b.Caller"}}, inuse: 250},
			},
			n:           5,
			want:        []heapGrowth{{"x.Grow", 300}},
			wantEndSize: 400,
		},
		{
			name: "flat, not cumulative: a caller's growth goes to the allocating function",
			base: []heapSample{{stack: []stackFrame{{"bytes.growSlice"}, {"p.Caller"}}, inuse: 100}},
			end:  []heapSample{{stack: []stackFrame{{"bytes.growSlice"}, {"p.Caller"}}, inuse: 400}},
			n:    5,
			want: []heapGrowth{{"bytes.growSlice", 300}},
			// the caller's cumulative figure also grew 300; -top's flat does not list it
			wantEndSize: 400,
		},
		{
			name: "an inlined allocation counts for the inlined function",
			base: nil,
			end: []heapSample{
				{stack: []stackFrame{{"q.inlined", "q.Outer"}, {"main.main"}}, inuse: 64},
			},
			n:           5,
			want:        []heapGrowth{{"q.inlined", 64}},
			wantEndSize: 64,
		},
		{
			name:        "nothing grew",
			base:        []heapSample{leaf("a.A", 100), leaf("b.B", 100)},
			end:         []heapSample{leaf("a.A", 50), leaf("b.B", 100)},
			n:           5,
			want:        nil,
			wantEndSize: 150,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base, end := buildHeap(t, tt.base), buildHeap(t, tt.end)
			got, err := heapGrowthTop(base, end, tt.n)
			if err != nil {
				t.Fatalf("heapGrowthTop: %v", err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("heapGrowthTop = %v, want %v", got, tt.want)
			}
			total, err := inuseTotal(end)
			if err != nil {
				t.Fatalf("inuseTotal: %v", err)
			}
			if total != tt.wantEndSize {
				t.Errorf("inuseTotal = %d, want %d", total, tt.wantEndSize)
			}
		})
	}
}

func TestHeapProfileWithoutInuseSpace(t *testing.T) {
	cpu := &profile.Profile{SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}}}
	heap := buildHeap(t, []heapSample{leaf("a.A", 1)})
	tests := []struct {
		name      string
		base, end *profile.Profile
	}{
		{"end is not a heap profile", heap, cpu},
		{"base is not a heap profile", cpu, heap},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := heapGrowthTop(tt.base, tt.end, 5); err == nil || !strings.Contains(err.Error(), "no inuse_space") {
				t.Errorf("heapGrowthTop error = %v, want no inuse_space", err)
			}
		})
	}
}

// TestFetchHeap fetches this test process's own heap profile from the
// net/http/pprof handler the server mounts, as the soak does.
func TestFetchHeap(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	addr := strings.TrimPrefix(srv.URL, "http://")
	dir := t.TempDir()

	tests := []struct {
		name    string
		addr    string
		wantErr bool
	}{
		{"served", addr, false},
		{"nothing listening", "127.0.0.1:1", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &soakProfiler{addr: tt.addr, dir: dir}
			p.take(context.Background(), "start", 12)
			h, ok := p.get("start")
			if !ok {
				t.Fatal("no profile recorded under start")
			}
			if tt.wantErr {
				if h.Err == "" || h.prof != nil {
					t.Errorf("profile = %+v, want an error and no profile", h)
				}
				return
			}
			if h.Err != "" {
				t.Fatalf("take: %s", h.Err)
			}
			if h.Path != filepath.Join(dir, "heap-start.pb.gz") || h.AtS != 12 {
				t.Errorf("path %q at %v s, want %s at 12 s", h.Path, h.AtS, filepath.Join(dir, "heap-start.pb.gz"))
			}
			if h.InuseMiB <= 0 {
				t.Errorf("inuse %.3f MiB, want some", h.InuseMiB)
			}
			f, err := os.Open(h.Path)
			if err != nil {
				t.Fatalf("written profile: %v", err)
			}
			defer f.Close()
			if _, err := profile.Parse(f); err != nil {
				t.Errorf("written profile does not parse: %v", err)
			}
		})
	}
}

func TestPprofCommand(t *testing.T) {
	tests := []struct {
		name string
		heap []heapProfile
		want string
	}{
		{"start and end", []heapProfile{{Label: "start", Path: "d/heap-start.pb.gz"}, {Label: "mid", Path: "d/heap-mid.pb.gz"}, {Label: "end", Path: "d/heap-end.pb.gz"}},
			"go tool pprof -top -diff_base d/heap-start.pb.gz d/heap-end.pb.gz"},
		{"end failed", []heapProfile{{Label: "start", Path: "d/heap-start.pb.gz"}, {Label: "end", Err: "timeout"}}, ""},
		{"none", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &soakReport{Heap: tt.heap}
			if got := r.pprofCommand(); got != tt.want {
				t.Errorf("pprofCommand = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestSignedBytes(t *testing.T) {
	tests := []struct {
		in   int64
		want string
	}{
		{0, "+0 B"},
		{96, "+96 B"},
		{-512 << 10, "-512.0 KiB"},
		{5 << 19, "+2.50 MiB"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			if got := signedBytes(tt.in); got != tt.want {
				t.Errorf("signedBytes(%d) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
