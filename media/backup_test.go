package media

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"testing/iotest"
)

func TestWalkListsImagesOnly(t *testing.T) {
	s, dir := newStore(t)
	a := save(t, s, pngBytes(t, 3, 2))
	b := save(t, s, pngBytes(t, 5, 4))
	// What is not an image: an upload being written, a stray file, a key
	// in the wrong shard, a directory named like a key.
	shard := filepath.Join(dir, a.Key[:2])
	for _, name := range []string{tempPrefix + "123", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(shard, name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	wrong := "ff" + a.Key[2:]
	if a.Key[:2] == "ff" {
		wrong = "00" + a.Key[2:]
	}
	if err := os.WriteFile(filepath.Join(shard, wrong), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(shard, a.Key[:2]+"0123456789abcdef0123456789abcd.png"), 0o755); err != nil {
		t.Fatal(err)
	}

	sizes := map[string]int64{}
	err := s.Walk(context.Background(), func(key string, size int64) error {
		sizes[key] = size
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{a.Key: a.Size, b.Key: b.Size}
	if len(sizes) != len(want) || sizes[a.Key] != a.Size || sizes[b.Key] != b.Size {
		t.Errorf("Walk = %v, want %v", sizes, want)
	}

	stop := errors.New("stop")
	if err := s.Walk(context.Background(), func(string, int64) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("Walk with a failing fn = %v, want its error", err)
	}
}

func TestOpenAndPut(t *testing.T) {
	ctx := context.Background()
	s, dir := newStore(t)
	key := "0123456789abcdef0123456789abcdef.png"
	content := pngBytes(t, 4, 4)

	if _, err := s.Open(ctx, key); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Open of a missing key = %v, want fs.ErrNotExist", err)
	}
	if err := s.Put(ctx, key, bytes.NewReader(content)); err != nil {
		t.Fatal(err)
	}
	r, err := s.Open(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(r)
	r.Close()
	if err != nil || !bytes.Equal(got, content) {
		t.Fatalf("Open after Put read %d bytes (%v), want the %d put", len(got), err, len(content))
	}

	for _, tc := range []struct {
		name string
		key  string
		r    io.Reader
		want error
	}{
		{"path outside the store", "../../etc/passwd", bytes.NewReader(content), ErrKey},
		{"temporary name", tempPrefix + "0123", bytes.NewReader(content), ErrKey},
		{"unknown extension", "0123456789abcdef0123456789abcdef.exe", bytes.NewReader(content), ErrKey},
		{"failing reader", "fedcba9876543210fedcba9876543210.png", iotest.TimeoutReader(bytes.NewReader(content)), iotest.ErrTimeout},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := files(t, dir)
			if err := s.Put(ctx, tc.key, tc.r); !errors.Is(err, tc.want) {
				t.Fatalf("Put = %v, want %v", err, tc.want)
			}
			if after := files(t, dir); !slices.Equal(before, after) {
				t.Errorf("a failed Put left files: %v, before %v", after, before)
			}
			if _, err := s.Open(ctx, tc.key); err == nil {
				t.Errorf("Open(%q) succeeded after a failed Put", tc.key)
			}
		})
	}
}
