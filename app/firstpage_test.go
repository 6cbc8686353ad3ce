package app

import (
	"bytes"
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
)

// TestFirstPagePass checks the pass a token's holder gets for the feed's
// document: it names the token's user and version and expires with it;
// anything altered, expired, from another key or of another kind is
// refused; and neither stands for the other: a pass is no token, a token no
// pass.
func TestFirstPagePass(t *testing.T) {
	key := bytes.Repeat([]byte("k"), 32)
	signer, err := NewSigner(key, "Campus")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	signer.now = func() time.Time { return now }
	user := uuid.New()
	token, err := signer.Issue(user.String(), 7)
	if err != nil {
		t.Fatal(err)
	}
	pass, exp, err := signer.IssuePass(token)
	if err != nil {
		t.Fatal(err)
	}
	if want := now.Add(TokenTTL).Truncate(time.Second); !exp.Equal(want) {
		t.Errorf("expires %v, want the token's %v", exp, want)
	}
	if c, err := signer.parsePass(pass); err != nil || c.user != user || c.version != 7 {
		t.Fatalf("parsePass = %+v, %v; want %s at version 7", c, err, user)
	}
	if len(pass) > 64 {
		t.Errorf("a pass of %d bytes: it goes with every request to the site", len(pass))
	}

	other, err := NewSigner(bytes.Repeat([]byte("o"), 32), "Campus")
	if err != nil {
		t.Fatal(err)
	}
	otherPass, _, err := other.IssuePass(mustIssue(t, other, user.String(), 7))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := base64.RawURLEncoding.DecodeString(pass)
	flip := func(i int) string {
		b := bytes.Clone(raw)
		b[i] ^= 1
		return base64.RawURLEncoding.EncodeToString(b)
	}
	tests := []struct {
		name, pass string
		at         time.Time
	}{
		{"another key's", otherPass, now},
		{"a token", token, now},
		{"user altered", flip(3), now},
		{"version altered", flip(18), now},
		{"expiry altered", flip(24), now},
		{"MAC altered", flip(len(raw) - 1), now},
		{"another format", flip(0), now},
		{"cut short", pass[:len(pass)-2], now},
		{"not base64", strings.Repeat("*", len(pass)), now},
		{"empty", "", now},
		{"expired with its token", pass, now.Add(TokenTTL)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			at := tc.at
			signer.now = func() time.Time { return at }
			defer func() { signer.now = func() time.Time { return now } }()
			if c, err := signer.parsePass(tc.pass); err == nil {
				t.Fatalf("parsePass accepted it: %+v", c)
			}
		})
	}
	t.Run("a pass is no token", func(t *testing.T) {
		if _, err := signer.Parse(pass); err == nil {
			t.Fatal("Parse accepted a pass as a token")
		}
	})
	t.Run("a bad token gets no pass", func(t *testing.T) {
		if _, _, err := signer.IssuePass(mustIssue(t, other, user.String(), 7)); err == nil {
			t.Fatal("IssuePass took another key's token")
		}
	})
}

func mustIssue(t *testing.T, s *Signer, user string, ver int) string {
	t.Helper()
	tok, err := s.Issue(user, ver)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}
