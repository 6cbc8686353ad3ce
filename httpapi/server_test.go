package httpapi

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/valyala/fasthttp"
	"github.com/valyala/fasthttp/fasthttputil"

	"campus/config"
	"campus/domain"
)

// testServer runs a Server on an in-memory listener and returns a client for it.
type testServer struct {
	*Server
	client *fasthttp.Client
	logs   *logBuffer
}

func newTestServer(t *testing.T, mutate func(*Deps)) *testServer {
	t.Helper()
	cfg, err := config.Load(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	cfg.ClientDir = "testdata/dist"
	logs := &logBuffer{}
	d := Deps{Config: cfg, Log: zerolog.New(logs)}
	if mutate != nil {
		mutate(&d)
	}
	s := New(d)
	ln := fasthttputil.NewInmemoryListener()
	go func() { _ = s.Serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = s.Shutdown(ctx)
	})
	return &testServer{
		Server: s,
		logs:   logs,
		client: &fasthttp.Client{Dial: func(string) (net.Conn, error) { return ln.Dial() }},
	}
}

// logBuffer collects log lines written by server goroutines; reads and
// writes are serialized, and the access line is written after the answer,
// so readers wait for what they expect.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// waitFor polls until the log contains s (or a deadline passes).
func (b *logBuffer) waitFor(s string) string {
	deadline := time.Now().Add(2 * time.Second)
	for !strings.Contains(b.String(), s) && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	return b.String()
}

type answer struct {
	status int
	header map[string]string
	body   []byte
}

func (ts *testServer) do(t *testing.T, method, uri string, body []byte, headers ...string) answer {
	t.Helper()
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	req.SetRequestURI("http://campus.test" + uri)
	req.Header.SetMethod(method)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	if body != nil {
		req.SetBody(body)
	}
	// Not a speed limit, only a bound on a hung call: an image upload's
	// resizing under -race on a busy 2-core machine took over 5 s (cc17).
	if err := ts.client.DoTimeout(req, resp, 60*time.Second); err != nil {
		t.Fatalf("%s %s: %v", method, uri, err)
	}
	a := answer{status: resp.StatusCode(), header: map[string]string{}, body: append([]byte(nil), resp.Body()...)}
	for _, k := range resp.Header.PeekKeys() {
		a.header[string(k)] = string(resp.Header.PeekBytes(k))
	}
	return a
}

func envelope(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("not JSON: %q", b)
	}
	return m
}

func TestRoutes(t *testing.T) {
	ts := newTestServer(t, nil)
	tests := []struct {
		name, method, path string
		status             int
		contains           string
		contentType        string
	}{
		{"health", "GET", "/api/health", 200, `"status":"success"`, "application/json"},
		{"health data", "GET", "/api/health", 200, `"data":{"status":"ok"}`, "application/json"},
		{"config", "GET", "/api/config", 200, `"productName":"Campus"`, "application/json"},
		{"api 404 is JSON", "GET", "/api/nope", 404, `"status":"error"`, "application/json"},
		{"api 404 for post", "POST", "/api/nope", 404, `"message":"Not found"`, "application/json"},
		{"root serves index", "GET", "/", 200, "campus-index", "text/html"},
		{"spa fallback", "GET", "/profile/abc", 200, "campus-index", "text/html"},
		{"spa fallback post page", "GET", "/post/123", 200, "campus-index", "text/html"},
		{"asset", "GET", "/assets/app-abc123.js", 200, "console.log", "javascript"},
		{"media without store", "GET", "/media/ab/x.png", 404, `"status":"error"`, "application/json"},
		{"method not allowed", "DELETE", "/api/health", 405, `"status":"error"`, "application/json"},
		{"metrics", "GET", "/metrics", 200, "go_goroutines", "text/plain"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := ts.do(t, tt.method, tt.path, nil)
			if a.status != tt.status {
				t.Fatalf("status %d, want %d: %s", a.status, tt.status, a.body)
			}
			if !bytes.Contains(a.body, []byte(tt.contains)) {
				t.Fatalf("body %q does not contain %q", a.body, tt.contains)
			}
			if !strings.Contains(a.header["Content-Type"], tt.contentType) {
				t.Fatalf("content type %q, want %q", a.header["Content-Type"], tt.contentType)
			}
			if a.header["X-Content-Type-Options"] != "nosniff" || a.header["X-Request-Id"] == "" {
				t.Fatalf("missing security headers or request id: %v", a.header)
			}
		})
	}
	t.Run("asset cached forever, index never", func(t *testing.T) {
		if c := ts.do(t, "GET", "/assets/app-abc123.js", nil).header["Cache-Control"]; !strings.Contains(c, "immutable") {
			t.Fatalf("asset cache-control %q", c)
		}
		if c := ts.do(t, "GET", "/profile/x", nil).header["Cache-Control"]; c != "no-cache" {
			t.Fatalf("index cache-control %q", c)
		}
	})
	t.Run("metrics count requests by route pattern", func(t *testing.T) {
		a := ts.do(t, "GET", "/metrics", nil)
		if !bytes.Contains(a.body, []byte(`campus_http_requests_total{method="GET",route="/api/health",status="200"}`)) {
			t.Fatalf("no request counter for /api/health in:\n%s", a.body)
		}
		if !bytes.Contains(a.body, []byte(`campus_http_request_duration_seconds_bucket{method="GET",route="/api/health"`)) {
			t.Fatal("no duration histogram for /api/health")
		}
	})
}

