package httpapi

import (
	"bytes"
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"campus/app"
	"campus/persistence"
	"campus/protocol"
	"campus/testlog"
)

// pushDevice is a browser's side of a push subscription: the key pair and
// auth secret it generated (RFC 8291) and what its push service received.
type pushDevice struct {
	key  *ecdh.PrivateKey
	auth []byte
}

func newPushDevice(t *testing.T) *pushDevice {
	t.Helper()
	k, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	auth := make([]byte, 16)
	_, _ = rand.Read(auth)
	return &pushDevice{key: k, auth: auth}
}

func (d *pushDevice) subscription(endpoint string) map[string]any {
	b64 := base64.RawURLEncoding.EncodeToString
	return map[string]any{"endpoint": endpoint,
		"keys": map[string]any{"p256dh": b64(d.key.PublicKey().Bytes()), "auth": b64(d.auth)}}
}

// decrypt opens an aes128gcm body (RFC 8188) encrypted to the device as RFC
// 8291 says: the header carries the salt, record size and the server's
// ephemeral public key; the key and nonce come from ECDH with it and the
// auth secret.
func (d *pushDevice) decrypt(body []byte) ([]byte, error) {
	if len(body) < 21 {
		return nil, errors.New("body shorter than the header")
	}
	salt, rs, idlen := body[:16], binary.BigEndian.Uint32(body[16:20]), int(body[20])
	if idlen != 65 || len(body) < 21+idlen {
		return nil, fmt.Errorf("keyid of %d bytes, want the 65-byte server key", idlen)
	}
	asPublic := body[21 : 21+idlen]
	ciphertext := body[21+idlen:]
	if uint32(len(ciphertext)) > rs {
		return nil, fmt.Errorf("%d bytes in one record of %d", len(ciphertext), rs)
	}
	as, err := ecdh.P256().NewPublicKey(asPublic)
	if err != nil {
		return nil, fmt.Errorf("server key: %w", err)
	}
	secret, err := d.key.ECDH(as)
	if err != nil {
		return nil, err
	}
	info := append(append([]byte("WebPush: info\x00"), d.key.PublicKey().Bytes()...), asPublic...)
	ikm, err := hkdf.Key(sha256.New, secret, d.auth, string(info), 32)
	if err != nil {
		return nil, err
	}
	prk, err := hkdf.Extract(sha256.New, ikm, salt)
	if err != nil {
		return nil, err
	}
	cek, err := hkdf.Expand(sha256.New, prk, "Content-Encoding: aes128gcm\x00", 16)
	if err != nil {
		return nil, err
	}
	nonce, err := hkdf.Expand(sha256.New, prk, "Content-Encoding: nonce\x00", 12)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(cek)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	plain, err := gcm.Open(nil, nonce, ciphertext, nil)
	if err != nil {
		return nil, fmt.Errorf("open: %w", err)
	}
	// The only (so last) record: data, the delimiter 2, zero padding.
	plain = bytes.TrimRight(plain, "\x00")
	if len(plain) == 0 || plain[len(plain)-1] != 2 {
		return nil, errors.New("no last-record delimiter")
	}
	return plain[:len(plain)-1], nil
}

// pushRequest is one POST the test push service received.
type pushRequest struct {
	path   string
	header http.Header
	body   []byte
}

// pushService is the test's push service: loopback http, answering each
// path's POSTs with the status set for it (201 by default).
type pushService struct {
	*httptest.Server
	mu     sync.Mutex
	status map[string]int
	got    chan pushRequest
}

func newPushService(t *testing.T) *pushService {
	ps := &pushService{status: map[string]int{}, got: make(chan pushRequest, 16)}
	ps.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		ps.got <- pushRequest{path: r.URL.Path, header: r.Header.Clone(), body: body}
		ps.mu.Lock()
		code := ps.status[r.URL.Path]
		ps.mu.Unlock()
		if code == 0 {
			code = http.StatusCreated
		}
		w.WriteHeader(code)
	}))
	t.Cleanup(ps.Close)
	return ps
}

func (ps *pushService) next(t *testing.T) pushRequest {
	t.Helper()
	select {
	case r := <-ps.got:
		return r
	case <-time.After(15 * time.Second):
		t.Fatal("no push arrived")
		return pushRequest{}
	}
}

// pushStack is a live stack with the push routes and a push sender that may
// reach the loopback push service.
func pushStack(t *testing.T) (*liveStack, *app.PushSender) {
	t.Helper()
	var sender *app.PushSender
	st := newLiveStack(t, liveOptions{mutate: func(st *liveStack, d *Deps) {
		keys, err := app.LoadKeys(context.Background(), st.db, t.TempDir()+"/secret")
		if err != nil {
			t.Fatal(err)
		}
		d.Push = app.NewPush(app.PushDeps{DB: st.db, VAPID: keys.VAPID, AllowLoopbackHTTP: true})
		sender = app.NewPushSender(app.PushSenderOptions{DB: st.db, Log: testlog.New(t), VAPID: keys.VAPID,
			Subscriber: "support@campus.test", Product: "Campus", Online: st.live.Online, AllowLoopbackHTTP: true,
			RetryBase: 50 * time.Millisecond})
	}})
	sender.Start()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		sender.Stop(ctx)
	})
	return st, sender
}

