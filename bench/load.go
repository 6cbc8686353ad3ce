package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/valyala/fasthttp"
)

// dialer spreads client sockets over 127.0.0.2-127.0.0.17 when the server is
// on loopback: tens of thousands of sockets from one source address would
// crowd the ephemeral port range that everyone else on the machine uses.
type dialer struct {
	next atomic.Uint32
	ips  []net.IP
}

func newDialer() *dialer {
	d := &dialer{}
	for i := 2; i < 18; i++ {
		d.ips = append(d.ips, net.IPv4(127, 0, 0, byte(i)))
	}
	return d
}

// forTarget keeps the spread only for a loopback server (a 127.x source
// cannot reach another host).
func (d *dialer) forTarget(addr string) {
	host, _, err := net.SplitHostPort(addr)
	ip := net.ParseIP(host)
	if err != nil || ip == nil || !ip.IsLoopback() || ip.To4() == nil {
		d.ips = nil
	}
}

func (d *dialer) netDialer() *net.Dialer {
	nd := &net.Dialer{Timeout: 10 * time.Second}
	if len(d.ips) > 0 {
		nd.LocalAddr = &net.TCPAddr{IP: d.ips[int(d.next.Add(1))%len(d.ips)]}
	}
	return nd
}

func (d *dialer) dialContext(ctx context.Context, _, addr string) (net.Conn, error) {
	return d.netDialer().DialContext(ctx, "tcp4", addr)
}

func (d *dialer) dial(addr string) (net.Conn, error) {
	return d.netDialer().Dial("tcp4", addr)
}

// client is one keep-alive connection to the server, for one worker.
func (b *bench) client() *fasthttp.HostClient {
	return &fasthttp.HostClient{
		Addr:                     b.addr,
		Dial:                     b.dial.dial,
		MaxConns:                 1,
		ReadTimeout:              20 * time.Second,
		WriteTimeout:             20 * time.Second,
		MaxIdleConnDuration:      5 * time.Minute,
		NoDefaultUserAgentHeader: true,
		DisablePathNormalizing:   true,
		// One attempt per request: the books count every like once, and a
		// silently retried DELETE would hide a broken connection.
		MaxIdemponentCallAttempts: 1,
	}
}

func (b *bench) uri(path string) string { return "http://" + b.addr + path }

// loadSpec is a closed-loop load: conc workers, each on its own keep-alive
// connection, each sending its next request as soon as the last answered.
type loadSpec struct {
	conc   int
	warmup time.Duration
	dur    time.Duration
	// limit > 0 sends exactly that many requests in all (no warm-up).
	limit int
	// prep builds worker w's request once; next, when set, changes it
	// before each send (i is the request's sequence number).
	prep func(w int, req *fasthttp.Request)
	next func(w, i int, req *fasthttp.Request)
	// ok judges a 200 answer's body; nil accepts every 200.
	ok func(body []byte) bool
	// done, when set, is told every request sent in the window.
	done func(i int, took time.Duration, ok bool)
	stop *atomic.Bool // optional: ends the run early
}

type loadResult struct {
	ok, fail int64
	window   time.Duration
	lat      dist
	firstErr string
}

func (r loadResult) perSec() float64 {
	if r.window <= 0 {
		return 0
	}
	return float64(r.ok) / r.window.Seconds()
}

// closedLoop runs s and measures requests sent inside the window after the
// warm-up: throughput counts the ones answered 200 (and accepted by ok).
func (b *bench) closedLoop(ctx context.Context, s loadSpec) loadResult {
	start := b.now()
	winStart, winEnd := start+int64(s.warmup), start+int64(s.warmup+s.dur)
	if s.limit > 0 {
		winStart, winEnd = start, start+int64(5*time.Minute) // a bound, not a target
	}
	var (
		issued   atomic.Int64
		ok, fail atomic.Int64
		errOnce  sync.Once
		firstErr string
		mu       sync.Mutex
		all      [][]int64
		wg       sync.WaitGroup
	)
	for w := 0; w < s.conc; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := b.client()
			defer c.CloseIdleConnections()
			req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
			defer fasthttp.ReleaseRequest(req)
			defer fasthttp.ReleaseResponse(resp)
			s.prep(w, req)
			lat := make([]int64, 0, 1024)
			for ctx.Err() == nil && (s.stop == nil || !s.stop.Load()) {
				i := int(issued.Add(1) - 1)
				if s.limit > 0 && i >= s.limit {
					break
				}
				if s.next != nil {
					s.next(w, i, req)
				}
				send := b.now()
				if send >= winEnd {
					break
				}
				err := c.DoTimeout(req, resp, 20*time.Second)
				took := b.now() - send
				good := err == nil && resp.StatusCode() == fasthttp.StatusOK && (s.ok == nil || s.ok(resp.Body()))
				if send >= winStart {
					if good {
						ok.Add(1)
						lat = append(lat, took)
					} else {
						fail.Add(1)
					}
					if s.done != nil {
						s.done(i, time.Duration(took), good)
					}
				}
				if !good {
					errOnce.Do(func() { firstErr = describe(err, resp) })
					if err != nil {
						time.Sleep(5 * time.Millisecond) // a refused connection must not spin
					}
				}
			}
			mu.Lock()
			all = append(all, lat)
			mu.Unlock()
		}()
	}
	wg.Wait()
	end := min(b.now(), winEnd)
	var lat []int64
	for _, l := range all {
		lat = append(lat, l...)
	}
	return loadResult{ok: ok.Load(), fail: fail.Load(), window: time.Duration(end - winStart), lat: distOf(lat), firstErr: firstErr}
}

