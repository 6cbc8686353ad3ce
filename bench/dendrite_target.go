package main

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// dendriteTarget drives Dendrite through the Matrix client-server API as a
// lean client would: one access token per person (from its registration), one
// room per conversation, a /sync long poll per listening person, sends
// with the client ID as the transaction ID.
type dendriteTarget struct {
	env  dendriteEnv
	proc *dendriteProc
	db   *dendriteDB
	base string // http://127.0.0.1:port
	hc   *http.Client

	people []mxPerson
	rooms  []string       // room ID by conversation
	reader []int          // by conversation: the member stored reads as (the creator)
	convOf map[string]int // conversation by room ID; read-only after setup

	// firstSyncs bounds the first /syncs in flight: each takes a database
	// snapshot and, inside it, more connections from the same pool, so a
	// few hundred at once exhaust the pool and deadlock it (Dendrite issue
	// 3230). Clients that come online over time never line up like that.
	firstSyncs chan struct{}

	// What the client did beyond one request per call, for the log at
	// close: requests sent again (5xx, connection error), 429s waited
	// out, timelines that came back limited and were filled from /messages.
	// Long polls given up unanswered after timeout+30 s count separately.
	retried, rateLimited, gapsFilled, pollsAbandoned atomic.Int64
}

// mxPerson is one registered, signed-in user.
type mxPerson struct {
	userID string
	token  string // "Bearer …"
}

// The /sync filter of a lean chat client: only m.room.message in the
// timelines (up to 100 a room per answer), no state, presence, receipts,
// typing or account data.
const (
	mxSyncFilter     = `{"presence":{"not_types":["*"]},"account_data":{"not_types":["*"]},"room":{"timeline":{"types":["m.room.message"],"limit":100},"state":{"not_types":["*"],"lazy_load_members":true},"ephemeral":{"not_types":["*"]},"account_data":{"not_types":["*"]}}}`
	mxMessagesFilter = `{"types":["m.room.message"]}`
	// mxClientIDField carries the bench's client ID in a message's content
	// so that recipients can tell the messages apart.
	mxClientIDField = "org.campus.client_id"
	// mxPollTimeout is the long poll's timeout=, as Element's.
	mxPollTimeout = 30 * time.Second
)

// The client's retry policy, as the cluster scenario's web client's: a 5xx
// or a connection error is sent again (same transaction ID) after a
// jittered pause, up to mxRetries times; a 429 is waited out for its
// retry_after_ms (Matrix clients do), up to mxLimitedWaits times.
const (
	mxRetries      = 3
	mxJitterLo     = 50 * time.Millisecond
	mxJitterHi     = 150 * time.Millisecond
	mxLimitedWaits = 50
	// A send attempt unanswered after mxSendTimeout is sent again (the
	// same transaction ID joins the original if it did land); a read
	// (a first sync, a page of /messages) after mxReadTimeout.
	mxSendTimeout = 30 * time.Second
	mxReadTimeout = 60 * time.Second
)

// startDendriteTarget starts Dendrite for env and returns the target.
func startDendriteTarget(ctx context.Context, env dendriteEnv) (*dendriteTarget, error) {
	proc, db, err := startDendrite(ctx, env)
	if err != nil {
		return nil, err
	}
	return newDendriteClient(env, proc, db), nil
}

// newDendriteClient is the target's client of a running dendrite.
func newDendriteClient(env dendriteEnv, proc *dendriteProc, db *dendriteDB) *dendriteTarget {
	dial := (&net.Dialer{Timeout: 10 * time.Second}).DialContext
	if env.dial != nil {
		// Spread over 127.0.0.x sources, as the bench's other clients.
		dial = env.dial.dialContext
	}
	tr := &http.Transport{
		DialContext: dial,
		// Every listening person holds one connection in a long poll;
		// sends take others. Keep them all.
		MaxIdleConns:        0,
		MaxIdleConnsPerHost: 16384,
		IdleConnTimeout:     2 * time.Minute,
		DisableCompression:  true,
	}
	return &dendriteTarget{
		env:  env,
		proc: proc,
		db:   db,
		base: "http://" + proc.addr,
		hc:   &http.Client{Transport: tr},
		// A quarter of the pool: the other requests keep theirs.
		firstSyncs: make(chan struct{}, max(1, db.maxConns/4)),
	}
}

