package httpapi

import (
	"context"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/uptrace/bun"

	"campus/app"
	"campus/mail"
	"campus/media"
	"campus/persistence/testdb"
)

// stack is a whole node's HTTP side over a fresh real database, a real
// file mailer and a real media store: what integration tests talk to.
type stack struct {
	*testServer
	db       *bun.DB
	mailDir  string
	sessions *app.Sessions
	accounts *app.Accounts
	media    *media.Store
}

type stackOptions struct {
	rateLimits bool
}

func newStack(t *testing.T, o stackOptions) *stack {
	t.Helper()
	db := testdb.New(t)
	st := &stack{db: db, mailDir: t.TempDir()}
	mailer, err := mail.NewDir(st.mailDir, "Campus <no-reply@campus.test>")
	if err != nil {
		t.Fatal(err)
	}
	st.media, err = media.New(t.TempDir(), zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	keys, err := app.LoadKeys(context.Background(), db, t.TempDir()+"/secret")
	if err != nil {
		t.Fatal(err)
	}
	signer, err := app.NewSigner(keys.Token, "Campus")
	if err != nil {
		t.Fatal(err)
	}
	st.sessions = app.NewSessions(db, signer, zerolog.Nop())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { st.sessions.Listen(ctx); close(done) }()
	// Stop listening before testdb drops the database.
	t.Cleanup(func() { cancel(); <-done })
	waitListening(t, st.sessions)
	st.accounts = app.NewAccounts(app.AccountsDeps{
		DB: db, Hasher: app.NewHasher(2), Sessions: st.sessions, Mail: startMailSender(t, db, mailer), Media: st.media,
		CodeKey: keys.Code, Product: "Campus", RateLimits: o.rateLimits, Log: zerolog.Nop(),
	})
	st.testServer = newTestServer(t, func(d *Deps) {
		d.Sessions = st.sessions
		d.Accounts = st.accounts
		d.Media = st.media.Handler()
	})
	return st
}

// startMailSender runs a mail outbox sender over db until the test ends
// (stopped before testdb drops the database).
func startMailSender(t *testing.T, db *bun.DB, mailer mail.Mailer) *app.MailSender {
	t.Helper()
	s := app.NewMailSender(app.MailSenderOptions{DB: db, Mailer: mailer, Log: zerolog.Nop()})
	s.Start()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		s.Stop(ctx)
	})
	return s
}

// call sends a JSON request (token may be empty) and decodes the envelope.
func (st *stack) call(t *testing.T, method, path, token string, body any) (int, map[string]any) {
	t.Helper()
	var raw []byte
	if body != nil {
		var err error
		if raw, err = json.Marshal(body); err != nil {
			t.Fatal(err)
		}
	}
	headers := []string{"Content-Type", "application/json"}
	if token != "" {
		headers = append(headers, "Authorization", "Bearer "+token)
	}
	a := st.do(t, method, path, raw, headers...)
	return a.status, envelope(t, a.body)
}

// mailWait bounds the wait for a mail the outbox sends after the answer;
// generous, since a busy machine may take seconds to get to it.
const mailWait = 30 * time.Second

var codePattern = regexp.MustCompile(`\b(\d{6})\b`)

// code waits for the newest mail to addr newer than since and returns its
// 6-digit code. Mail may be sent after the answer (forgot-password), so it
// polls until mailWait, a bound for a stuck outbox, not a speed check.
func (st *stack) code(t *testing.T, addr string, since time.Time) string {
	t.Helper()
	deadline := time.Now().Add(mailWait)
	for time.Now().Before(deadline) {
		if path, err := mail.LatestFor(st.mailDir, addr); err == nil {
			if sent, err := mail.SentAt(path); err == nil && !sent.Before(since) {
				b, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if m := codePattern.FindSubmatch(b); m != nil {
					return string(m[1])
				}
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no code mailed to %s", addr)
	return ""
}

// nextCode waits until addr has received more than before messages and
// returns the code of the newest: for mail sent after the answer.
func (st *stack) nextCode(t *testing.T, addr string, before int) string {
	t.Helper()
	deadline := time.Now().Add(mailWait)
	for st.mails(t, addr) <= before {
		if time.Now().After(deadline) {
			t.Fatalf("no new mail to %s", addr)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return st.code(t, addr, time.Time{})
}

// waitMail waits until the newest mail to addr contains want: mail goes
// out from the outbox after the answer.
func (st *stack) waitMail(t *testing.T, addr, want string) {
	t.Helper()
	deadline := time.Now().Add(mailWait)
	for {
		if body, err := mailLatest(st.mailDir, addr); err == nil && strings.Contains(body, want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no mail to %s containing %q", addr, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// mails counts the messages sent to addr.
func (st *stack) mails(t *testing.T, addr string) int {
	t.Helper()
	entries, err := os.ReadDir(st.mailDir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if len(e.Name()) > len(addr) && regexp.MustCompile(`-`+regexp.QuoteMeta(addr)+`\.eml$`).MatchString(e.Name()) {
			n++
		}
	}
	return n
}

// signedUp creates a verified student through the API and returns its token
// and id.
func (st *stack) signedUp(t *testing.T, name, email, uid, password string) (token, id string) {
	t.Helper()
	start := time.Now().Add(-time.Second)
	status, env := st.call(t, "POST", "/api/auth/signup", "", map[string]any{
		"name": name, "email": email, "password": password, "role": "student", "collegeId": uid,
	})
	if status != 201 {
		t.Fatalf("signup %s: %d %v", email, status, env)
	}
	code := st.code(t, email, start)
	status, env = st.call(t, "POST", "/api/auth/verify-otp", "", map[string]any{"email": email, "otp": code})
	if status != 200 {
		t.Fatalf("verify %s: %d %v", email, status, env)
	}
	data := env["data"].(map[string]any)
	return data["token"].(string), data["user"].(map[string]any)["id"].(string)
}

// waitListening waits until sessions receives revocations: one sent
// before would reach nobody, and a test that revokes a token expects its
// sockets to close.
func waitListening(t *testing.T, sessions *app.Sessions) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !sessions.Listening() {
		if time.Now().After(deadline) {
			t.Fatal("the revocation listener did not start")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func data(env map[string]any) map[string]any {
	d, _ := env["data"].(map[string]any)
	return d
}

func mailLatest(dir, addr string) (string, error) {
	path, err := mail.LatestFor(dir, addr)
	if err != nil {
		return "", err
	}
	b, err := os.ReadFile(path)
	return string(b), err
}
