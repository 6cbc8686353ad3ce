package main

import (
	"math"
	"testing"
)

// line is n samples every half minute from minute from, around mean,
// moving pctPer10 percent of the mean per 10 minutes, plus wobble(i).
func line(from float64, n int, mean, pctPer10 float64, wobble func(i int) float64) (xs, ys []float64) {
	mid := from + float64(n-1)/4
	for i := range n {
		x := from + float64(i)/2
		xs = append(xs, x)
		ys = append(ys, mean*(1+pctPer10/100*(x-mid)/10)+wobble(i))
	}
	return xs, ys
}

func still(int) float64 { return 0 }

func TestRSSVerdict(t *testing.T) {
	// The README's 30-minute run of 2026-11-24: RSS after its 6-minute
	// warm-up, a sample every 30 s.
	readmeRun := []float64{197.3, 211.9, 202.6, 217.2, 208.2, 211.2, 226.1, 206.0, 215.4, 214.2, 223.1, 211.8, 222.4,
		211.4, 217.3, 209.5, 235.2, 232.6, 252.9, 227.9, 220.1, 224.5, 220.3, 224.6, 229.7, 236.1, 219.3, 223.6, 215.9,
		217.9, 217.6, 219.8, 230.3, 250.8, 275.2, 248.5, 255.4, 259.1, 244.7, 250.3, 266.8, 237.8, 263.9, 232.5, 242.5,
		238.6, 226.2, 231.1, 223.8}
	var readmeXs []float64
	for i := range readmeRun {
		readmeXs = append(readmeXs, 6+float64(i)/2)
	}

	type series struct{ xs, ys []float64 }
	mk := func(xs, ys []float64) series { return series{xs, ys} }
	tests := []struct {
		name    string
		s       series
		wantPct float64 // slope per 10 min in percent of the mean
		wantOK  bool
	}{
		{"level", mk(line(6, 49, 220, 0, still)), 0, true},
		{"rising 4.9%/10 min", mk(line(6, 49, 220, 4.9, still)), 4.9, true},
		{"rising 5.1%/10 min", mk(line(6, 49, 220, 5.1, still)), 5.1, false},
		{"falling 4.9%/10 min", mk(line(6, 49, 220, -4.9, still)), -4.9, true},
		{"falling 5.1%/10 min: not settled", mk(line(6, 49, 220, -5.1, still)), -5.1, false},
		// The old verdict missed any rise at every sample; a slow one is
		// within the tolerance.
		{"rising 0.5%/10 min at every sample", mk(line(6, 49, 220, 0.5, still)), 0.5, true},
		{"GC sawtooth of ±20 MiB, no trend", mk(line(6, 49, 220, 0, func(i int) float64 { return float64(i%2*40 - 20) })), 0, true},
		{"the README's run of 2026-11-24", mk(readmeXs, readmeRun), 7.14, false},
		{"no samples", series{}, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sl, mean, ok := rssVerdict(tt.s.xs, tt.s.ys)
			if ok != tt.wantOK {
				t.Errorf("ok = %v, want %v (slope %.3f MiB/min, mean %.1f MiB)", ok, tt.wantOK, sl, mean)
			}
			pct := 0.0
			if mean != 0 {
				pct = sl * 10 / mean * 100
			}
			if math.Abs(pct-tt.wantPct) > 0.01 {
				t.Errorf("slope %.3f%%/10 min, want %.2f", pct, tt.wantPct)
			}
		})
	}
}
