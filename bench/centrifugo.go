package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/fasthttp/websocket"
	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"
	"github.com/valyala/fasthttp"
)

// centrifugoNamespace is the channel namespace of the posts' counts: post
// p's channel is "posts:<p>".
const centrifugoNamespace = "posts"

// centrifugoProc is a running Centrifugo: clients on addr, the server API
// (and its health and metrics) on apiAddr, as its docs lay a production
// node out (the API on the internal port, not the one clients reach).
type centrifugoProc struct {
	cmd     *exec.Cmd
	done    chan struct{}
	waitErr error
	dir     string
	addr    string
	apiAddr string
	logPath string
	apiKey  string
	secret  []byte // the HMAC key of the connection tokens
	api     *fasthttp.HostClient
}

// centrifugoConfig is the node's configuration: connection JWTs (HS256)
// with the bench's secret and no anonymous access, the HTTP API behind a
// key, a "posts" namespace that authenticated clients may subscribe to
// (the counts are public to every signed-in user, as Campus's watch is)
// with presence, join/leave and history off (a count frame needs none of
// them), health and Prometheus metrics on the internal port, errors-only
// logs and no usage statistics.
func centrifugoConfig(port, apiPort int, apiKey string, secret []byte) ([]byte, error) {
	cfg := map[string]any{
		"http_server": map[string]any{
			"address": "127.0.0.1", "port": port,
			"internal_address": "127.0.0.1", "internal_port": strconv.Itoa(apiPort),
		},
		"log": map[string]any{"level": "error"},
		"client": map[string]any{
			"token":                                 map[string]any{"hmac_secret_key": string(secret)},
			"allow_anonymous_connect_without_token": false,
			"disallow_anonymous_connection_tokens":  true,
		},
		"channel": map[string]any{
			"namespaces": []any{map[string]any{
				"name":                       centrifugoNamespace,
				"allow_subscribe_for_client": true,
				"presence":                   false,
				"join_leave":                 false,
				"history_size":               0,
			}},
		},
		"http_api":    map[string]any{"key": apiKey},
		"health":      map[string]any{"enabled": true},
		"prometheus":  map[string]any{"enabled": true},
		"usage_stats": map[string]any{"disabled": true},
	}
	return json.MarshalIndent(cfg, "", "  ")
}

// startCentrifugo builds Centrifugo if the cache lacks it, writes its
// config into dir (emptied first) and starts it on two free loopback
// ports, returning once its health check answers.
func startCentrifugo(ctx context.Context, dir string, progress func(format string, args ...any)) (*centrifugoProc, error) {
	bin, err := centrifugoBinary(ctx, progress)
	if err != nil {
		return nil, err
	}
	if err := os.RemoveAll(dir); err != nil {
		return nil, fmt.Errorf("centrifugo: %w", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("centrifugo: %w", err)
	}
	port, err := freePort()
	if err != nil {
		return nil, fmt.Errorf("centrifugo: %w", err)
	}
	apiPort, err := freePort()
	if err != nil {
		return nil, fmt.Errorf("centrifugo: %w", err)
	}
	key, err := centrifugoRandomHex(24)
	if err != nil {
		return nil, err
	}
	secret, err := centrifugoRandomHex(32)
	if err != nil {
		return nil, err
	}
	cfg, err := centrifugoConfig(port, apiPort, key, []byte(secret))
	if err != nil {
		return nil, fmt.Errorf("centrifugo: config: %w", err)
	}
	cfgPath := filepath.Join(dir, "config.json")
	if err := os.WriteFile(cfgPath, cfg, 0o600); err != nil {
		return nil, fmt.Errorf("centrifugo: config: %w", err)
	}
	p := &centrifugoProc{
		dir:     dir,
		addr:    net.JoinHostPort("127.0.0.1", strconv.Itoa(port)),
		apiAddr: net.JoinHostPort("127.0.0.1", strconv.Itoa(apiPort)),
		logPath: filepath.Join(dir, "centrifugo.log"),
		apiKey:  key,
		secret:  []byte(secret),
		done:    make(chan struct{}),
	}
	p.api = &fasthttp.HostClient{Addr: p.apiAddr, MaxConns: 64, ReadTimeout: 30 * time.Second, WriteTimeout: 30 * time.Second}
	logf, err := os.OpenFile(p.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("centrifugo: log: %w", err)
	}
	defer logf.Close() // the child holds its own descriptor
	p.cmd = exec.Command(bin, "--config", cfgPath)
	p.cmd.Dir = dir
	p.cmd.Env = centrifugoEnv()
	p.cmd.Stdout, p.cmd.Stderr = logf, logf
	// SIGTERM when the bench dies; its own process group keeps our Ctrl-C
	// away so that the bench decides when it stops.
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM, Setpgid: true}
	began := time.Now()
	if err := p.cmd.Start(); err != nil {
		return nil, fmt.Errorf("centrifugo: start: %w", err)
	}
	go func() {
		p.waitErr = p.cmd.Wait()
		close(p.done)
	}()
	if err := p.waitReady(ctx, time.Minute); err != nil {
		_ = p.stop(10 * time.Second)
		return nil, err
	}
	progress("centrifugo: %s ready on %s, API on %s (pid %d) after %.1fs; log %s",
		centrifugoVersion, p.addr, p.apiAddr, p.pid(), time.Since(began).Seconds(), p.logPath)
	return p, nil
}