func TestPanicGuardAndErrors(t *testing.T) {
	ts := newTestServer(t, nil)
	ts.router.GET("/api/test/panic", func(*fasthttp.RequestCtx) { panic("boom with secret internals") })
	ts.router.GET("/api/test/internal", func(ctx *fasthttp.RequestCtx) { writeError(ctx, errors.New("pq: relation users is broken")) })
	ts.router.GET("/api/test/limited", func(ctx *fasthttp.RequestCtx) { writeError(ctx, domain.TooMany("Too many attempts", 42)) })
	// The database out of reach (its connection refused, as while it
	// restarts) and a grain whose write failed: retry, not a fault.
	ts.router.GET("/api/test/db-down", func(ctx *fasthttp.RequestCtx) {
		writeError(ctx, fmt.Errorf("persistence: feed: %w", &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}))
	})
	ts.router.GET("/api/test/grain-failed", func(ctx *fasthttp.RequestCtx) {
		writeError(ctx, fmt.Errorf("app: like: %w", domain.ErrWriteFailed))
	})
	ts.router.POST("/api/test/json", func(ctx *fasthttp.RequestCtx) {
		var v struct {
			Name string `json:"name"`
			Age  int    `json:"age"`
		}
		if err := decodeJSON(ctx, &v); err != nil {
			writeError(ctx, err)
			return
		}
		writeData(ctx, v)
	})

	tests := []struct {
		name, method, path string
		body               []byte
		headers            []string
		status             int
		message            string
	}{
		{"panic is 500 without internals", "GET", "/api/test/panic", nil, nil, 500, "Internal server error"},
		{"internal error hidden", "GET", "/api/test/internal", nil, nil, 500, "Internal server error"},
		{"429 with retry", "GET", "/api/test/limited", nil, nil, 429, "Too many attempts"},
		{"database unreachable is 503", "GET", "/api/test/db-down", nil, nil, 503, domain.MsgUnavailable},
		{"failed grain write is 503", "GET", "/api/test/grain-failed", nil, nil, 503, domain.MsgUnavailable},
		{"json ok", "POST", "/api/test/json", []byte(`{"name":"a","age":3}`), nil, 200, ""},
		{"json empty body", "POST", "/api/test/json", nil, nil, 200, ""},
		{"json malformed", "POST", "/api/test/json", []byte(`{"name":`), nil, 400, "Invalid JSON body"},
		{"json wrong type names field", "POST", "/api/test/json", []byte(`{"age":"x"}`), nil, 400, "Invalid value for age"},
		{"json too deep", "POST", "/api/test/json", []byte(strings.Repeat("[", 100) + strings.Repeat("]", 100)), nil, 400, "JSON body is nested too deeply"},
		{"json too large", "POST", "/api/test/json", []byte(`{"name":"` + strings.Repeat("a", 70<<10) + `"}`), nil, 413, "Request body is too large"},
		{"json wrong content type", "POST", "/api/test/json", []byte("--x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nb\r\n--x--\r\n"), []string{"Content-Type", "multipart/form-data; boundary=x"}, 415, "Content-Type must be application/json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := ts.do(t, tt.method, tt.path, tt.body, tt.headers...)
			if a.status != tt.status {
				t.Fatalf("status %d, want %d: %s", a.status, tt.status, a.body)
			}
			env := envelope(t, a.body)
			if tt.message != "" && env["message"] != tt.message {
				t.Fatalf("message %v, want %q", env["message"], tt.message)
			}
			if tt.status == 200 && env["status"] != "success" {
				t.Fatalf("envelope %v", env)
			}
			if tt.status != 200 && env["status"] != "error" {
				t.Fatalf("envelope %v", env)
			}
		})
	}
	if a := ts.do(t, "GET", "/api/test/limited", nil); a.header["Retry-After"] != "42" || !bytes.Contains(a.body, []byte(`"retryAfter":42`)) {
		t.Fatalf("retry-after missing: %v %s", a.header, a.body)
	}
	for _, path := range []string{"/api/test/db-down", "/api/test/grain-failed"} {
		if a := ts.do(t, "GET", path, nil); a.header["Retry-After"] != "1" || !bytes.Contains(a.body, []byte(`"retryAfter":1`)) {
			t.Fatalf("%s: retry-after missing: %v %s", path, a.header, a.body)
		}
	}
	if !strings.Contains(ts.logs.waitFor("panic in handler"), "panic in handler") {
		t.Fatal("panic not logged")
	}
}