func (d *dendriteTarget) name() string { return "Dendrite " + dendriteVersion }

// pid is dendrite's process, for the scenario's CPU and RSS figures.
func (d *dendriteTarget) pid() int { return d.proc.pid() }

// mxError is a Matrix error answer (or any non-2xx).
type mxError struct {
	status  int
	Errcode string `json:"errcode"`
	Message string `json:"error"`
	RetryMS int64  `json:"retry_after_ms"`
}

func (e *mxError) Error() string {
	return fmt.Sprintf("%d %s: %s", e.status, e.Errcode, e.Message)
}

// do sends one request and decodes a 2xx answer into out (if not nil).
// A non-2xx is an *mxError.
func (d *dendriteTarget) do(ctx context.Context, method, path, auth string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, d.base+path, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := d.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		e := &mxError{status: resp.StatusCode}
		_ = json.Unmarshal(data, e) // a non-JSON error keeps its status
		return e
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("%s %s: decode: %w", method, mxRedactPath(path), err)
	}
	return nil
}

// call is do under the client's retry policy, each attempt given up after
// attempt (0: bounded by ctx alone) and counted as a connection error: a
// server that takes a request and never answers fails the call after the
// retries instead of hanging the run.
func (d *dendriteTarget) call(ctx context.Context, attempt time.Duration, method, path, auth string, body, out any) error {
	retries, waits := 0, 0
	for {
		actx, cancel := ctx, context.CancelFunc(func() {})
		if attempt > 0 {
			actx, cancel = context.WithTimeout(ctx, attempt)
		}
		err := d.do(actx, method, path, auth, body, out)
		cancel()
		if err == nil || ctx.Err() != nil {
			return err
		}
		var me *mxError
		switch {
		case errors.As(err, &me) && me.status == http.StatusTooManyRequests && waits < mxLimitedWaits:
			waits++
			d.rateLimited.Add(1)
			wait := time.Duration(me.RetryMS) * time.Millisecond
			if wait <= 0 {
				wait = 500 * time.Millisecond
			}
			if !sleepCtx(ctx, wait) {
				return ctx.Err()
			}
		case (!errors.As(err, &me) || me.status >= 500) && retries < mxRetries:
			retries++
			d.retried.Add(1)
			if !sleepCtx(ctx, mxJitterLo+rand.N(mxJitterHi-mxJitterLo)) {
				return ctx.Err()
			}
		default:
			return fmt.Errorf("dendrite: %s %s: %w", method, mxRedactPath(path), err)
		}
	}
}

// mxRedactPath drops the query (a filter, a since token) from an error.
func mxRedactPath(p string) string {
	if i := strings.IndexByte(p, '?'); i >= 0 {
		return p[:i]
	}
	return p
}

