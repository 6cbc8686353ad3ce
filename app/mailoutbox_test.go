package app

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
	"github.com/uptrace/bun"

	"campus/domain"
	"campus/mail"
	"campus/mail/smtptest"
	"campus/persistence"
	"campus/persistence/testdb"
	"campus/testlog"
)

const outboxFrom = "Campus <no-reply@campus.test>"

// mailNode is one app instance: its accounts use cases and its mail sender,
// sharing the test's database with any other node.
type mailNode struct {
	accounts *Accounts
	sender   *MailSender
}

// newMailNode starts an instance whose mail goes to the SMTP server at addr
// (which need not be up). Retries are fast so tests need not wait out
// production backoff; the sender stops before testdb drops the database.
func newMailNode(t *testing.T, db *bun.DB, addr string) *mailNode {
	t.Helper()
	log := testlog.New(t)
	mailer, err := mail.NewSMTP("smtp://"+addr, outboxFrom)
	if err != nil {
		t.Fatal(err)
	}
	sender := NewMailSender(MailSenderOptions{
		DB: db, Mailer: mailer, Log: log,
		RetryBase: 20 * time.Millisecond, RetryMax: 300 * time.Millisecond, SendTimeout: 5 * time.Second,
	})
	sender.Start()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		sender.Stop(ctx)
	})
	keys, err := LoadKeys(context.Background(), db, t.TempDir()+"/secret")
	if err != nil {
		t.Fatal(err)
	}
	signer, err := NewSigner(keys.Token, "Campus")
	if err != nil {
		t.Fatal(err)
	}
	accounts := NewAccounts(AccountsDeps{
		DB: db, Hasher: NewHasher(1), Sessions: NewSessions(db, signer, log), Mail: sender,
		CodeKey: keys.Code, Product: "Campus", Log: log,
	})
	return &mailNode{accounts: accounts, sender: sender}
}