// TestPushEndToEnd subscribes a device it made the keys of, has a friend
// comment while the user has no socket, and decrypts what reached the push
// service; with a socket open nothing is pushed; a 410 deletes the
// subscription.
func TestPushEndToEnd(t *testing.T) {
	st, sender := pushStack(t)
	ps := newPushService(t)
	alice, aliceTok := st.user(t, "Alice Push")
	_, bobTok := st.user(t, "Bob Push")
	postID := st.post(t, aliceTok, "Push me")

	status, env := st.call(t, "GET", "/api/push/key", "", nil)
	if status != 200 {
		t.Fatalf("GET /api/push/key: %d %v", status, env)
	}
	vapidKey, _ := data(env)["publicKey"].(string)
	vapidRaw, err := base64.RawURLEncoding.DecodeString(vapidKey)
	if err != nil || len(vapidRaw) != 65 {
		t.Fatalf("public key %q: %d bytes, %v", vapidKey, len(vapidRaw), err)
	}

	device := newPushDevice(t)
	endpoint := ps.URL + "/push/alice-phone"
	if status, env := st.call(t, "POST", "/api/push/subscriptions", aliceTok, device.subscription(endpoint)); status != 200 {
		t.Fatalf("subscribe: %d %v", status, env)
	}

	comment := func() {
		t.Helper()
		if status, env := st.call(t, "POST", "/api/posts/"+postID+"/comments", bobTok,
			map[string]any{"content": "Nice"}); status != 201 {
			t.Fatalf("comment: %d %v", status, env)
		}
	}

	t.Run("no socket: pushed, decrypts to the notification", func(t *testing.T) {
		before := sender.Stats()
		comment()
		r := ps.next(t)
		// The sender counts a push once the service has answered, a moment
		// after the service got it: counted here, it cannot land in the
		// next subtest's figures.
		waitFor(t, "the push to be counted as sent", func() bool { return sender.Stats().Sent > before.Sent })
		if r.path != "/push/alice-phone" {
			t.Fatalf("pushed to %s", r.path)
		}
		if ce := r.header.Get("Content-Encoding"); ce != "aes128gcm" {
			t.Fatalf("Content-Encoding %q", ce)
		}
		if r.header.Get("TTL") == "" {
			t.Fatal("no TTL header")
		}
		checkVAPID(t, r.header.Get("Authorization"), vapidRaw, ps.URL)
		plain, err := device.decrypt(r.body)
		if err != nil {
			t.Fatalf("decrypt: %v", err)
		}
		var got app.PushPayload
		if err := json.Unmarshal(plain, &got); err != nil {
			t.Fatalf("payload %q: %v", plain, err)
		}
		want := app.PushPayload{ID: got.ID, Type: persistence.NotifyComment, Title: "Campus",
			Body: "Bob Push commented on your post", URL: "/post/" + postID}
		if got != want {
			t.Fatalf("payload %+v, want %+v", got, want)
		}
		status, env := st.call(t, "GET", "/api/notifications", aliceTok, nil)
		ns, _ := data(env)["notifications"].([]any)
		if status != 200 || len(ns) == 0 || ns[0].(map[string]any)["id"] != got.ID {
			t.Fatalf("the push's id %s is not alice's newest notification: %d %v", got.ID, status, ns)
		}
	})

	t.Run("socket open: not pushed", func(t *testing.T) {
		before := sender.Stats()
		ws := st.connect(t, aliceTok)
		comment()
		ws.Next(t, protocol.EventNotification)
		waitFor(t, "the push to be skipped", func() bool { return sender.Stats().Skipped > before.Skipped })
		if s := sender.Stats(); s.Sent != before.Sent {
			t.Fatalf("sent %d pushes to a user with a socket open", s.Sent-before.Sent)
		}
		select {
		case r := <-ps.got:
			t.Fatalf("push service got a push for a user online: %s", r.path)
		default:
		}
		_ = ws.Close()
	})

	t.Run("410 deletes the subscription", func(t *testing.T) {
		ps.mu.Lock()
		ps.status["/push/alice-phone"] = http.StatusGone
		ps.mu.Unlock()
		// The socket of the last case may still be registered for a moment.
		waitFor(t, "alice to have no socket", func() bool {
			on, err := st.live.Online(context.Background(), alice.ID)
			return err == nil && !on
		})
		comment()
		ps.next(t)
		waitFor(t, "the subscription to be deleted", func() bool {
			n, err := st.db.NewSelect().Model((*persistence.PushSubscription)(nil)).
				Where("user_id = ?", alice.ID).Count(context.Background())
			return err == nil && n == 0
		})
	})
}

