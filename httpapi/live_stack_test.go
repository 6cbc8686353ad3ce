package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"mime/multipart"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/rs/zerolog"
	"github.com/uptrace/bun"
	"github.com/valyala/fasthttp"

	"campus/actors"
	"campus/app"
	"campus/cluster"
	"campus/config"
	"campus/httpapi/wstest"
	"campus/mail"
	"campus/media"
	"campus/persistence"
	"campus/persistence/testdb"
	"campus/realtime"
	"campus/testlog"
)

// liveStack is a whole node over real TCP: fresh Postgres, a cluster of one
// with the post and user grains, the hub, the media store, the sessions
// with their revocation listener, and the HTTP server with every post and
// websocket route.
type liveStack struct {
	db       *bun.DB
	sessions *app.Sessions
	live     *actors.Live
	node     *cluster.Node
	hub      *realtime.Hub
	sockets  *realtime.Sockets
	media    *media.Store
	mediaDir string
	srv      *Server
	addr     string // host:port
	client   *fasthttp.Client
	// mailDir holds the mail the node sent (one .eml file each), through
	// the outbox sender mail.
	mailDir string
	mail    *app.MailSender
}

type liveOptions struct {
	// mutate changes the server's deps before it starts; st has its
	// database, sessions, grains, hub and media store by then.
	mutate func(st *liveStack, d *Deps)
	// countInterval is the node's count clock (default 250 ms).
	countInterval time.Duration
	// live changes the live core's configuration.
	live func(*actors.Config)
	// db, when set, is the database to use (another stack's: two nodes of
	// one cluster); nil makes a fresh one.
	db *bun.DB
	// cluster changes the cluster member's options (a provider other than
	// the cluster of one).
	cluster func(*cluster.Options)
}

