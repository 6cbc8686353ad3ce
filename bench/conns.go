package main

import (
	"context"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/google/uuid"
	"github.com/valyala/fasthttp"
)

// connections: server RSS per idle authenticated websocket at as many
// sockets as the open-file limit allows, then fan-out to all of them.
func (b *bench) connections(ctx context.Context) {
	const sc = "6 connections"
	if err := b.need("ws"); err != nil {
		b.rep.skip(sc, err)
		b.rep.skip("7 fan-out", err)
		return
	}
	pid := b.o.serverPID
	if b.srv != nil {
		pid = b.srv.pid()
	}
	// Every socket costs a descriptor on each side; keep room for the
	// server's database pool, index files and listeners, and for ours.
	const reserve = 500
	clientLim := noFileLimit()
	room := clientLim - max(procOpenFiles(os.Getpid()), 0) - reserve
	limitNote := fmt.Sprintf("open-file limit: bench %s", group(int64(clientLim)))
	if pid > 0 {
		if serverLim, err := procNoFile(pid); err == nil {
			room = min(room, serverLim-max(procOpenFiles(pid), 0)-reserve)
			limitNote += fmt.Sprintf(", server %s", group(int64(serverLim)))
		}
	}
	target := room
	if b.o.conns > 0 {
		target = b.o.conns
	}
	if target < 1 {
		b.rep.skip(sc, fmt.Errorf("no descriptors left for sockets (%s)", limitNote))
		return
	}
	var rss0 int64
	if pid > 0 {
		time.Sleep(time.Second) // let the server settle before the reading
		rss0, _ = rssKiB(pid)
	}
	fan := []uuid.UUID{b.w.fan}
	b.progress("connections: opening %s idle websockets (%s)", group(int64(target)), limitNote)
	done := b.cpu.phase("connections: dial")
	p, err := b.dialPool(ctx, dialSpec{
		label: "connections", url: "ws://" + b.addr + "/api/ws", n: target,
		token: func(i int) string { return b.w.tokens[i%len(b.w.tokens)] },
		posts: fan, conc: 128, maxFail: 50,
	})
	done()
	defer p.close()
	n := len(p.vs)
	stopped := "reached the target"
	if err != nil {
		stopped = "stopped by: " + err.Error()
	}
	x := b.rep.add(sc, "idle authenticated websockets", float64(n), "").
		note("%s; target %s, %s", limitNote, group(int64(target)), stopped)
	if n == 0 {
		x.Result = resError
		b.rep.skip("7 fan-out", fmt.Errorf("no sockets open"))
		return
	}
	if b.restarted {
		x.note("on the server restarted by the crash scenario")
	}
	if pid > 0 {
		time.Sleep(2 * time.Second) // sessions settle; nothing is sent on idle sockets
		rss1, err := rssKiB(pid)
		if err == nil {
			per := float64(rss1-rss0) / float64(n)
			b.rep.add(sc, "server RSS per idle websocket", per, "KiB").
				target(fmt.Sprintf("≤ %.0f KiB", tgtRSSPerSocket), per <= tgtRSSPerSocket).
				note("VmRSS %.1f → %.1f MiB", float64(rss0)/1024, float64(rss1)/1024)
		}
	} else {
		b.rep.text(sc, "server RSS per idle websocket", "n/a: pass --server-pid with --url")
	}
	b.fanOut(ctx, p)
}

// fanOut: every socket of p watches one post; each change of its count (a
// like by a new user) is timed from the like's send until the last socket
// has the new count. Changes are spaced beyond the 250 ms coalescing window.
func (b *bench) fanOut(ctx context.Context, p *pool) {
	const sc = "7 fan-out"
	if err := b.need("likes"); err != nil {
		b.rep.skip(sc, err)
		return
	}
	n := len(p.vs)
	fan := b.w.fan
	frame := watchFrame([]uuid.UUID{fan})
	if bad := p.send(func(int) []byte { return frame }); bad > 0 {
		b.rep.skip(sc, fmt.Errorf("watch frame failed on %d sockets", bad))
		return
	}
	time.Sleep(time.Second) // watch is not acknowledged
	p.fanIdx.Store(0)
	b.progress("fan-out: %d count changes to %s sockets", b.o.fanChanges, group(int64(n)))
	done := b.cpu.phase("fan-out")
	defer done()
	var worst time.Duration
	var all []string
	missed := 0
	for i := 0; i < b.o.fanChanges && ctx.Err() == nil; i++ {
		for _, v := range p.vs {
			v.fanAt.Store(0)
		}
		p.fanLeft.Store(int64(n))
		p.fanTarget.Store(int32(i + 1))
		user := 10 + i
		send := b.now()
		st, body, err := b.do("POST", "/api/posts/"+fan.String()+"/like", b.w.auth[user%len(b.w.auth)], nil)
		if err != nil || st != fasthttp.StatusOK {
			b.rep.skip(sc, fmt.Errorf("like: %s", describeResp(err, st, body)))
			return
		}
		if _, c, _ := parseLike(body); c != int32(i+1) {
			b.rep.skip(sc, fmt.Errorf("like answered likesCount %d, want %d (someone else likes the fan-out post?)", c, i+1))
			return
		}
		deadline := time.Now().Add(10 * time.Second)
		for p.fanLeft.Load() > 0 && time.Now().Before(deadline) {
			time.Sleep(2 * time.Millisecond)
		}
		var arr []int64
		for _, v := range p.vs {
			if at := v.fanAt.Load(); at > 0 {
				arr = append(arr, at-send)
			}
		}
		if len(arr) < n {
			missed = max(missed, n-len(arr))
		}
		slices.Sort(arr)
		var last time.Duration
		if len(arr) > 0 {
			last = time.Duration(arr[len(arr)-1])
		}
		if len(arr) < n {
			last = 10 * time.Second
		}
		worst = max(worst, last)
		all = append(all, fmt.Sprintf("%.0f", ms(last)))
		time.Sleep(600 * time.Millisecond)
	}
	x := b.rep.add(sc, fmt.Sprintf("like → all %s sockets have the count", group(int64(n))), worst.Seconds(), "s").
		target(fmt.Sprintf("≤ %.0f s at ≥ %s sockets", tgtFanOut.Seconds(), group(tgtFanOutSockets)), n >= tgtFanOutSockets && worst <= tgtFanOut).
		note("worst of %d changes; each (ms): %v", b.o.fanChanges, all)
	if missed > 0 {
		x.note("up to %d sockets never got a change within 10 s", missed)
	}
	if n < tgtFanOutSockets {
		x.note("only %s sockets", group(int64(n)))
	}
}

func describeResp(err error, st int, body []byte) string {
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("status %d: %.120s", st, body)
}
