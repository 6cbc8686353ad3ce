package searchindex

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"

	"campus/persistence"
)

// Benchmarks on synthetic data (run with -bench; they seed their own
// database):
//
//	go test -run '^$' -bench . -benchtime 1x ./searchindex/
//
// BenchmarkOutbox reports docs/s of the tailer taking in a bulk-loaded
// outbox, BenchmarkRebuild of a full rebuild of 50k posts (database reads
// included), and BenchmarkSearch search latency percentiles at 100k posts +
// 100k comments. Each also reports docs per CPU second of this process, a
// steadier figure than the wall clock on a shared machine.

// corpus makes words with a Zipf distribution over a vocabulary, so a few
// words are everywhere and most are rare, as in real text.
type corpus struct {
	words []string
	zipf  *rand.Zipf
	rng   *rand.Rand
}

func newCorpus(seed uint64, vocabulary int) *corpus {
	rng := rand.New(rand.NewPCG(seed, seed))
	syll := []string{"ka", "lo", "mi", "ra", "te", "su", "na", "vi", "do", "pe", "ri", "go", "an", "ur", "el", "sh", "tr", "co", "mp", "ut"}
	seen := map[string]bool{}
	words := make([]string, 0, vocabulary)
	for len(words) < vocabulary {
		n := 2 + rng.IntN(4)
		var b strings.Builder
		for range n {
			b.WriteString(syll[rng.IntN(len(syll))])
		}
		if w := b.String(); !seen[w] {
			seen[w] = true
			words = append(words, w)
		}
	}
	return &corpus{words: words, rng: rng, zipf: rand.NewZipf(rng, 1.1, 2, uint64(vocabulary-1))}
}

func (c *corpus) text(minWords, maxWords int) string {
	n := minWords + c.rng.IntN(maxWords-minWords+1)
	ws := make([]string, n)
	for i := range ws {
		ws[i] = c.words[c.zipf.Uint64()]
	}
	return strings.Join(ws, " ")
}

// campusWords is a small campus vocabulary; posts draw from it
// Zipf-distributed (as the load benchmark in bench/ does), plus now and then
// a rare made-up word.
var campusWords = strings.Fields(`campus exam library lecture project hackathon canteen hostel semester assignment placement
	seminar workshop festival cricket football music dance coding robotics internship professor notes lab deadline
	result quiz club society alumni department library sports trip weekend morning evening coffee friends team
	startup research paper conference poster election debate drama photography volunteer blood donation marathon`)

type campusCorpus struct {
	rng  *rand.Rand
	zipf *rand.Zipf
	rare *corpus
}

func newCampusCorpus() *campusCorpus {
	rng := rand.New(rand.NewPCG(3, 3))
	return &campusCorpus{rng: rng, zipf: rand.NewZipf(rng, 1.2, 2, uint64(len(campusWords)-1)), rare: newCorpus(4, 25_000)}
}

func (c *campusCorpus) text(minWords, maxWords int, rare bool) string {
	n := minWords + c.rng.IntN(maxWords-minWords+1)
	ws := make([]string, 0, n+1)
	for range n {
		ws = append(ws, campusWords[c.zipf.Uint64()])
	}
	if rare && c.rng.IntN(10) < 3 {
		ws = append(ws, c.rare.words[c.rng.IntN(len(c.rare.words))])
	}
	return strings.Join(ws, " ")
}

