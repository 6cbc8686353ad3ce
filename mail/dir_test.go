package mail

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"campus/domain"
)

func TestDirWritesParseableMessage(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mail")
	d, err := NewDir(dir, "Campus <no-reply@campus.test>")
	if err != nil {
		t.Fatalf("NewDir: %v", err)
	}
	m := CodeMessage("Campus", "Asha@Uni.edu", "314159", domain.PurposeSignup)
	if err := d.Send(context.Background(), m); err != nil {
		t.Fatalf("Send: %v", err)
	}

	path, err := LatestFor(dir, "asha@uni.edu")
	if err != nil {
		t.Fatalf("LatestFor: %v", err)
	}
	if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("file mode = %v, %v; want 0600", info.Mode().Perm(), err)
	}
	if info, err := os.Stat(dir); err != nil || info.Mode().Perm() != 0o700 {
		t.Errorf("dir mode = %v, %v; want 0700", info.Mode().Perm(), err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := parse(t, raw)

	if to, err := got.header.AddressList("To"); err != nil || len(to) != 1 || to[0].Address != "Asha@Uni.edu" {
		t.Errorf("To = %v, %v", to, err)
	}
	if from, err := got.header.AddressList("From"); err != nil || from[0].Address != "no-reply@campus.test" {
		t.Errorf("From = %v, %v", from, err)
	}
	if subject := got.header.Get("Subject"); subject != m.Subject {
		t.Errorf("Subject = %q, want %q", subject, m.Subject)
	}
	if _, err := got.header.Date(); err != nil {
		t.Errorf("Date: %v", err)
	}
	if got.header.Get("Message-Id") == "" || got.header.Get("Mime-Version") == "" {
		t.Errorf("missing Message-ID or MIME-Version in %v", got.header)
	}
	for _, want := range []string{"314159", "verify your e-mail address", "10 minutes"} {
		if !strings.Contains(got.text, want) || !strings.Contains(got.html, want) {
			t.Errorf("text or HTML part lacks %q:\n%s\n%s", want, got.text, got.html)
		}
	}
}

func TestLatestFor(t *testing.T) {
	dir := t.TempDir()
	d, err := NewDir(dir, "no-reply@campus.test")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	send := func(to, code string) {
		t.Helper()
		if err := d.Send(ctx, CodeMessage("Campus", to, code, domain.PurposeReset)); err != nil {
			t.Fatalf("Send: %v", err)
		}
	}
	// Back to back, so the clock may not have moved between the two.
	send("asha@uni.edu", "111111")
	send("Asha Rao <ASHA@uni.edu>", "222222")
	send("sha@uni.edu", "333333") // a suffix of the first address
	send("basha@uni.edu", "444444")

	tests := []struct {
		recipient, code string
	}{
		{"asha@uni.edu", "222222"},
		{" ASHA@UNI.EDU ", "222222"},
		{"sha@uni.edu", "333333"},
		{"basha@uni.edu", "444444"},
	}
	for _, tt := range tests {
		t.Run(tt.recipient, func(t *testing.T) {
			path, err := LatestFor(dir, tt.recipient)
			if err != nil {
				t.Fatalf("LatestFor: %v", err)
			}
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if text := parse(t, raw).text; !strings.Contains(text, tt.code) {
				t.Errorf("%s holds\n%s\nwant code %s", path, text, tt.code)
			}
		})
	}

	t.Run("SentAt reads the stamp the message was named with", func(t *testing.T) {
		before := time.Now()
		send("late@uni.edu", "555555")
		path, err := LatestFor(dir, "late@uni.edu")
		if err != nil {
			t.Fatal(err)
		}
		sent, err := SentAt(path)
		if err != nil {
			t.Fatal(err)
		}
		if sent.Before(before) || sent.After(time.Now()) {
			t.Errorf("SentAt = %v, want between %v and now", sent, before)
		}
		for _, bad := range []string{"x.eml", "2026-11-28-a@b.co.eml", ""} {
			if _, err := SentAt(filepath.Join(dir, bad)); err == nil {
				t.Errorf("SentAt(%q) took a name that holds no stamp", bad)
			}
		}
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("nobody", func(t *testing.T) {
		_, err := LatestFor(dir, "nobody@uni.edu")
		if !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("err = %v, want fs.ErrNotExist", err)
		}
	})
	t.Run("no temporary files left", func(t *testing.T) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if !strings.HasSuffix(e.Name(), ".eml") {
				t.Errorf("stray file %s", e.Name())
			}
		}
		if len(entries) != 4 {
			t.Errorf("%d files, want 4", len(entries))
		}
	})
}

func TestDirRefuses(t *testing.T) {
	t.Run("cancelled context", func(t *testing.T) {
		d, err := NewDir(t.TempDir(), "no-reply@campus.test")
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if err := d.Send(ctx, Message{To: "a@b.co", Text: "x"}); !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	})
	t.Run("bad sender", func(t *testing.T) {
		if _, err := NewDir(t.TempDir(), "campus"); err == nil || !strings.Contains(err.Error(), "from address") {
			t.Errorf("err = %v, want a from-address error", err)
		}
	})
	t.Run("no directory", func(t *testing.T) {
		if _, err := NewDir("", "no-reply@campus.test"); err == nil || !strings.Contains(err.Error(), "no directory") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("LatestFor on a missing directory", func(t *testing.T) {
		_, err := LatestFor(filepath.Join(t.TempDir(), "absent"), "a@b.co")
		if !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("err = %v, want fs.ErrNotExist", err)
		}
	})
}