// centrifugoEnv is our environment without Centrifugo's own settings
// (CENTRIFUGO_*), which would override the config file.
func centrifugoEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CENTRIFUGO_") {
			env = append(env, kv)
		}
	}
	return env
}

func (p *centrifugoProc) pid() int { return p.cmd.Process.Pid }

// waitReady polls GET /health on the internal port until it answers 200,
// the process exits or the timeout passes.
func (p *centrifugoProc) waitReady(ctx context.Context, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	c := &http.Client{Timeout: 2 * time.Second}
	last := "no answer"
	for time.Now().Before(deadline) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+p.apiAddr+"/health", nil)
		resp, err := c.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
			last = resp.Status
		} else {
			last = err.Error()
		}
		select {
		case <-p.done:
			return fmt.Errorf("centrifugo exited during start (%v); log tail:\n%s", p.waitErr, centrifugoLogTail(p.logPath, 20))
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
	return fmt.Errorf("centrifugo not ready after %s (last: %s); log tail:\n%s", timeout, last, centrifugoLogTail(p.logPath, 20))
}

// stop asks Centrifugo to shut down (SIGTERM) and kills it after timeout.
func (p *centrifugoProc) stop(timeout time.Duration) error {
	if p == nil {
		return nil
	}
	select {
	case <-p.done:
		return nil
	default:
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
		return nil
	case <-time.After(timeout):
		_ = p.cmd.Process.Kill()
		<-p.done
		return fmt.Errorf("centrifugo ignored SIGTERM for %s and was killed", timeout)
	}
}

// token is a connection JWT for user (HS256, an hour), as an application
// backend hands its clients.
func (p *centrifugoProc) token(user string) (string, error) {
	now := time.Now()
	tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.RegisteredClaims{
		Subject:   user,
		IssuedAt:  jwt.NewNumericDate(now),
		ExpiresAt: jwt.NewNumericDate(now.Add(time.Hour)),
	}).SignedString(p.secret)
	if err != nil {
		return "", fmt.Errorf("centrifugo: sign token: %w", err)
	}
	return tok, nil
}

// centrifugoChannel is post's channel.
func centrifugoChannel(post uuid.UUID) string { return centrifugoNamespace + ":" + post.String() }