// waitUntil polls cond until it holds or the deadline passes.
func waitUntil(t *testing.T, what string, within time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// queuedMail lists the queued mail, oldest first.
func queuedMail(t *testing.T, db bun.IDB) []persistence.QueuedMail {
	t.Helper()
	var rows []persistence.QueuedMail
	if err := db.NewSelect().Model(&rows).OrderExpr("created_at, id").Scan(context.Background()); err != nil {
		t.Fatal(err)
	}
	return rows
}

var mailedCode = regexp.MustCompile(`code is: (\d{6})`)

// mailedCodeOf is the one-time code in a received message.
func mailedCodeOf(t *testing.T, m smtptest.Message) string {
	t.Helper()
	c := mailedCode.FindSubmatch(m.Data)
	if c == nil {
		t.Fatalf("no code in the message:\n%s", m.Data)
	}
	return string(c[1])
}

func facultySignup(email string) domain.SignupInput {
	return domain.SignupInput{Name: "Meera Iyer", Email: email, Password: "correct horse 1", Role: "faculty", CollegeID: "Physics"}
}

// TestSignupWhileMailServerDown is the fault test of issue 14: with the mail
// server down a signup answers as the spec says, the code goes out once the
// server is back, exactly once, and it verifies the account.
func TestSignupWhileMailServerDown(t *testing.T) {
	const addr = "meera@uni.edu"
	tests := []struct {
		name string
		// during runs while the server is down, after the signup.
		during func(t *testing.T, n *mailNode, db *bun.DB)
		// dropped is how many unsent mails the sender must have dropped.
		dropped int64
	}{
		{name: "signup only", during: func(*testing.T, *mailNode, *bun.DB) {}},
		{name: "a resend after the cooldown replaces the unsent code", dropped: 1,
			during: func(t *testing.T, n *mailNode, db *bun.DB) {
				clock := time.Now().Add(domain.OTPResendCooldown + time.Second)
				n.accounts.now = func() time.Time { return clock }
				res, err := n.accounts.Resend(context.Background(), domain.ResendInput{Email: addr}, "10.0.0.1")
				if err != nil || res.Message != domain.MsgOTPResent {
					t.Fatalf("resend: %+v %v", res, err)
				}
				// The first code no longer works, so its mail goes unsent.
				waitUntil(t, "the retired code's mail to be dropped", 10*time.Second, func() bool {
					return len(queuedMail(t, db)) == 1
				})
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			db := testdb.New(t)
			down := smtptest.ClosedAddr(t)
			n := newMailNode(t, db, down)
			if err := n.sender.Health(); err != nil {
				t.Fatalf("health before any attempt: %v", err)
			}

			res, err := n.accounts.Signup(ctx, facultySignup(addr), "10.0.0.1")
			if err != nil {
				t.Fatalf("signup with the mail server down: %v", err)
			}
			if res.Message != domain.MsgCodeSent || res.Email != addr {
				t.Fatalf("signup answered %+v, want %q for %s", res, domain.MsgCodeSent, addr)
			}
			// The sender has tried the server and failed: the mail waits.
			waitUntil(t, "a failed delivery attempt", 10*time.Second, func() bool {
				rows := queuedMail(t, db)
				return len(rows) == 1 && rows[0].Attempts >= 1
			})
			// The readiness answer's mail state says so (counted after the
			// commit, so waited for too).
			waitUntil(t, "mail health to say failing", 10*time.Second, func() bool {
				return errors.Is(n.sender.Health(), ErrMailFailing)
			})
			tt.during(t, n, db)
			if got := n.sender.Stats().Sent; got != 0 {
				t.Fatalf("%d mails sent while the server was down", got)
			}

			srv := smtptest.Start(t, smtptest.Options{Addr: down})
			waitUntil(t, "the code to arrive", 10*time.Second, func() bool { return len(srv.Messages()) > 0 })
			// Once the row is gone nothing can send the mail again. (The
			// sender counts after its commit, so wait for that too.)
			waitUntil(t, "the outbox to empty", 10*time.Second, func() bool {
				return len(queuedMail(t, db)) == 0 && n.sender.Stats().Sent > 0
			})
			got := srv.Messages()
			if len(got) != 1 {
				t.Fatalf("server received %d messages, want exactly 1", len(got))
			}
			if len(got[0].To) != 1 || got[0].To[0] != addr {
				t.Fatalf("mail went to %v, want %s", got[0].To, addr)
			}
			if s := n.sender.Stats(); s.Sent != 1 || s.Failed < 1 || s.Dropped != tt.dropped {
				t.Fatalf("sender stats %+v, want 1 sent, some failed, %d dropped", s, tt.dropped)
			}
			if err := n.sender.Health(); err != nil {
				t.Fatalf("health after a delivery: %v", err)
			}
			auth, err := n.accounts.VerifySignup(ctx, domain.VerifyInput{Email: addr, OTP: mailedCodeOf(t, got[0])})
			if err != nil {
				t.Fatalf("verify with the mailed code: %v", err)
			}
			if auth.Token == "" || auth.User.Email != addr {
				t.Fatalf("verify answered %+v", auth)
			}
		})
	}
}

// TestTwoSendersDeliverEachMailOnce runs two nodes over one database and one
// (slow) SMTP server: every queued mail arrives exactly once.
func TestTwoSendersDeliverEachMailOnce(t *testing.T) {
	ctx := context.Background()
	db := testdb.New(t)
	srv := smtptest.Start(t, smtptest.Options{Delay: 20 * time.Millisecond})
	nodes := []*mailNode{newMailNode(t, db, srv.Addr()), newMailNode(t, db, srv.Addr())}

	const perNode = 15
	want := map[string]bool{}
	for i := range perNode {
		for j, n := range nodes {
			to := fmt.Sprintf("user%d.%d@uni.edu", j, i)
			want[to] = true
			err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
				return persistence.QueueMail(ctx, tx, &persistence.QueuedMail{
					Kind: "test", Recipient: to, Subject: "Hello", Text: "Hello " + to,
					ExpiresAt: time.Now().Add(time.Hour),
				})
			})
			if err != nil {
				t.Fatal(err)
			}
			n.sender.Wake() // as a use case does after its commit
		}
	}
	// The senders count after their commits: wait for the counts too.
	waitUntil(t, "the outbox to empty", 30*time.Second, func() bool {
		return len(queuedMail(t, db)) == 0 &&
			nodes[0].sender.Stats().Sent+nodes[1].sender.Stats().Sent >= perNode*int64(len(nodes))
	})

	got := srv.Messages()
	seen := map[string]int{}
	ids := map[string]int{}
	for _, m := range got {
		for _, to := range m.To {
			seen[to]++
		}
		ids[m.MessageID]++
	}
	for to := range want {
		if seen[to] != 1 {
			t.Errorf("%s received %d messages, want 1", to, seen[to])
		}
	}
	if len(got) != len(want) {
		t.Errorf("server received %d messages, want %d", len(got), len(want))
	}
	for id, n := range ids {
		if id == "" || n != 1 {
			t.Errorf("Message-ID %q seen %d times", id, n)
		}
	}
	a, b := nodes[0].sender.Stats(), nodes[1].sender.Stats()
	if a.Sent+b.Sent != int64(len(want)) {
		t.Errorf("senders counted %d + %d sent, want %d in all", a.Sent, b.Sent, len(want))
	}
	t.Logf("node 0 sent %d, node 1 sent %d", a.Sent, b.Sent)
}