func TestServerBodyLimit(t *testing.T) {
	ts := newTestServer(t, nil)
	// Declare a body over the server-wide cap: the server answers 413 from
	// the headers alone, without reading (or buffering) the body.
	conn, err := ts.client.Dial("campus.test")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_, _ = fmt.Fprintf(conn, "POST /api/health HTTP/1.1\r\nHost: campus.test\r\nContent-Length: %d\r\n\r\n", maxRequestBody+1)
	resp := fasthttp.AcquireResponse()
	defer fasthttp.ReleaseResponse(resp)
	if err := resp.Read(bufio.NewReader(conn)); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode() != 413 || !bytes.Contains(resp.Body(), []byte("Request body is too large")) {
		t.Fatalf("status %d body %s, want 413", resp.StatusCode(), resp.Body())
	}
}

func TestAccessLogOmitsQuery(t *testing.T) {
	ts := newTestServer(t, nil)
	ts.do(t, "GET", "/api/health?token=supersecret", nil, "X-Request-Id", "req-123")
	var line map[string]any
	for _, l := range strings.Split(strings.TrimSpace(ts.logs.waitFor(`"message":"request"`)), "\n") {
		if strings.Contains(l, `"message":"request"`) {
			_ = json.Unmarshal([]byte(l), &line)
		}
	}
	if line == nil {
		t.Fatalf("no access log line in %q", ts.logs.String())
	}
	if strings.Contains(ts.logs.String(), "supersecret") {
		t.Fatal("query string logged")
	}
	for _, k := range []string{"method", "path", "status", "duration_ms", "request_id", "route"} {
		if _, ok := line[k]; !ok {
			t.Fatalf("access log lacks %s: %v", k, line)
		}
	}
	if line["request_id"] != "req-123" || line["path"] != "/api/health" || line["status"] != float64(200) {
		t.Fatalf("access log %v", line)
	}
}