// dendriteParallel runs fn(0..n-1) on workers goroutines and returns the
// first error (the rest are skipped once one fails).
func dendriteParallel(ctx context.Context, n, workers int, fn func(ctx context.Context, i int) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if err := fn(ctx, i); err != nil {
					cancel(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	return context.Cause(ctx)
}

// setup registers the people (each signed in by it) and makes one room per
// conversation: a direct one (is_direct, the other invited and joining) or
// a group (the first member creates it inviting the rest; each joins).
func (d *dendriteTarget) setup(ctx context.Context, people int, direct [][2]int, groups [][]int) error {
	for _, pr := range direct {
		if pr[0] < 0 || pr[0] >= people || pr[1] < 0 || pr[1] >= people || pr[0] == pr[1] {
			return fmt.Errorf("dendrite: direct conversation %v: not two people of %d", pr, people)
		}
	}
	for g, ms := range groups {
		if len(ms) == 0 {
			return fmt.Errorf("dendrite: group %d has no members", g)
		}
		for _, p := range ms {
			if p < 0 || p >= people {
				return fmt.Errorf("dendrite: group %d: person %d of %d", g, p, people)
			}
		}
	}
	began := time.Now()
	password, err := dendriteRandomHex(12)
	if err != nil {
		return err
	}
	d.people = make([]mxPerson, people)
	var done atomic.Int64
	stop := d.ticker(func() string { return fmt.Sprintf("dendrite setup: %d of %d people registered", done.Load(), people) })
	// Registration hashes the password (bcrypt, cost 10): the server's
	// cores are the limit, a few requests at once fill them.
	err = dendriteParallel(ctx, people, 8, func(ctx context.Context, i int) error {
		p, err := d.register(ctx, fmt.Sprintf("p%d", i), password)
		if err != nil {
			return err
		}
		d.people[i] = p
		done.Add(1)
		return nil
	})
	stop()
	if err != nil {
		return err
	}
	d.env.progress("dendrite setup: %d people registered after %.1fs", people, time.Since(began).Seconds())

	convs := len(direct) + len(groups)
	d.rooms = make([]string, convs)
	d.reader = make([]int, convs)
	members := make([][]int, convs)
	for c, pr := range direct {
		members[c] = pr[:]
	}
	for g, ms := range groups {
		members[len(direct)+g] = ms
	}
	done.Store(0)
	stop = d.ticker(func() string { return fmt.Sprintf("dendrite setup: %d of %d rooms created", done.Load(), convs) })
	// The groups first: each invites up to hundreds, the longest tasks.
	err = dendriteParallel(ctx, convs, 16, func(ctx context.Context, i int) error {
		c := (i + len(direct)) % convs
		ms := members[c]
		body := map[string]any{"invite": d.userIDs(ms[1:])}
		if c < len(direct) {
			// As Element starts a direct chat.
			body["preset"] = "trusted_private_chat"
			body["is_direct"] = true
		} else {
			body["preset"] = "private_chat"
			body["name"] = fmt.Sprintf("group %d", c-len(direct))
		}
		var out struct {
			RoomID string `json:"room_id"`
		}
		if err := d.call(ctx, 0, http.MethodPost, "/_matrix/client/v3/createRoom", d.people[ms[0]].token, body, &out); err != nil {
			return fmt.Errorf("conversation %d: %w", c, err)
		}
		d.rooms[c], d.reader[c] = out.RoomID, ms[0]
		done.Add(1)
		return nil
	})
	stop()
	if err != nil {
		return err
	}
	d.convOf = make(map[string]int, convs)
	for c, r := range d.rooms {
		d.convOf[r] = c
	}
	// Round-robin over the rooms: Dendrite's room server takes one room's
	// events one at a time, so workers on different rooms run in parallel
	// where workers on one room would queue behind each other.
	type join struct{ c, p int }
	var joins []join
	for k := 1; ; k++ {
		n := len(joins)
		for c, ms := range members {
			if k < len(ms) {
				joins = append(joins, join{c, ms[k]})
			}
		}
		if len(joins) == n {
			break
		}
	}
	d.env.progress("dendrite setup: %d rooms created after %.1fs; %d joins to go", convs, time.Since(began).Seconds(), len(joins))
	done.Store(0)
	stop = d.ticker(func() string { return fmt.Sprintf("dendrite setup: %d of %d joined", done.Load(), len(joins)) })
	err = dendriteParallel(ctx, len(joins), 16, func(ctx context.Context, i int) error {
		j := joins[i]
		if err := d.join(ctx, j.p, d.rooms[j.c]); err != nil {
			return fmt.Errorf("conversation %d, person %d: %w", j.c, j.p, err)
		}
		done.Add(1)
		return nil
	})
	stop()
	if err != nil {
		return err
	}
	d.env.progress("dendrite setup: %d joins after %.1fs", len(joins), time.Since(began).Seconds())
	d.settle(ctx, 10*time.Minute)
	d.env.progress("dendrite setup: done after %.1fs (%d people, %d rooms, %d joins)",
		time.Since(began).Seconds(), people, convs, len(joins))
	return ctx.Err()
}

// settle waits, up to limit, until dendrite is idle (under a tenth of a
// core in two 2-second windows running). Its sync API digests the setup's
// events (room creations, thousands of invites and joins) behind the room
// server, each join waking every member's long poll: listening before it
// has caught up would measure the setup, not the workload.
func (d *dendriteTarget) settle(ctx context.Context, limit time.Duration) {
	began := time.Now()
	quiet := 0
	prev, _, err := procCPU(d.proc.pid())
	for err == nil && quiet < 2 && time.Since(began) < limit {
		if !sleepCtx(ctx, 2*time.Second) {
			return
		}
		var now time.Duration
		if now, _, err = procCPU(d.proc.pid()); err != nil {
			break
		}
		if busy := (now - prev).Seconds() / 2; busy < 0.1 {
			quiet++
		} else {
			quiet = 0
		}
		prev = now
	}
	switch {
	case err != nil:
		d.env.progress("dendrite: settle: %v", err)
	case quiet < 2:
		d.env.progress("dendrite: still busy %s after the setup; going on", limit)
	default:
		d.env.progress("dendrite: idle %.1fs after the last join", time.Since(began).Seconds())
	}
}

func (d *dendriteTarget) userIDs(ps []int) []string {
	ids := make([]string, len(ps))
	for i, p := range ps {
		ids[i] = d.people[p].userID
	}
	return ids
}

// ticker prints line() every 5 s until stop is called.
func (d *dendriteTarget) ticker(line func() string) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(5 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				d.env.progress("%s", line())
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

// register makes a user through the shared-secret admin endpoint (an HMAC
// of a fresh nonce, the name and the password). As the client-server
// /register does, it signs the new user in: its answer carries an access
// token for a new device, which the person uses from then on. A separate
// password login would hash the password a second time (bcrypt, cost 10),
// doubling the setup's time on two cores for nothing the workload uses.
func (d *dendriteTarget) register(ctx context.Context, localpart, password string) (mxPerson, error) {
	var nonce struct {
		Nonce string `json:"nonce"`
	}
	if err := d.call(ctx, 0, http.MethodGet, "/_synapse/admin/v1/register", "", nil, &nonce); err != nil {
		return mxPerson{}, err
	}
	mac := hmac.New(sha1.New, []byte(d.proc.secret))
	mac.Write([]byte(nonce.Nonce + "\x00" + localpart + "\x00" + password + "\x00notadmin"))
	var reg struct {
		UserID      string `json:"user_id"`
		AccessToken string `json:"access_token"`
	}
	if err := d.call(ctx, 0, http.MethodPost, "/_synapse/admin/v1/register", "", map[string]any{
		"nonce":    nonce.Nonce,
		"username": localpart,
		"password": password,
		"admin":    false,
		"mac":      hex.EncodeToString(mac.Sum(nil)),
	}, &reg); err != nil {
		return mxPerson{}, fmt.Errorf("register %s: %w", localpart, err)
	}
	if reg.AccessToken == "" || reg.UserID == "" {
		return mxPerson{}, fmt.Errorf("register %s: no user ID or access token in the answer", localpart)
	}
	return mxPerson{userID: reg.UserID, token: "Bearer " + reg.AccessToken}, nil
}

// join joins person p to room, once its invite is there.
func (d *dendriteTarget) join(ctx context.Context, p int, room string) error {
	path := "/_matrix/client/v3/rooms/" + url.PathEscape(room) + "/join"
	for attempt := 0; ; attempt++ {
		err := d.call(ctx, 0, http.MethodPost, path, d.people[p].token, map[string]any{}, nil)
		var me *mxError
		// createRoom answers once the room exists; an invite it sent may
		// still be on its way through the room server.
		if err != nil && errors.As(err, &me) && me.status == http.StatusForbidden && attempt < 20 {
			if !sleepCtx(ctx, 100*time.Millisecond) {
				return ctx.Err()
			}
			continue
		}
		return err
	}
}

// mxEvent is the part of a room event the bench reads.
type mxEvent struct {
	Type    string `json:"type"`
	EventID string `json:"event_id"`
	Content struct {
		ClientID string `json:"org.campus.client_id"`
	} `json:"content"`
}

// mxSync is the part of a /sync answer the bench reads.
type mxSync struct {
	NextBatch string `json:"next_batch"`
	Rooms     struct {
		Join map[string]struct {
			Timeline struct {
				Events    []mxEvent `json:"events"`
				Limited   bool      `json:"limited"`
				PrevBatch string    `json:"prev_batch"`
			} `json:"timeline"`
		} `json:"join"`
	} `json:"rooms"`
}

// listen makes person p's first /sync (which answers at once with the
// rooms' state so far: history, not deliveries) and then long-polls from
// its next_batch, delivering every m.room.message that arrives.
func (d *dendriteTarget) listen(ctx context.Context, p int, deliver func(msgDelivery)) error {
	auth := d.people[p].token
	select {
	case d.firstSyncs <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	var first mxSync
	err := d.call(ctx, mxReadTimeout, http.MethodGet, "/_matrix/client/v3/sync?timeout=0&filter="+url.QueryEscape(mxSyncFilter), auth, nil, &first)
	<-d.firstSyncs
	if err != nil {
		return fmt.Errorf("person %d: first sync: %w", p, err)
	}
	go d.poll(ctx, auth, first.NextBatch, deliver)
	return nil
}

// poll is one person's long-poll loop, until ctx ends.
func (d *dendriteTarget) poll(ctx context.Context, auth, since string, deliver func(msgDelivery)) {
	filter := url.QueryEscape(mxSyncFilter)
	timeout := strconv.Itoa(int(mxPollTimeout / time.Millisecond))
	for ctx.Err() == nil {
		var s mxSync
		// A long poll that does not answer well after its timeout is a
		// hung connection: drop it and poll again.
		pctx, cancel := context.WithTimeout(ctx, mxPollTimeout+30*time.Second)
		err := d.call(pctx, 0, http.MethodGet, "/_matrix/client/v3/sync?timeout="+timeout+"&since="+url.QueryEscape(since)+"&filter="+filter, auth, nil, &s)
		cancel()
		if err != nil && pctx.Err() == context.DeadlineExceeded && ctx.Err() == nil {
			// Dendrite took the poll and never answered: a stuck server
			// (its pool deadlocked) rather than a refusing one.
			d.pollsAbandoned.Add(1)
		}
		if err != nil {
			// The policy's retries are spent: the server is down or
			// refusing; keep the position and try again, as a client does.
			if !sleepCtx(ctx, time.Second) {
				return
			}
			continue
		}
		at := time.Now()
		events := make(map[string][]mxEvent, len(s.Rooms.Join))
		filled := true
		for room, jr := range s.Rooms.Join {
			if _, ok := d.convOf[room]; !ok {
				continue
			}
			events[room] = jr.Timeline.Events
			if !jr.Timeline.Limited {
				continue
			}
			// More arrived than the timeline limit: fetch the gap between
			// our position and the answer's first event, as a client fills
			// a limited timeline.
			gap, err := d.fillGap(ctx, auth, room, jr.Timeline.PrevBatch, since, jr.Timeline.Events)
			if err != nil {
				filled = false
				break
			}
			d.gapsFilled.Add(1)
			events[room] = append(gap, jr.Timeline.Events...)
		}
		if !filled {
			// Without the gap the next answer would skip it for good:
			// deliver nothing of this answer and poll again from the same
			// position.
			if !sleepCtx(ctx, time.Second) {
				return
			}
			continue
		}
		for room, evs := range events {
			c := d.convOf[room]
			for _, ev := range evs {
				if ev.Type == "m.room.message" {
					deliver(msgDelivery{conv: c, clientID: ev.Content.ClientID, at: at})
				}
			}
		}
		since = s.NextBatch
	}
}

// fillGap pages back through room's messages from a limited timeline's
// prev_batch to since, oldest first, without the events already in the
// timeline.
func (d *dendriteTarget) fillGap(ctx context.Context, auth, room, from, since string, timeline []mxEvent) ([]mxEvent, error) {
	have := make(map[string]bool, len(timeline))
	for _, ev := range timeline {
		have[ev.EventID] = true
	}
	var back []mxEvent
	for range 10_000 {
		var page struct {
			Chunk []mxEvent `json:"chunk"`
			End   string    `json:"end"`
		}
		q := url.Values{"dir": {"b"}, "from": {from}, "to": {since}, "limit": {"100"}, "filter": {mxMessagesFilter}}
		if err := d.call(ctx, mxReadTimeout, http.MethodGet, "/_matrix/client/v3/rooms/"+url.PathEscape(room)+"/messages?"+q.Encode(), auth, nil, &page); err != nil {
			return nil, err
		}
		for _, ev := range page.Chunk {
			if !have[ev.EventID] {
				have[ev.EventID] = true
				back = append(back, ev)
			}
		}
		if len(page.Chunk) == 0 || page.End == "" || page.End == from {
			break
		}
		from = page.End
	}
	for i, j := 0, len(back)-1; i < j; i, j = i+1, j-1 {
		back[i], back[j] = back[j], back[i]
	}
	return back, nil
}

// send puts one m.room.message with the client ID as its transaction ID: a
// retry of the same send returns the original event.
func (d *dendriteTarget) send(ctx context.Context, p, c int, clientID, body string) (msgAck, error) {
	path := "/_matrix/client/v3/rooms/" + url.PathEscape(d.rooms[c]) + "/send/m.room.message/" + url.PathEscape(clientID)
	content := map[string]string{"msgtype": "m.text", "body": body, mxClientIDField: clientID}
	if err := d.call(ctx, mxSendTimeout, http.MethodPut, path, d.people[p].token, content, nil); err != nil {
		return msgAck{}, fmt.Errorf("person %d, conversation %d: %w", p, c, err)
	}
	return msgAck{at: time.Now()}, nil
}

// stored pages forward through conversation c's messages (as its creator,
// a member since the start), in the server's order.
func (d *dendriteTarget) stored(ctx context.Context, c int) ([]msgStored, error) {
	auth := d.people[d.reader[c]].token
	path := "/_matrix/client/v3/rooms/" + url.PathEscape(d.rooms[c]) + "/messages?"
	seen := map[string]bool{}
	var out []msgStored
	// The position before the room's first event. The spec lets a client
	// leave from out going forward, but v0.13.8 then fails to parse its own
	// default ("malformed sync token"); this is that default written out.
	from := "t0_0"
	for {
		q := url.Values{"dir": {"f"}, "from": {from}, "limit": {"100"}, "filter": {mxMessagesFilter}}
		var page struct {
			Chunk []mxEvent `json:"chunk"`
			End   string    `json:"end"`
		}
		if err := d.call(ctx, mxReadTimeout, http.MethodGet, path+q.Encode(), auth, nil, &page); err != nil {
			return nil, fmt.Errorf("conversation %d: %w", c, err)
		}
		fresh := 0
		for _, ev := range page.Chunk {
			if seen[ev.EventID] {
				continue
			}
			seen[ev.EventID] = true
			fresh++
			if ev.Type == "m.room.message" {
				out = append(out, msgStored{clientID: ev.Content.ClientID})
			}
		}
		// The last page is empty; a page of nothing new (Dendrite answers
		// the first position again at the end) stops it too.
		if len(page.Chunk) == 0 || fresh == 0 || page.End == "" || page.End == from {
			return out, nil
		}
		from = page.End
	}
}

// close stops dendrite and drops its database (unless --keep), and logs
// what the client had to do beyond one request per call.
func (d *dendriteTarget) close() {
	if n := d.notes(); n != "" {
		d.env.progress("dendrite: %s", n)
	}
	if err := d.proc.stop(30 * time.Second); err != nil {
		d.env.progress("dendrite: stop: %v", err)
	}
	d.hc.CloseIdleConnections()
	if d.env.keep {
		return
	}
	if err := d.db.drop(); err != nil {
		d.env.progress("dendrite: %v", err)
	}
}

// notes says what the client had to do beyond one request per call (empty
// when nothing), for the scenario's report.
func (d *dendriteTarget) notes() string {
	var parts []string
	for _, n := range []struct {
		v    int64
		what string
	}{
		{d.retried.Load(), "requests sent again after a 5xx or connection error"},
		{d.rateLimited.Load(), "429s waited out"},
		{d.gapsFilled.Load(), "limited timelines filled from /messages"},
		{d.pollsAbandoned.Load(), "long polls abandoned unanswered after 60 s"},
	} {
		if n.v > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n.v, n.what))
		}
	}
	return strings.Join(parts, ", ")
}
