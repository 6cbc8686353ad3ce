package app

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/uuid"

	"campus/persistence"
)

// TestValidPushEndpoint is the SSRF rule: https on public addresses only,
// plain http on loopback only with the tests' flag.
func TestValidPushEndpoint(t *testing.T) {
	cases := []struct {
		endpoint      string
		allowLoopback bool
		ok            bool
	}{
		{"https://fcm.googleapis.com/fcm/send/abc", false, true},
		{"https://updates.push.services.mozilla.com/wpush/v2/x", false, true},
		{"https://8.8.8.8/x", false, true},
		{"http://fcm.googleapis.com/fcm/send/abc", false, false},
		{"http://127.0.0.1:8080/push", false, false},
		{"http://127.0.0.1:8080/push", true, true},
		{"http://[::1]:8080/push", true, true},
		{"http://localhost:8080/push", true, true},
		{"http://push.example.com/x", true, false},
		{"https://127.0.0.1/push", false, false},
		{"https://localhost/push", false, false},
		{"https://api.localhost/push", false, false},
		{"https://10.1.2.3/x", false, false},
		{"https://192.168.0.1/x", false, false},
		{"https://100.64.0.1/x", false, false},
		{"https://169.254.169.254/latest/meta-data", false, false},
		{"https://[fd00::1]/x", false, false},
		{"https://[::ffff:10.0.0.1]/x", false, false},
		{"https://0.0.0.0/x", false, false},
		{"https://user:pw@push.example.com/x", false, false},
		{"ftp://push.example.com/x", false, false},
		{"push.example.com/x", false, false},
		{"", false, false},
		{"https://push.example.com/" + string(make([]byte, 2100)), false, false},
	}
	for _, c := range cases {
		t.Run(c.endpoint, func(t *testing.T) {
			err := ValidPushEndpoint(c.endpoint, c.allowLoopback)
			if (err == nil) != c.ok {
				t.Fatalf("ValidPushEndpoint(%q, %v) = %v, want ok=%v", c.endpoint, c.allowLoopback, err, c.ok)
			}
		})
	}
}

// TestPushDialControl refuses to connect to addresses that are not public,
// whatever name resolved to them.
func TestPushDialControl(t *testing.T) {
	cases := []struct {
		addr          string
		allowLoopback bool
		ok            bool
	}{
		{"142.250.1.1:443", false, true},
		{"[2a00:1450::1]:443", false, true},
		{"127.0.0.1:443", false, false},
		{"127.0.0.1:443", true, true},
		{"10.0.0.1:443", true, false},
		{"169.254.169.254:80", false, false},
		{"[::1]:443", false, false},
		{"[fe80::1]:443", false, false},
	}
	for _, c := range cases {
		t.Run(c.addr, func(t *testing.T) {
			err := pushDialControl(c.allowLoopback)("tcp", c.addr, nil)
			if (err == nil) != c.ok || (err != nil && !errors.Is(err, errPrivateAddr)) {
				t.Fatalf("dial %s (loopback %v): %v, want ok=%v", c.addr, c.allowLoopback, err, c.ok)
			}
		})
	}
}

// TestMessagePayload: what a message push shows, by conversation kind and
// how much came; never more than a short snippet of the text.
func TestMessagePayload(t *testing.T) {
	conv := uuid.New()
	long := strings.Repeat("word ", 40)
	cases := []struct {
		name        string
		f           persistence.MessagePushFacts
		title, body string
	}{
		{"direct, one", persistence.MessagePushFacts{Kind: "direct", Unread: 1, Senders: 1, SenderName: "Asha", Body: "hi\n there"},
			"Asha", "hi there"},
		{"direct, three", persistence.MessagePushFacts{Kind: "direct", Unread: 3, Senders: 1, SenderName: "Asha", Body: "x"},
			"Asha", "3 new messages from Asha"},
		{"group, one", persistence.MessagePushFacts{Kind: "group", Title: "Club", Unread: 1, Senders: 1, SenderName: "Asha", Body: "hi"},
			"Club", "Asha: hi"},
		{"group, several people", persistence.MessagePushFacts{Kind: "group", Title: "Club", Unread: 4, Senders: 2, SenderName: "Asha", Body: "hi"},
			"Club", "4 new messages"},
		{"one photo", persistence.MessagePushFacts{Kind: "direct", Unread: 1, Senders: 1, SenderName: "Asha", Images: 1},
			"Asha", "Photo"},
		{"two photos", persistence.MessagePushFacts{Kind: "group", Title: "Club", Unread: 1, Senders: 1, SenderName: "Asha", Images: 2},
			"Club", "Asha: 2 photos"},
		{"a long text is cut", persistence.MessagePushFacts{Kind: "direct", Unread: 1, Senders: 1, SenderName: "Asha", Body: long},
			"Asha", strings.TrimSpace(long[:79]) + "…"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := messagePayload(conv, &c.f)
			if p.Title != c.title || p.Body != c.body || p.Type != "message" || p.URL != "/messages/"+conv.String() || p.ID != conv.String() {
				t.Fatalf("%+v, want title %q body %q", p, c.title, c.body)
			}
			if n := utf8.RuneCountInString(p.Body); n > maxPushSnippet+len(c.f.SenderName)+2 {
				t.Fatalf("body of %d characters", n)
			}
		})
	}
}