// seedCampus inserts users, posts and comments with bench/'s shapes and,
// when outbox is set, one outbox row for each.
func seedCampus(b testing.TB, f *fixture, users, posts, comments int, outbox bool) {
	b.Helper()
	ctx := context.Background()
	c := newCampusCorpus()
	const chunk = 2000
	var entries []persistence.OutboxEntry
	userIDs := make([]uuid.UUID, users)
	for lo := 0; lo < users; lo += chunk {
		rows := make([]persistence.User, 0, chunk)
		for i := lo; i < min(users, lo+chunk); i++ {
			u := persistence.User{
				ID: persistence.NewID(), Name: fmt.Sprintf("Asha %s", c.rare.words[i%len(c.rare.words)]), Email: fmt.Sprintf("c%d@uni.edu", i),
				PasswordHash: "x", Role: "student", UniversityID: fmt.Sprintf("BWU/BCA/%02d/%d", i%30, i),
				Course: "BCA", Batch: fmt.Sprint(2000 + i%30),
			}
			userIDs[i] = u.ID
			rows = append(rows, u)
			entries = append(entries, persistence.OutboxEntry{Entity: persistence.EntityUser, EntityID: u.ID, Op: persistence.OpUpsert})
		}
		if _, err := f.db.NewInsert().Model(&rows).Exec(ctx); err != nil {
			b.Fatal(err)
		}
	}
	postIDs := make([]uuid.UUID, posts)
	for lo := 0; lo < posts; lo += chunk {
		rows := make([]persistence.Post, 0, chunk)
		for i := lo; i < min(posts, lo+chunk); i++ {
			p := persistence.Post{ID: persistence.NewID(), UserID: userIDs[i%users], Content: c.text(6, 17, true)}
			postIDs[i] = p.ID
			rows = append(rows, p)
			entries = append(entries, persistence.OutboxEntry{Entity: persistence.EntityPost, EntityID: p.ID, Op: persistence.OpUpsert})
		}
		if _, err := f.db.NewInsert().Model(&rows).Exec(ctx); err != nil {
			b.Fatal(err)
		}
	}
	for lo := 0; lo < comments; lo += chunk {
		rows := make([]persistence.Comment, 0, chunk)
		for i := lo; i < min(comments, lo+chunk); i++ {
			cm := persistence.Comment{ID: persistence.NewID(), PostID: postIDs[i%posts], UserID: userIDs[(i*7)%users], Content: c.text(3, 10, false)}
			rows = append(rows, cm)
			entries = append(entries, persistence.OutboxEntry{Entity: persistence.EntityComment, EntityID: cm.ID, Op: persistence.OpUpsert})
		}
		if _, err := f.db.NewInsert().Model(&rows).Exec(ctx); err != nil {
			b.Fatal(err)
		}
	}
	if !outbox {
		return
	}
	for lo := 0; lo < len(entries); lo += 5000 {
		chunk := entries[lo:min(len(entries), lo+5000)]
		if _, err := f.db.NewInsert().Model(&chunk).Exec(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOutbox times the tailer taking in a bulk-loaded outbox, as the
// load benchmark's "indexing" row does: 10k users, 100k posts, 100k
// comments (-short: a tenth).
func BenchmarkOutbox(b *testing.B) {
	users, posts, comments := 10_000, 100_000, 100_000
	if testing.Short() {
		users, posts, comments = 1000, 10_000, 10_000
	}
	for range b.N {
		f := newFixture(b)
		x := f.open()
		seedCampus(b, f, users, posts, comments, true)
		start, cpu0 := time.Now(), cpuTime()
		n, err := x.CatchUp(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		took, cpu := time.Since(start), cpuTime()-cpu0
		b.Logf("applied %d outbox rows in %v (%v CPU in this process): %.0f docs/s, %.0f docs per CPU second",
			n, took.Round(time.Millisecond), cpu.Round(time.Millisecond), float64(n)/took.Seconds(), float64(n)/cpu.Seconds())
		b.ReportMetric(float64(n)/took.Seconds(), "docs/s")
		b.ReportMetric(float64(n)/cpu.Seconds(), "docs/cpu_s")
	}
}

// cpuTime is the CPU this process has used, user and system: on a shared
// machine a steadier measure than the wall clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func BenchmarkRebuild(b *testing.B) {
	f := newFixture(b)
	seedCampus(b, f, 2000, 50_000, 0, false)
	b.ResetTimer()
	for i := range b.N {
		cpu0 := cpuTime()
		st, err := Rebuild(context.Background(), f.db, filepath.Join(b.TempDir(), fmt.Sprint("search", i)), nil)
		if err != nil {
			b.Fatal(err)
		}
		cpu := cpuTime() - cpu0
		b.Logf("rebuilt %d docs in %v (%v CPU in this process): %.0f docs/s, %.0f docs per CPU second",
			st.Docs(), st.Elapsed.Round(time.Millisecond), cpu.Round(time.Millisecond), st.DocsPerSecond(), float64(st.Docs())/cpu.Seconds())
		b.ReportMetric(st.DocsPerSecond(), "docs/s")
		b.ReportMetric(float64(st.Docs())/cpu.Seconds(), "docs/cpu_s")
	}
}

// BenchmarkSearch: 10k users, 100k posts, 100k comments; common and rare
// words, prefixes being typed, two words, a typo, a university ID.
func BenchmarkSearch(b *testing.B) {
	for _, cached := range []bool{false, true} {
		name := "uncached"
		if cached {
			name = "cached"
		}
		b.Run(name, func(b *testing.B) { benchmarkSearch(b, cached) })
	}
}

// BenchmarkSearchMix is the load benchmark's search scenario in process: 8
// searchers, 1000 queries, half rare words (from a pool of 2000), half
// common ones (the 12 commonest campus words, and names), after the
// tailer's warm-up. (The HTTP layer and the result rows are not included.)
func BenchmarkSearchMix(b *testing.B) {
	f := newFixture(b)
	seedCampus(b, f, 10_000, 100_000, 100_000, false)
	if _, err := Rebuild(context.Background(), f.db, f.dir, nil); err != nil {
		b.Fatal(err)
	}
	x := f.open()
	ctx := context.Background()
	x.warm(ctx)
	rare := newCampusCorpus().rare.words
	common := append(slices.Clone(campusWords[:12]), "asha", "Asha", "BCA", "2020")
	rng := rand.New(rand.NewPCG(9, 9))
	for range b.N {
		queries := make([]string, 1000)
		for i := range queries {
			if i%2 == 0 {
				queries[i] = rare[rng.IntN(2000)]
			} else {
				queries[i] = common[rng.IntN(len(common))]
			}
		}
		var mu sync.Mutex
		var lat []time.Duration
		var wg sync.WaitGroup
		next := make(chan string, len(queries))
		for _, q := range queries {
			next <- q
		}
		close(next)
		for range 8 {
			wg.Go(func() {
				for q := range next {
					start := time.Now()
					if _, err := x.Search(ctx, q, 20); err != nil {
						b.Error(err)
						return
					}
					d := time.Since(start)
					mu.Lock()
					lat = append(lat, d)
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		slices.Sort(lat)
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50_ms")
		b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99_ms")
		x.cache.invalidate() // the next round starts cold again (but warm words)
		x.warm(ctx)
	}
}

func benchmarkSearch(b *testing.B, cached bool) {
	f := newFixture(b)
	seedCampus(b, f, 10_000, 100_000, 100_000, false)
	st, err := Rebuild(context.Background(), f.db, f.dir, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("rebuilt %d docs in %v: %.0f docs/s", st.Docs(), st.Elapsed.Round(time.Millisecond), st.DocsPerSecond())
	x := f.open()
	if !cached {
		x.cache = nil
	}
	rare := newCampusCorpus().rare.words
	var queries []string
	for i := range 40 {
		common, mid, r := campusWords[i%5], campusWords[10+i%40], rare[i*97%len(rare)]
		queries = append(queries,
			common, mid, r, // whole words
			common[:2], mid[:3], r[:4], r[:min(6, len(r))], // prefixes while typing
			common+" "+mid, mid+" "+r[:3], // two words
			mid[:2]+mid[3:], // a typo (one letter dropped)
			"Asha "+r[:3],   // a name being typed
			fmt.Sprintf("BWU/BCA/%02d/%d", i%30, i*30+i%30), // a university ID
		)
	}
	ctx := context.Background()
	// Warm up: the rebuild's merges settle, the caches fill.
	for _, q := range queries {
		if _, err := x.Search(ctx, q, 20); err != nil {
			b.Fatal(err)
		}
	}
	lat := make([]time.Duration, 0, b.N*len(queries))
	b.ResetTimer()
	for range b.N {
		for _, q := range queries {
			start := time.Now()
			if _, err := x.Search(ctx, q, 20); err != nil {
				b.Fatal(err)
			}
			lat = append(lat, time.Since(start))
		}
	}
	b.StopTimer()
	if testing.Verbose() {
		per := map[string]time.Duration{}
		for i, d := range lat {
			per[queries[i%len(queries)]] = max(per[queries[i%len(queries)]], d)
		}
		slow := slices.SortedFunc(maps.Keys(per), func(a, c string) int { return cmp.Compare(per[c], per[a]) })
		for _, q := range slow[:10] {
			b.Logf("slowest: %q %v", q, per[q].Round(time.Microsecond))
		}
	}
	slices.Sort(lat)
	pct := func(p float64) time.Duration { return lat[int(float64(len(lat)-1)*p)] }
	b.ReportMetric(float64(pct(0.5).Microseconds())/1000, "p50_ms")
	b.ReportMetric(float64(pct(0.99).Microseconds())/1000, "p99_ms")
	b.ReportMetric(float64(lat[len(lat)-1].Microseconds())/1000, "max_ms")

	// As the load benchmark asks: 8 searchers at once.
	const searchers = 8
	var mu sync.Mutex
	conc := make([]time.Duration, 0, b.N*len(queries))
	var wg sync.WaitGroup
	for w := range searchers {
		wg.Go(func() {
			for i := w; i < b.N*len(queries); i += searchers {
				start := time.Now()
				if _, err := x.Search(ctx, queries[i%len(queries)], 20); err != nil {
					b.Error(err)
					return
				}
				d := time.Since(start)
				mu.Lock()
				conc = append(conc, d)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	slices.Sort(conc)
	b.ReportMetric(float64(conc[len(conc)*99/100].Microseconds())/1000, "p99_8conc_ms")
}