func TestReady(t *testing.T) {
	down := errors.New("db down: connection refused")
	checks := func(failing map[string]bool) func(context.Context) []Check {
		return func(context.Context) []Check {
			var out []Check
			for _, name := range []string{"database", "search", "cluster", "membership", "mail", "media"} {
				c := Check{Name: name, Optional: name == "mail" || name == "media"}
				if failing[name] {
					c.Err = down
				}
				out = append(out, c)
			}
			return out
		}
	}
	all := func(state string, except map[string]string) map[string]any {
		m := map[string]any{}
		for _, name := range []string{"database", "search", "cluster", "membership", "mail", "media"} {
			m[name] = state
		}
		for k, v := range except {
			m[k] = v
		}
		return m
	}
	tests := []struct {
		name       string
		ready      func(context.Context) []Check
		status     int
		wantStatus string
		wantField  string // errors[0].field of a 503
		wantChecks map[string]any
	}{
		{"ready", checks(nil), 200, "ready", "", all("ok", nil)},
		{"mail and media down leave the node ready", checks(map[string]bool{"mail": true, "media": true}), 200, "ready", "",
			all("ok", map[string]string{"mail": "down", "media": "down"})},
		{"database down", checks(map[string]bool{"database": true}), 503, "not ready", "database",
			all("ok", map[string]string{"database": "down"})},
		{"names the first failed check", checks(map[string]bool{"mail": true, "membership": true, "search": true}), 503, "not ready", "search",
			all("ok", map[string]string{"mail": "down", "membership": "down", "search": "down"})},
		{"membership alone", checks(map[string]bool{"membership": true}), 503, "not ready", "membership",
			all("ok", map[string]string{"membership": "down"})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := newTestServer(t, func(d *Deps) {
				d.Ready, d.Version, d.Node = tt.ready, "v1.2.3", "10.0.0.1:6331"
				d.Members = func() []string { return []string{"10.0.0.1:6331", "10.0.0.2:6331", "10.0.0.3:6331"} }
			})
			a := ts.do(t, "GET", "/api/ready", nil)
			if a.status != tt.status {
				t.Fatalf("%d %s, want %d", a.status, a.body, tt.status)
			}
			var env struct {
				Status string `json:"status"`
				Errors []struct {
					Field string `json:"field"`
				} `json:"errors"`
				Data map[string]any `json:"data"`
			}
			if err := json.Unmarshal(a.body, &env); err != nil {
				t.Fatal(err)
			}
			d := env.Data
			if d["status"] != tt.wantStatus || d["version"] != "v1.2.3" || d["node"] != "10.0.0.1:6331" || d["members"] != float64(3) {
				t.Fatalf("data %v", d)
			}
			if addrs, _ := d["memberAddresses"].([]any); len(addrs) != 3 || addrs[1] != "10.0.0.2:6331" {
				t.Fatalf("memberAddresses %v", d["memberAddresses"])
			}
			if !reflect.DeepEqual(d["checks"], tt.wantChecks) {
				t.Fatalf("checks %v, want %v", d["checks"], tt.wantChecks)
			}
			if tt.status == 503 {
				if len(env.Errors) != 1 || env.Errors[0].Field != tt.wantField {
					t.Fatalf("errors %v, want field %s", env.Errors, tt.wantField)
				}
				if a.header["Retry-After"] != "1" {
					t.Fatalf("Retry-After %q, want 1", a.header["Retry-After"])
				}
			}
			if bytes.Contains(a.body, []byte("db down")) {
				t.Fatal("readiness leaked internals")
			}
		})
	}
}

// TestReadinessLogsChanges: a probe every few seconds logs a failed check
// once, when it starts failing, and once when all is well again.
func TestReadinessLogsChanges(t *testing.T) {
	var failing atomic.Bool
	ts := newTestServer(t, func(d *Deps) {
		d.Ready = func(context.Context) []Check {
			c := Check{Name: "database"}
			if failing.Load() {
				c.Err = errors.New("connection refused")
			}
			return []Check{c}
		}
	})
	probe := func(n int) {
		for range n {
			ts.do(t, "GET", "/api/ready", nil)
		}
	}
	count := func(msg string) int { return strings.Count(ts.logs.String(), msg) }
	probe(3)
	failing.Store(true)
	probe(3)
	failing.Store(false)
	probe(3)
	if n := count("readiness: dependency down"); n != 1 {
		t.Errorf("%d 'dependency down' lines for one outage, want 1:\n%s", n, ts.logs.String())
	}
	if n := count("every dependency answers again"); n != 1 {
		t.Errorf("%d 'answers again' lines, want 1:\n%s", n, ts.logs.String())
	}
}

func TestCORS(t *testing.T) {
	ts := newTestServer(t, func(d *Deps) { d.Config.PublicOrigin = "https://campus.example.edu" })
	tests := []struct {
		name, origin, want string
	}{
		{"configured origin allowed", "https://campus.example.edu", "https://campus.example.edu"},
		{"other origin not allowed", "https://evil.example", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := ts.do(t, "OPTIONS", "/api/health", nil, "Origin", tt.origin)
			if a.status != 204 || a.header["Access-Control-Allow-Origin"] != tt.want {
				t.Fatalf("status %d allow-origin %q", a.status, a.header["Access-Control-Allow-Origin"])
			}
		})
	}
}