// describe is a short account of a failed request.
func describe(err error, resp *fasthttp.Response) string {
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("status %d: %.120s", resp.StatusCode(), resp.Body())
}

// do sends one request on a shared connection and returns status and body.
func (b *bench) do(method, path, auth string, body []byte) (int, []byte, error) {
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	req.Header.SetMethod(method)
	req.SetRequestURI(b.uri(path))
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	if body != nil {
		req.Header.SetContentType("application/json")
		req.SetBody(body)
	}
	b.oneOnce.Do(func() {
		b.one = b.client()
		b.one.MaxConns, b.one.MaxConnWaitTimeout = 8, 15*time.Second
	})
	if err := b.one.DoTimeout(req, resp, 15*time.Second); err != nil {
		return 0, nil, err
	}
	return resp.StatusCode(), append([]byte(nil), resp.Body()...), nil
}

// probe finds out which of the scenarios' endpoints the server has. A
// missing route answers 404 or 405 from the router.
func (b *bench) probe(ctx context.Context) {
	w := b.w
	b.avail = map[string]error{}
	check := func(name, method, path, auth string) []byte {
		st, body, err := b.do(method, path, auth, nil)
		switch {
		case err != nil:
			b.avail[name] = fmt.Errorf("%s %s: %w", method, generic(path), err)
		case st == fasthttp.StatusNotFound || st == fasthttp.StatusMethodNotAllowed:
			b.avail[name] = fmt.Errorf("%w: %s %s answers %d %s", errUnavailable, method, generic(path), st, message(body))
		case st != fasthttp.StatusOK:
			b.avail[name] = fmt.Errorf("%s %s answers %d %s", method, generic(path), st, message(body))
		}
		return body
	}
	// The probe post is the bench's own and in no check: like, then unlike.
	likePath := "/api/posts/" + w.probe.String() + "/like"
	body := check("likes", "POST", likePath, w.auth[1])
	if b.avail["likes"] == nil {
		if _, _, err := parseLike(body); err != nil {
			b.avail["likes"] = fmt.Errorf("POST %s: %w in %.120s", generic(likePath), err, body)
		} else {
			check("likes", "DELETE", likePath, w.auth[1])
		}
	}
	check("feed", "GET", "/api/posts/feed?limit=20", w.auth[2])
	check("search", "GET", "/api/search?q=campus&limit=10", w.auth[3])
	b.avail["ws"] = b.probeWS(ctx)
	if w.space == uuid.Nil {
		b.avail["live"] = fmt.Errorf("%w: no groups table (a server from before groups)", errUnavailable)
	} else if body := check("live", "GET", "/api/groups/"+w.spaceHandle+"/live", w.auth[5]); b.avail["live"] == nil && !bytes.Contains(body, []byte(`"hot"`)) {
		b.avail["live"] = fmt.Errorf("GET /api/groups/{handle}/live: no hot list in %.120s", body)
	}
	for _, k := range []string{"likes", "ws", "feed", "search", "live"} {
		if err := b.avail[k]; err != nil {
			b.progress("probe %s: %v", k, err)
		} else {
			b.progress("probe %s: available", k)
		}
	}
}

// need returns the first missing endpoint among names, or nil.
func (b *bench) need(names ...string) error {
	for _, n := range names {
		if err := b.avail[n]; err != nil {
			return err
		}
	}
	return nil
}

// generic replaces the probe post's id in a path with {id}.
func generic(path string) string {
	const n = len("/api/posts/")
	if len(path) > n+36 && path[:n] == "/api/posts/" {
		return "/api/posts/{id}" + path[n+36:]
	}
	return path
}

// message is the envelope's message, for reports.
func message(body []byte) string {
	if m := jsonString(body, "message"); m != "" {
		return "(" + m + ")"
	}
	return ""
}

// jsonString finds "key":"value" in body (no escapes in value) — enough for
// the server's flat answers without decoding them.
func jsonString(body []byte, key string) string {
	k := []byte(`"` + key + `":"`)
	i := bytes.Index(body, k)
	if i < 0 {
		return ""
	}
	rest := body[i+len(k):]
	j := bytes.IndexByte(rest, '"')
	if j < 0 {
		return ""
	}
	return string(rest[:j])
}

// jsonInt finds "key":123 in body.
func jsonInt(body []byte, key string) (int64, bool) {
	k := make([]byte, 0, len(key)+3)
	k = append(append(append(k, '"'), key...), '"', ':')
	i := bytes.Index(body, k)
	if i < 0 {
		return 0, false
	}
	rest := bytes.TrimLeft(body[i+len(k):], " ")
	j := 0
	for j < len(rest) && (rest[j] == '-' || rest[j] >= '0' && rest[j] <= '9') {
		j++
	}
	n, err := strconv.ParseInt(string(rest[:j]), 10, 64)
	return n, err == nil
}

var errBadLike = errors.New("no isLiked/likesCount")

// parseLike reads {isLiked, likesCount} from a like answer.
func parseLike(body []byte) (liked bool, count int32, err error) {
	i := bytes.Index(body, []byte(`"isLiked":`))
	n, ok := jsonInt(body, "likesCount")
	if i < 0 || !ok {
		return false, 0, errBadLike
	}
	rest := bytes.TrimLeft(body[i+len(`"isLiked":`):], " ")
	return bytes.HasPrefix(rest, []byte("true")), int32(n), nil
}

func isUnavailable(err error) bool { return errors.Is(err, errUnavailable) }
