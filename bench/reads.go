package main

import (
	"bytes"
	"context"
	"fmt"
	mrand "math/rand/v2"
	"net/url"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/valyala/fasthttp"
)

// feed: the first page of GET /api/posts/feed over the seeded posts, alone
// and while likers storm another post.
func (b *bench) feed(ctx context.Context) {
	const sc = "4 feed read"
	if err := b.need("feed"); err != nil {
		b.rep.skip(sc, err)
		return
	}
	spec := loadSpec{
		conc: b.o.feedConc, warmup: b.o.warmup, dur: b.o.baseDur,
		prep: func(w int, req *fasthttp.Request) {
			req.SetRequestURI(b.uri("/api/posts/feed?limit=20"))
			req.Header.Set("Authorization", b.w.auth[(w*7+5)%len(b.w.auth)])
		},
		ok: func(body []byte) bool { return bytes.Contains(body, []byte(`"posts"`)) },
	}
	b.progress("feed read: %d readers for %s", b.o.feedConc, b.o.baseDur)
	done := b.cpu.phase("feed read")
	r := b.closedLoop(ctx, spec)
	done()
	b.feedRows(sc, "", r)

	if err := b.need("likes"); err != nil {
		b.rep.text(sc, "during a like storm", "unavailable: "+err.Error()).Result = resNA
		return
	}
	lr := b.newLikeRun("feed + storm", []uuid.UUID{b.w.feedHot}, nil)
	b.progress("feed read during a storm: %d readers, %d likers", b.o.feedConc, b.o.likers)
	done = b.cpu.phase("feed read + storm")
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		// The storm starts first and outlasts the readers' window.
		lr.run(ctx, b.o.likers, b.o.warmup/2, b.o.baseDur+b.o.warmup, nil)
	}()
	r = b.closedLoop(ctx, spec)
	wg.Wait()
	done()
	b.feedRows(sc, " during a storm", r)
	st := lr.stats(nil)
	b.rep.add(sc, "storm likes meanwhile", st.perSec, "likes/s").note("like p99 %.1f ms", ms(st.lat.p99))
	b.consistencyRow(ctx, sc, lr)
}

func (b *bench) feedRows(sc, suffix string, r loadResult) {
	x := b.rep.add(sc, "feed reads"+suffix, r.perSec(), "req/s").
		against("ceiling", b.base.ceiling, tgtFeedVsCeiling, fmt.Sprintf("≥ %.0f%% of ceiling", tgtFeedVsCeiling*100))
	if r.fail > 0 {
		x.note("%d failed: %s", r.fail, r.firstErr)
	}
	x.note("%d readers, %s posts", b.o.feedConc, group(int64(b.o.posts)))
	b.rep.add(sc, "feed p99"+suffix, ms(r.lat.p99), "ms").
		target(fmt.Sprintf("≤ %.0f ms", ms(tgtFeedP99)), r.lat.n > 0 && r.lat.p99 <= tgtFeedP99).
		note("p50 %.2f ms", ms(r.lat.p50))
}

// indexing: how fast the search index takes in the seeded outbox (users,
// posts, comments), timed from the outbox commit until a search finds the
// word that only the last outbox row's post holds. Runs before anything is
// timed, whichever scenarios --only picks, so the indexer does not compete
// with the baselines; the figure is reported when search is picked.
func (b *bench) indexing(ctx context.Context) {
	const sc = "5 search"
	if err := b.need("search"); err != nil {
		return // search() reports it
	}
	rep := b.rep
	if !b.want("search") {
		rep = newReport(b.o) // waited for, not reported
	}
	limit := 10 * time.Minute
	if b.o.quick {
		limit = time.Minute
	}
	b.progress("search indexing: waiting for %s outbox docs to be searchable", group(int64(b.w.docs)))
	done := b.cpu.phase("search indexing")
	path := "/api/search?q=" + url.QueryEscape(b.w.marker) + "&limit=5"
	deadline := time.Now().Add(limit)
	found := false
	last := time.Now()
	for time.Now().Before(deadline) && ctx.Err() == nil {
		st, body, err := b.do("GET", path, b.w.auth[3], nil)
		if err == nil && st == fasthttp.StatusOK && bytes.Contains(body, []byte(b.w.markerPost.String())) {
			found = true
			break
		}
		if time.Since(last) >= 5*time.Second {
			last = time.Now()
			b.progress("search indexing: not yet (%.0fs)", time.Since(b.w.outboxAt).Seconds())
		}
		time.Sleep(50 * time.Millisecond)
	}
	took := time.Since(b.w.outboxAt)
	done()
	if !found {
		rep.text(sc, "indexing", fmt.Sprintf("the last of %s docs not searchable after %s", group(int64(b.w.docs)), limit)).
			target(fmt.Sprintf("≥ %s docs/s", group(tgtIndexDocs)), false)
		return
	}
	rate := float64(b.w.docs) / took.Seconds()
	rep.add(sc, "indexing", rate, "docs/s").
		target(fmt.Sprintf("≥ %s docs/s", group(tgtIndexDocs)), rate >= tgtIndexDocs).
		note("%s docs (users, posts, comments, the event space) searchable %.1fs after the outbox commit", group(int64(b.w.docs)), took.Seconds())
}