func TestClientIP(t *testing.T) {
	s := &Server{proxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}}
	tests := []struct {
		name, peer, xff, want string
	}{
		{"untrusted peer ignores header", "203.0.113.9", "1.2.3.4", "203.0.113.9"},
		{"trusted proxy uses header", "10.0.0.1", "198.51.100.7", "198.51.100.7"},
		{"right-most untrusted wins", "10.0.0.1", "6.6.6.6, 198.51.100.7, 10.0.0.2", "198.51.100.7"},
		{"garbage header falls back", "10.0.0.1", "not-an-ip", "10.0.0.1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ctx fasthttp.RequestCtx
			ctx.Init(&fasthttp.Request{}, &net.TCPAddr{IP: net.ParseIP(tt.peer), Port: 1}, nil)
			if tt.xff != "" {
				ctx.Request.Header.Set("X-Forwarded-For", tt.xff)
			}
			if got := s.clientIP(&ctx).String(); got != tt.want {
				t.Fatalf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestJSONDepth(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{`{}`, 1}, {`[[[]]]`, 3}, {`{"a":"[[[["}`, 1}, {`{"a":"\"[["}`, 1}, {`"x"`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := jsonDepth([]byte(tt.in)); got != tt.want {
				t.Fatalf("depth %d, want %d", got, tt.want)
			}
		})
	}
}

// TestAccessLogLevels: probes are debug, a fault is an error, a deliberate
// 503 a warning, and a draining node's 503s (the drain working) info.
func TestAccessLogLevels(t *testing.T) {
	ts := newTestServer(t, func(d *Deps) {
		d.Ready = func(context.Context) []Check { return []Check{{Name: "database", Err: errors.New("down")}} }
	})
	ts.router.GET("/api/test/fault", func(ctx *fasthttp.RequestCtx) { writeError(ctx, errors.New("bug")) })
	ts.router.GET("/api/test/shed", func(ctx *fasthttp.RequestCtx) { writeError(ctx, domain.Unavailable("", 1)) })
	for _, tt := range []struct {
		name, path string
		drain      bool
		status     int
		level      string
	}{
		{"health is a probe", "/api/health", false, 200, "debug"},
		{"ready is a probe, even when not ready", "/api/ready", false, 503, "debug"},
		{"metrics are scraped", "/metrics", false, 200, "debug"},
		{"a 404", "/api/nothing-here", false, 404, "info"},
		{"a fault", "/api/test/fault", false, 500, "error"},
		{"a shed request", "/api/test/shed", false, 503, "warn"},
		{"a draining node's 503 (a refused socket, a shed request)", "/api/test/shed", true, 503, "info"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.drain {
				ts.Drain()
			}
			id := "lvl-" + strings.ReplaceAll(tt.path, "/", "-") + fmt.Sprint(tt.drain)
			a := ts.do(t, "GET", tt.path, nil, "X-Request-Id", id)
			if a.status != tt.status {
				t.Fatalf("status %d, want %d", a.status, tt.status)
			}
			var line map[string]any
			for _, l := range strings.Split(ts.logs.waitFor(id), "\n") {
				if strings.Contains(l, id) && strings.Contains(l, `"message":"request"`) {
					_ = json.Unmarshal([]byte(l), &line)
				}
			}
			if line["level"] != tt.level {
				t.Fatalf("access line %v, want level %s", line, tt.level)
			}
			if _, ok := line["duration_ms"].(float64); !ok {
				t.Fatalf("access line without duration_ms: %v", line)
			}
		})
	}
}

// TestMetricsListener: with CAMPUS_METRICS_ADDR the public listener does
// not serve /metrics (404, not the client's page), and MetricsHandler does.
func TestMetricsListener(t *testing.T) {
	ts := newTestServer(t, func(d *Deps) { d.Config.MetricsAddr = "127.0.0.1:0" })
	if a := ts.do(t, "GET", "/metrics", nil); a.status != 404 || bytes.Contains(a.body, []byte("go_goroutines")) {
		t.Fatalf("public /metrics: %d %.80s", a.status, a.body)
	}
	h := ts.MetricsHandler()
	for _, tt := range []struct {
		method, path string
		status       int
		want         string
	}{
		{"GET", "/metrics", 200, "go_goroutines"},
		{"GET", "/api/health", 404, ""},
		{"POST", "/metrics", 405, ""},
	} {
		var ctx fasthttp.RequestCtx
		ctx.Request.Header.SetMethod(tt.method)
		ctx.Request.SetRequestURI(tt.path)
		h(&ctx)
		if ctx.Response.StatusCode() != tt.status || !bytes.Contains(ctx.Response.Body(), []byte(tt.want)) {
			t.Errorf("%s %s on the metrics listener: %d %.80s", tt.method, tt.path, ctx.Response.StatusCode(), ctx.Response.Body())
		}
	}
}