func newLiveStack(t *testing.T, o liveOptions) *liveStack {
	t.Helper()
	ctx := context.Background()
	log := testlog.New(t)
	st := &liveStack{db: o.db, mediaDir: t.TempDir()}
	if st.db == nil {
		st.db = testdb.New(t)
	}
	var err error
	if st.media, err = media.New(st.mediaDir, zerolog.Nop()); err != nil {
		t.Fatal(err)
	}
	keys, err := app.LoadKeys(ctx, st.db, t.TempDir()+"/secret")
	if err != nil {
		t.Fatal(err)
	}
	signer, err := app.NewSigner(keys.Token, "Campus")
	if err != nil {
		t.Fatal(err)
	}
	st.sessions = app.NewSessions(st.db, signer, log)
	lctx, stopListen := context.WithCancel(ctx)
	listening := make(chan struct{})
	go func() { st.sessions.Listen(lctx); close(listening) }()
	waitListening(t, st.sessions)

	lc := actors.Config{DB: st.db, Log: log, Render: app.NotificationFrames, RenderMessages: app.MessageFrames(st.db),
		CallTimeout: 10 * time.Second, CountInterval: o.countInterval}
	if o.live != nil {
		o.live(&lc)
	}
	st.live = actors.New(lc)
	co := cluster.Options{Name: "campus-" + uuid.NewString()[:8], Addr: "127.0.0.1:0", Kinds: st.live.Kinds(), Log: log}
	if o.cluster != nil {
		o.cluster(&co)
	}
	node, err := cluster.Start(ctx, co)
	if err != nil {
		t.Fatal(err)
	}
	st.node = node
	st.live.Start(node.Cluster, node.Addresses, node.Confirm)
	if st.hub, err = realtime.StartHub(node.System, log, realtime.HubOptions{CountInterval: o.countInterval,
		Members: node.Members, PostsBy: st.live.PostsBy}); err != nil {
		t.Fatal(err)
	}
	st.sessions.OnRevoke(st.hub.UserRevoked)
	st.sessions.OnBlock(st.hub.UsersBlocked)
	st.sockets = realtime.New(st.hub, log, realtime.Options{})

	st.mailDir = t.TempDir()
	mailer, err := mail.NewDir(st.mailDir, "Campus <no-reply@campus.test>")
	if err != nil {
		t.Fatal(err)
	}
	st.mail = startMailSender(t, st.db, mailer)
	cfg, err := config.Load(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	cfg.ClientDir = "testdata/dist"
	d := Deps{
		Config: cfg, Log: log, Media: st.media.Handler(), Sessions: st.sessions,
		Accounts: app.NewAccounts(app.AccountsDeps{DB: st.db, Hasher: app.NewHasher(2), Sessions: st.sessions,
			Mail: st.mail, Media: st.media, CodeKey: keys.Code, Product: "Campus", Log: zerolog.Nop()}),
		Posts:         app.NewPosts(app.PostsDeps{DB: st.db, Media: st.media, Grains: st.live, Fanout: st.live, Log: log}),
		Realtime:      app.NewRealtime(st.db, st.sessions, nil),
		Sockets:       st.sockets,
		Notifications: app.NewNotifications(app.NotificationsDeps{DB: st.db, Log: log}),
	}
	if o.mutate != nil {
		o.mutate(st, &d)
	}
	st.srv = New(d)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	st.addr = ln.Addr().String()
	go func() { _ = st.srv.Serve(ln) }()
	st.client = &fasthttp.Client{MaxConnsPerHost: 1000, ReadTimeout: 30 * time.Second}

	// Undone in reverse before testdb drops the database: sockets, HTTP,
	// grains, cluster, listener.
	t.Cleanup(func() {
		sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		_ = st.sockets.CloseAll(sctx, "test over")
		_ = st.srv.Shutdown(sctx)
		st.live.Drain(sctx)
		node.Stop()
		stopListen()
		<-listening
	})
	return st
}

// user creates a verified user directly in the database and signs a token.
func (st *liveStack) user(t *testing.T, name string) (*persistence.User, string) {
	t.Helper()
	u := &persistence.User{ID: persistence.NewID(), Name: name, Role: "student", PasswordHash: "x",
		Email:           strings.ToLower(strings.ReplaceAll(name, " ", ".")) + "-" + uuid.NewString()[:6] + "@uni.edu",
		EmailVerifiedAt: time.Now()}
	if err := persistence.InsertUser(context.Background(), st.db, u); err != nil {
		t.Fatal(err)
	}
	tok, err := st.sessions.Issue(u)
	if err != nil {
		t.Fatal(err)
	}
	return u, tok
}

// request sends one HTTP request; body is JSON-encoded unless it is []byte.
func (st *liveStack) request(t testing.TB, method, path, token string, body any, contentType string) (int, map[string]any) {
	t.Helper()
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	req.SetRequestURI("http://" + st.addr + path)
	req.Header.SetMethod(method)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	switch b := body.(type) {
	case nil:
	case []byte:
		req.SetBody(b)
		req.Header.SetContentType(contentType)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		req.SetBody(raw)
		req.Header.SetContentType("application/json")
	}
	if err := st.client.DoTimeout(req, resp, 30*time.Second); err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	var env map[string]any
	if err := json.Unmarshal(resp.Body(), &env); err != nil {
		t.Fatalf("%s %s: not JSON (%d): %q", method, path, resp.StatusCode(), resp.Body())
	}
	return resp.StatusCode(), env
}

func (st *liveStack) call(t testing.TB, method, path, token string, body any) (int, map[string]any) {
	t.Helper()
	return st.request(t, method, path, token, body, "")
}

// multipartBody builds a form with text fields and files under "images".
func multipartBody(t *testing.T, fields map[string]string, files map[string][]byte) ([]byte, string) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for k, v := range fields {
		if err := w.WriteField(k, v); err != nil {
			t.Fatal(err)
		}
	}
	for name, data := range files {
		fw, err := w.CreateFormFile("images", name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fw.Write(data); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), w.FormDataContentType()
}

// post creates a text post and answers its id.
func (st *liveStack) post(t *testing.T, token, content string) string {
	t.Helper()
	status, env := st.call(t, "POST", "/api/posts", token, map[string]any{"content": content, "visibility": "public"})
	if status != 201 {
		t.Fatalf("create post: %d %v", status, env)
	}
	return data(env)["post"].(map[string]any)["id"].(string)
}

// dial opens /api/ws on the stack with extra headers and sends the token
// (if any) as the first frame.
func (st *liveStack) dial(t *testing.T, token string, header http.Header) (*wstest.Conn, *http.Response, error) {
	t.Helper()
	return wstest.Dial(t, st.addr, token, header)
}

// connect dials and waits for the ready frame.
func (st *liveStack) connect(t *testing.T, token string) *wstest.Conn {
	t.Helper()
	return wstest.Connect(t, st.addr, token)
}