// checkVAPID verifies the RFC 8292 Authorization header: "vapid t=JWT,
// k=key", the key the server's, the token ES256-signed by it for the push
// service's origin.
func checkVAPID(t *testing.T, header string, public []byte, origin string) {
	t.Helper()
	rest, ok := strings.CutPrefix(header, "vapid ")
	if !ok {
		t.Fatalf("Authorization %q", header)
	}
	var tok, key string
	for _, part := range strings.Split(rest, ",") {
		part = strings.TrimSpace(part)
		if v, ok := strings.CutPrefix(part, "t="); ok {
			tok = v
		}
		if v, ok := strings.CutPrefix(part, "k="); ok {
			key = v
		}
	}
	if key != base64.RawURLEncoding.EncodeToString(public) {
		t.Fatalf("k=%s, want the server's public key", key)
	}
	x, y := new(big.Int).SetBytes(public[1:33]), new(big.Int).SetBytes(public[33:])
	pub := &ecdsa.PublicKey{Curve: elliptic.P256(), X: x, Y: y}
	claims := jwt.MapClaims{}
	if _, err := jwt.ParseWithClaims(tok, claims, func(*jwt.Token) (any, error) { return pub, nil },
		jwt.WithValidMethods([]string{"ES256"}), jwt.WithAudience(origin)); err != nil {
		t.Fatalf("VAPID token: %v", err)
	}
	if claims["sub"] != "mailto:support@campus.test" {
		t.Fatalf("VAPID sub %v", claims["sub"])
	}
}

// waitFor polls cond until it holds (10 s at most).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestPushSubscriptions checks the subscription routes' input rules.
func TestPushSubscriptions(t *testing.T) {
	st, _ := pushStack(t)
	_, tok := st.user(t, "Carol Push")
	_, otherTok := st.user(t, "Dan Push")
	device := newPushDevice(t)
	good := device.subscription("http://127.0.0.1:9/push/carol")
	with := func(mut func(m map[string]any)) map[string]any {
		b, _ := json.Marshal(good)
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		mut(m)
		return m
	}
	keys := func(m map[string]any) map[string]any { return m["keys"].(map[string]any) }
	cases := []struct {
		name   string
		method string
		token  string
		body   any
		status int
		field  string
	}{
		{"signed out", "POST", "", good, 401, ""},
		{"http off loopback", "POST", tok, with(func(m map[string]any) { m["endpoint"] = "http://push.example.com/x" }), 400, "endpoint"},
		{"private https", "POST", tok, with(func(m map[string]any) { m["endpoint"] = "https://10.0.0.7/x" }), 400, "endpoint"},
		{"metadata address", "POST", tok, with(func(m map[string]any) { m["endpoint"] = "https://169.254.169.254/x" }), 400, "endpoint"},
		{"no endpoint", "POST", tok, with(func(m map[string]any) { delete(m, "endpoint") }), 400, "endpoint"},
		{"short p256dh", "POST", tok, with(func(m map[string]any) { keys(m)["p256dh"] = "AAAA" }), 400, "keys.p256dh"},
		{"p256dh off the curve", "POST", tok, with(func(m map[string]any) {
			keys(m)["p256dh"] = base64.RawURLEncoding.EncodeToString(append([]byte{4}, make([]byte, 64)...))
		}), 400, "keys.p256dh"},
		{"auth not 16 bytes", "POST", tok, with(func(m map[string]any) { keys(m)["auth"] = "AAAA" }), 400, "keys.auth"},
		{"subscribe", "POST", tok, good, 200, ""},
		{"subscribe again", "POST", tok, good, 200, ""},
		{"another user's device cannot unsubscribe it", "DELETE", otherTok, map[string]any{"endpoint": good["endpoint"]}, 200, ""},
		{"unsubscribe", "DELETE", tok, map[string]any{"endpoint": good["endpoint"]}, 200, ""},
		{"unsubscribe without endpoint", "DELETE", tok, map[string]any{}, 400, "endpoint"},
	}
	count := func() int64 {
		n, err := st.db.NewSelect().Model((*persistence.PushSubscription)(nil)).Count(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, env := st.call(t, c.method, "/api/push/subscriptions", c.token, c.body)
			if status != c.status {
				t.Fatalf("%d %v, want %d", status, env, c.status)
			}
			if c.field != "" {
				if e := env["errors"]; e == nil || !strings.Contains(fmt.Sprint(e), c.field) {
					t.Fatalf("error %v does not name %s", env, c.field)
				}
			}
			want := int64(0)
			switch c.name {
			case "subscribe", "subscribe again", "another user's device cannot unsubscribe it":
				want = 1
			}
			if got := count(); got != want {
				t.Fatalf("%d subscriptions stored, want %d", got, want)
			}
		})
	}
}