// TestOutboxFollowsTheTransaction: mail queued in a transaction that rolls
// back never exists, so it is never sent; committed mail is.
func TestOutboxFollowsTheTransaction(t *testing.T) {
	errBoom := errors.New("boom")
	tests := []struct {
		name   string
		fail   error // what the transaction returns
		wantIn int   // rows in the outbox right after it
	}{
		{"committed", nil, 1},
		{"rolled back", errBoom, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			db := testdb.New(t)
			// The server is down while the transaction runs, so a committed
			// row is still there to be counted.
			down := smtptest.ClosedAddr(t)
			n := newMailNode(t, db, down)
			err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
				if err := persistence.QueueMail(ctx, tx, &persistence.QueuedMail{
					Kind: "test", Recipient: "tx@uni.edu", Subject: "In a transaction", Text: "tx",
					ExpiresAt: time.Now().Add(time.Hour),
				}); err != nil {
					return err
				}
				return tt.fail
			})
			if !errors.Is(err, tt.fail) {
				t.Fatalf("transaction: %v, want %v", err, tt.fail)
			}
			n.sender.Wake()
			if got := len(queuedMail(t, db)); got != tt.wantIn {
				t.Fatalf("outbox holds %d rows, want %d", got, tt.wantIn)
			}

			// A marker committed afterwards: once the outbox is empty the
			// sender has been through everything that ever committed.
			srv := smtptest.Start(t, smtptest.Options{Addr: down})
			err = db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
				return persistence.QueueMail(ctx, tx, &persistence.QueuedMail{
					Kind: "test", Recipient: "marker@uni.edu", Subject: "Marker", Text: "marker",
					ExpiresAt: time.Now().Add(time.Hour),
				})
			})
			if err != nil {
				t.Fatal(err)
			}
			waitUntil(t, "the outbox to empty", 10*time.Second, func() bool { return len(queuedMail(t, db)) == 0 })
			var to []string
			for _, m := range srv.Messages() {
				to = append(to, m.To...)
			}
			slices.Sort(to) // a retried row may go after the marker
			want := []string{"marker@uni.edu"}
			if tt.wantIn == 1 {
				want = []string{"marker@uni.edu", "tx@uni.edu"}
			}
			if !slices.Equal(to, want) {
				t.Fatalf("delivered to %v, want %v", to, want)
			}
		})
	}
}

// TestUndeliverableMail: a permanent refusal drops the mail at once, a
// temporary one keeps it for another try.
func TestUndeliverableMail(t *testing.T) {
	tests := []struct {
		name      string
		code      int
		wantKept  bool
		wantStats func(MailStats) bool
	}{
		{"550 mailbox unknown: dropped", 550, false, func(s MailStats) bool { return s.Dropped == 1 && s.Sent == 0 }},
		{"451 try again later: kept", 451, true, func(s MailStats) bool { return s.Failed >= 1 && s.Dropped == 0 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			db := testdb.New(t)
			srv := smtptest.Start(t, smtptest.Options{Reject: func(string) error {
				return &smtp.SMTPError{Code: tt.code, Message: "not now, not here"}
			}})
			n := newMailNode(t, db, srv.Addr())
			err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
				return persistence.QueueMail(ctx, tx, &persistence.QueuedMail{
					Kind: "test", Recipient: "nobody@uni.edu", Subject: "Hi", Text: "hi",
					ExpiresAt: time.Now().Add(time.Hour),
				})
			})
			if err != nil {
				t.Fatal(err)
			}
			n.sender.Wake()
			waitUntil(t, "the refusal to be handled", 10*time.Second, func() bool { return tt.wantStats(n.sender.Stats()) })
			if kept := len(queuedMail(t, db)) == 1; kept != tt.wantKept {
				t.Fatalf("mail kept = %v, want %v", kept, tt.wantKept)
			}
			if got := len(srv.Messages()); got != 0 {
				t.Fatalf("server accepted %d messages", got)
			}
		})
	}
}

// TestStopWaitsForTheSendInFlight: Stop lets a send that is under way
// finish within its grace, and abandons it (the mail stays queued, not
// lost) when the grace is too short.
func TestStopWaitsForTheSendInFlight(t *testing.T) {
	tests := []struct {
		name      string
		grace     time.Duration
		delivered bool
	}{
		{"grace long enough", 10 * time.Second, true},
		{"grace too short", 50 * time.Millisecond, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			db := testdb.New(t)
			srv := smtptest.Start(t, smtptest.Options{Delay: 2 * time.Second})
			n := newMailNode(t, db, srv.Addr())
			err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
				return persistence.QueueMail(ctx, tx, &persistence.QueuedMail{
					Kind: "test", Recipient: "slow@uni.edu", Subject: "Slow", Text: "slow",
					ExpiresAt: time.Now().Add(time.Hour),
				})
			})
			if err != nil {
				t.Fatal(err)
			}
			n.sender.Wake()
			waitUntil(t, "the send to be under way", 10*time.Second, func() bool { return srv.InData() == 1 })
			sctx, cancel := context.WithTimeout(ctx, tt.grace)
			n.sender.Stop(sctx)
			cancel()
			if kept := len(queuedMail(t, db)) == 1; kept == tt.delivered {
				t.Fatalf("after Stop the mail is still queued = %v, want %v", kept, !tt.delivered)
			}
			if got := n.sender.Stats().Sent; (got == 1) != tt.delivered {
				t.Fatalf("sent %d, want delivered = %v", got, tt.delivered)
			}
		})
	}
}