// open connects one client over the JSON protocol on a websocket: the
// connect command with token, then one subscribe per post, sent together
// in one frame (newline-delimited, as the client SDKs batch commands), and
// waits for every reply. The socket is then ready for the pool's reader:
// publications arrive as pushes whose data is the frame as published.
func (p *centrifugoProc) open(ctx context.Context, d *websocket.Dialer, token string, posts []uuid.UUID, timeout time.Duration) (*websocket.Conn, error) {
	c, resp, err := d.DialContext(ctx, "ws://"+p.addr+"/connection/websocket", nil)
	if err != nil {
		if resp != nil {
			return nil, fmt.Errorf("centrifugo websocket: %w (status %d)", err, resp.StatusCode)
		}
		return nil, fmt.Errorf("centrifugo websocket: %w", err)
	}
	ok := false
	defer func() {
		if !ok {
			c.Close()
		}
	}()
	_ = c.SetReadDeadline(time.Now().Add(timeout))
	_ = c.SetWriteDeadline(time.Now().Add(timeout))
	var cmds bytes.Buffer
	connect, _ := json.Marshal(map[string]any{"id": 1, "connect": map[string]any{"token": token, "name": "campus-bench"}})
	cmds.Write(connect)
	for i, post := range posts {
		sub, _ := json.Marshal(map[string]any{"id": i + 2, "subscribe": map[string]any{"channel": centrifugoChannel(post)}})
		cmds.WriteByte('\n')
		cmds.Write(sub)
	}
	if err := c.WriteMessage(websocket.TextMessage, cmds.Bytes()); err != nil {
		return nil, fmt.Errorf("centrifugo websocket: send connect: %w", err)
	}
	left := len(posts) + 1
	for left > 0 {
		_, msg, err := c.ReadMessage()
		if err != nil {
			return nil, fmt.Errorf("centrifugo websocket: %d of %d replies missing: %w", left, len(posts)+1, err)
		}
		for _, line := range bytes.Split(msg, []byte("\n")) {
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			var r struct {
				ID    int `json:"id"`
				Error *struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal(line, &r); err != nil {
				return nil, fmt.Errorf("centrifugo websocket: reply %.120q: %w", line, err)
			}
			if r.ID == 0 {
				continue // a push (none is published yet) or a ping
			}
			if r.Error != nil {
				return nil, fmt.Errorf("centrifugo websocket: command %d: error %d %s", r.ID, r.Error.Code, r.Error.Message)
			}
			left--
		}
	}
	_ = c.SetReadDeadline(time.Time{})
	_ = c.SetWriteDeadline(time.Time{})
	ok = true
	return c, nil
}

// centrifugoPong answers Centrifugo's application-level ping: an empty
// push ({}) that a client must answer with an empty command within the
// pong timeout (8 s) or be disconnected. A ping may share a frame with
// pushes (newline-delimited).
func centrifugoPong(msg []byte) (reply []byte, onlyPing bool) {
	if len(msg) > 64 && !bytes.Contains(msg, []byte("\n{}")) && !bytes.HasPrefix(msg, []byte("{}\n")) {
		return nil, false // the common case: a push and no ping
	}
	ping, other := false, false
	for _, line := range bytes.Split(msg, []byte("\n")) {
		switch t := bytes.TrimSpace(line); {
		case bytes.Equal(t, []byte("{}")):
			ping = true
		case len(t) > 0:
			other = true
		}
	}
	if !ping {
		return nil, false
	}
	return []byte("{}"), !other
}

// centrifugoPublication is one publish command of a batch: data is the
// frame, sent as it is (JSON).
type centrifugoPublication struct {
	channel string
	data    []byte
}

// publish sends pubs in one call of the server API's batch method (the
// docs' way of publishing many messages in one round trip), processed in
// parallel, and checks that every command succeeded.
func (p *centrifugoProc) publish(pubs []centrifugoPublication) error {
	var body bytes.Buffer
	body.WriteString(`{"parallel":true,"commands":[`)
	for i, pub := range pubs {
		if i > 0 {
			body.WriteByte(',')
		}
		body.WriteString(`{"publish":{"channel":`)
		ch, _ := json.Marshal(pub.channel)
		body.Write(ch)
		body.WriteString(`,"data":`)
		body.Write(pub.data)
		body.WriteString(`}}`)
	}
	body.WriteString(`]}`)
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	req.Header.SetMethod(fasthttp.MethodPost)
	req.SetRequestURI("http://" + p.apiAddr + "/api/batch")
	req.Header.SetContentType("application/json")
	req.Header.Set("X-API-Key", p.apiKey)
	req.SetBodyRaw(body.Bytes())
	if err := p.api.DoTimeout(req, resp, 30*time.Second); err != nil {
		return fmt.Errorf("centrifugo: batch publish: %w", err)
	}
	if resp.StatusCode() != fasthttp.StatusOK {
		return fmt.Errorf("centrifugo: batch publish: status %d: %.200s", resp.StatusCode(), resp.Body())
	}
	var out struct {
		Replies []struct {
			Error *struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		} `json:"replies"`
	}
	if err := json.Unmarshal(resp.Body(), &out); err != nil {
		return fmt.Errorf("centrifugo: batch publish: answer %.200q: %w", resp.Body(), err)
	}
	if len(out.Replies) != len(pubs) {
		return fmt.Errorf("centrifugo: batch publish: %d replies to %d commands", len(out.Replies), len(pubs))
	}
	for i, r := range out.Replies {
		if r.Error != nil {
			return fmt.Errorf("centrifugo: batch publish %s: error %d %s", pubs[i].channel, r.Error.Code, r.Error.Message)
		}
	}
	return nil
}

func centrifugoRandomHex(n int) (string, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("centrifugo: random: %w", err)
	}
	return hex.EncodeToString(b), nil
}
