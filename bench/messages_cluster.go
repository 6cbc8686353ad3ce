package main

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"
)

// messagesCluster: Campus's paced workload on the shared cluster's three
// nodes (the cluster scenario's etcd and nodes), each person's socket on
// node p mod 3 and every send to another node than its recipient's socket
// (a direct message) or than the sender's own (a group message, whose
// recipients are on every node); then the same with kill -9 of one node a
// third into the phase: senders retry on another node with the same
// clientId, sockets on the dead node reopen on another and fill their gap.
func (b *bench) messagesCluster(ctx context.Context, r *msgRun, t *campusTarget) {
	sc := r.sc
	bc, err := b.sharedCluster(ctx)
	if err != nil {
		x := b.rep.text(sc, "d) cluster", err.Error())
		if isUnavailable(err) {
			x.Result = resNA
		} else {
			x.Result = resError
		}
		return
	}
	if len(bc.nodes) != 3 {
		b.rep.text(sc, "d) cluster", fmt.Sprintf("the shared cluster has %d nodes, want 3", len(bc.nodes))).Result = resError
		return
	}
	nodes := bc.nodes
	victim := nodes[2]
	defer func() {
		if !b.want("cluster") {
			b.closeCluster()
			return
		}
		// The cluster scenario comes next on the same three nodes.
		if done, _ := victim.srv.exited(); !done {
			return
		}
		b.progress("messages: restarting node %d for the cluster scenario", victim.i)
		if err := bc.restart(ctx, victim, 3); err != nil {
			b.closeCluster()
			b.clErr = fmt.Errorf("node %d did not come back after the messages scenario's kill -9: %w", victim.i, err)
		}
	}()
	for _, n := range nodes {
		n.up.Store(true)
	}
	P := r.wl.people
	home := func(p int) int { return p % 3 }
	sockets := newRotation(nodes, P)
	for p := range P {
		sockets.cur[p].Store(int32(home(p)))
	}
	one := t.rot
	t.rot = newRotation(nodes, P)
	defer func() { t.rot = one }()
	sends := t.rot
	send := func(ctx context.Context, p, c int, clientID, body string) (msgAck, msgVia, error) {
		to := home(p)
		if c < len(r.wl.direct) {
			to = home(r.wl.members[c][0] + r.wl.members[c][1] - p) // the other person
		}
		sends.cur[p].Store(int32((to + 1) % 3))
		return t.sendVia(ctx, p, c, clientID, body)
	}

	base, err := t.lastSeqs(ctx)
	if err != nil {
		b.rep.text(sc, "d) cluster", err.Error()).Result = resError
		return
	}
	lctx, stopListening := context.WithCancel(ctx)
	defer stopListening()
	var reconnects, fills atomic.Int64
	err = r.listenAll(lctx, "messages: sockets on 3 nodes", func(ctx context.Context, p int) error {
		return t.listenCluster(ctx, p, sockets, base, r.wl.convsOf[p], r.book, func(g msgGot) { r.inbox[p].add(g) }, &reconnects, &fills)
	})
	if err != nil {
		b.rep.text(sc, "d) cluster: sockets", err.Error()).Result = resError
		return
	}
	time.Sleep(500 * time.Millisecond)
	rep := b.rep
	D := b.o.clPhase

	// d) paced on three nodes.
	t.stats.Store(newMsgAttempts())
	ph := &msgPhase{id: phClusterSteady, name: "messages: paced, 3 nodes"}
	b.progress("%s: %s (+%s warm-up)", ph.name, D, b.o.warmup)
	r.paced(ctx, ph, b.o.warmup, D, send, nil)
	r.drain(ctx, phClusterSteady)
	c, err := r.check(ctx, phClusterSteady)
	if err != nil {
		rep.text(sc, "d) cluster: consistency check", err.Error()).Result = resError
		return
	}
	x := rep.add(sc, "d) cluster, paced: messages", ph.rate(), "msgs/s").
		note("3 nodes (etcd); person p's socket on node p mod 3; a direct message sent to a node other than the recipient's socket, a group message to the node after the sender's")
	if n := ph.failed.Load(); n > 0 {
		x.note("%d failed: %s", n, r.firstErr)
	}
	cp := rep.add(sc, "d) cluster: send → recipient on another node p99", ms(c.cross.p99), "ms").
		target(fmt.Sprintf("≤ %.0f ms", ms(tgtMsgClusterP99)), c.cross.n > 0 && c.cross.p99 <= tgtMsgClusterP99).
		note("the recipient's socket on another node than the one that took the send; p50 %.1f ms, %s deliveries; same node: p99 %.1f ms (%s)",
			ms(c.cross.p50), group(int64(c.cross.n)), ms(c.same.p99), group(int64(c.same.n)))
	if c.cross.n == 0 {
		cp.note("no cross-node deliveries")
	}
	b.attemptRows(sc, "d) cluster:", t.stats.Load())
	r.consistencyRows("d) cluster, paced:", c)

	// e) the same with kill -9 of one node a third into the phase.
	t.stats.Store(newMsgAttempts())
	reconnects.Store(0)
	fills.Store(0)
	ph = &msgPhase{id: phClusterKill, name: "messages: paced, 3 nodes, kill -9"}
	Dk := max(D, 6*time.Second)
	var killedAt int64
	b.progress("%s: %s (+%s warm-up), node %d killed a third in", ph.name, Dk, b.o.warmup, victim.i)
	r.paced(ctx, ph, b.o.warmup, Dk, send, func(now int64) {
		if killedAt == 0 && now >= ph.winStart+int64(Dk/3) {
			victim.srv.kill()
			killedAt = b.now()
			r.killedAt = killedAt
			b.progress("messages: killed node %d (pid %d)", victim.i, victim.srv.pid())
		}
	})
	if killedAt == 0 {
		rep.text(sc, "e) cluster, kill -9", "the phase ended before the kill").Result = resError
		return
	}
	r.drain(ctx, phClusterKill)
	c, err = r.check(ctx, phClusterKill)
	if err != nil {
		rep.text(sc, "e) cluster, kill -9: consistency check", err.Error()).Result = resError
		return
	}
	st := t.stats.Load()
	st.mu.Lock()
	rep.text(sc, "e) kill -9: failed send attempts by status", statusText(st.attempts)).
		note("each retried on another node with the same clientId (≤ %d retries): %d failed after retries (%s), %d served by a retry",
			clRetries, sum(st.failed), statusText(st.failed), st.retried)
	st.mu.Unlock()
	rep.add(sc, "e) kill -9: sockets reopened on another node", float64(reconnects.Load()), "").
		note("%s people had their socket on the killed node; gap fills: %s GET …/messages?afterSeq= (on reopening and when a push skipped ahead), %s messages from them, %s copies already held dropped",
			group(int64((P+2-victim.i)/3)), group(fills.Load()), group(int64(c.filled)), group(int64(c.dropped)))
	rep.add(sc, "e) kill -9: send → recipient p99", ms(c.lat.p99), "ms").
		note("pushed copies only (a gap fill's are not timed); p50 %.1f ms, %s deliveries, %.0f msgs/s acknowledged", ms(c.lat.p50), group(int64(c.lat.n)), ph.rate())
	r.consistencyRows("e) cluster, kill -9:", c)
}

// attemptRows notes a phase's failed send attempts, if any.
func (b *bench) attemptRows(sc, label string, st *msgAttempts) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if len(st.attempts) == 0 {
		return
	}
	b.rep.text(sc, label+" failed send attempts by status", statusText(st.attempts)).
		note("%d failed after retries (%s), %d served by a retry", sum(st.failed), statusText(st.failed), st.retried)
}