// search: queries drawn from the seeded names and words, rare and common
// terms reported apart.
func (b *bench) search(ctx context.Context) {
	const sc = "5 search"
	if err := b.need("search"); err != nil {
		b.rep.skip(sc, err)
		return
	}
	rng := mrand.New(mrand.NewPCG(uint64(b.o.seed), 5))
	type query struct {
		q    string
		rare bool
	}
	qs := make([]query, b.o.queries)
	for i := range qs {
		if i%2 == 0 && len(b.w.rare) > 0 {
			qs[i] = query{b.w.rare[rng.IntN(len(b.w.rare))], true}
		} else {
			qs[i] = query{b.w.common[rng.IntN(len(b.w.common))], false}
		}
	}
	var mu sync.Mutex
	lat := map[bool][]int64{}
	empty := map[bool]int{}
	var fails int
	var firstErr string
	b.progress("search: %d queries from %d searchers", len(qs), b.o.searchConc)
	done := b.cpu.phase("search")
	var wg sync.WaitGroup
	next := make(chan int, len(qs))
	for i := range qs {
		next <- i
	}
	close(next)
	for w := 0; w < b.o.searchConc; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := b.client()
			defer c.CloseIdleConnections()
			req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
			defer fasthttp.ReleaseRequest(req)
			defer fasthttp.ReleaseResponse(resp)
			req.Header.Set("Authorization", b.w.auth[w%len(b.w.auth)])
			for i := range next {
				if ctx.Err() != nil {
					return
				}
				req.SetRequestURI(b.uri("/api/search?q=" + url.QueryEscape(qs[i].q) + "&limit=20"))
				send := time.Now()
				err := c.DoTimeout(req, resp, 20*time.Second)
				took := int64(time.Since(send))
				mu.Lock()
				if err != nil || resp.StatusCode() != fasthttp.StatusOK {
					fails++
					if firstErr == "" {
						firstErr = describe(err, resp)
					}
				} else {
					lat[qs[i].rare] = append(lat[qs[i].rare], took)
					if bytes.Contains(resp.Body(), []byte(`"results":[]`)) {
						empty[qs[i].rare]++
					}
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	done()
	all := append(append([]int64(nil), lat[true]...), lat[false]...)
	d := distOf(all)
	x := b.rep.add(sc, "search p99, all queries", ms(d.p99), "ms").
		target(fmt.Sprintf("≤ %.0f ms", ms(tgtSearchP99)), d.n > 0 && d.p99 <= tgtSearchP99).
		note("p50 %.2f ms; %d queries, %d searchers", ms(d.p50), d.n, b.o.searchConc)
	if fails > 0 {
		x.note("%d failed: %s", fails, firstErr)
	}
	for _, rare := range []bool{true, false} {
		name, terms := "common terms", "frequent words, common names"
		if rare {
			name, terms = "rare terms", "words in ~1 post, unique surnames"
		}
		dd := distOf(lat[rare])
		b.rep.add(sc, "search p50, "+name, ms(dd.p50), "ms").note("%s", terms)
		y := b.rep.add(sc, "search p99, "+name, ms(dd.p99), "ms")
		if empty[rare] > 0 {
			y.note("%d of %d answered no results", empty[rare], dd.n)
		}
	}
}
