package app

import (
	"strings"
	"testing"
	"time"
)

// The verified-token cache must never accept what a full parse would refuse:
// an expired token, a tampered one, or one signed for another issuer.
func TestSignerCacheKeepsEveryCheck(t *testing.T) {
	key := []byte(strings.Repeat("k", 32))
	s, err := NewSigner(key, "Campus")
	if err != nil {
		t.Fatal(err)
	}
	clock := time.Now()
	s.now = func() time.Time { return clock }
	tok, err := s.Issue("01a2041e-5362-76eb-8d90-c946a05c7678", 3)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 { // the second parse is answered from the cache
		c, err := s.Parse(tok)
		if err != nil || c.Subject != "01a2041e-5362-76eb-8d90-c946a05c7678" || c.Version != 3 {
			t.Fatalf("parse %d: %+v %v", i, c, err)
		}
	}
	if len(s.verified) != 1 {
		t.Fatalf("cache holds %d tokens, want 1", len(s.verified))
	}

	// A changed signature is a different string: a full parse refuses it.
	if _, err := s.Parse(tok[:len(tok)-2] + "xx"); err == nil {
		t.Fatal("tampered token accepted")
	}
	other, _ := NewSigner(key, "Other")
	if _, err := other.Parse(tok); err == nil {
		t.Fatal("token of another issuer accepted")
	}

	clock = clock.Add(TokenTTL + time.Second)
	if _, err := s.Parse(tok); err == nil {
		t.Fatal("expired token accepted from the cache")
	}
	if len(s.verified) != 0 {
		t.Fatal("expired token still cached")
	}
}
