package searchindex

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// An index whose files are deleted, replaced or corrupted while it is open
// is noticed and rebuilt from the database in place, and the tailer goes on
// from the rebuilt index's position.
func TestHealRebuildsALostIndex(t *testing.T) {
	f := newFixture(t)
	asha := f.user(userSpec{name: "Asha Rao", uid: "BWU/BCA/20/1"})
	f.post(asha, "Orientation week schedule")
	x := f.open()
	f.post(asha, "Orientation photos")
	f.catchUp(x)

	tests := []struct {
		name   string
		damage func(t *testing.T, dir string)
	}{
		{"directory deleted", func(t *testing.T, dir string) {
			removeLive(t, dir)
		}},
		{"directory replaced by garbage", func(t *testing.T, dir string) {
			removeLive(t, dir)
			if err := os.MkdirAll(filepath.Join(dir, "store"), 0o700); err != nil {
				t.Fatal(err)
			}
			for _, name := range []string{"index_meta.json", "store/root.bolt"} {
				if err := os.WriteFile(filepath.Join(dir, name), []byte("garbage"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
		}},
		{"metadata overwritten", func(t *testing.T, dir string) {
			if err := os.WriteFile(filepath.Join(dir, "index_meta.json"), []byte("{not json"), 0o600); err != nil {
				t.Fatal(err)
			}
		}},
	}
	ctx := context.Background()
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if why := x.files.damage(f.dir); why != "" {
				t.Fatalf("a sound index reported damaged: %s", why)
			}
			tt.damage(t, f.dir)
			if why := x.files.damage(f.dir); why == "" {
				t.Fatal("the damage was not noticed")
			}
			if !x.heal(ctx) {
				t.Fatal("heal failed")
			}
			if why := x.files.damage(f.dir); why != "" {
				t.Fatalf("rebuilt index reported damaged: %s", why)
			}
			hits, err := x.Search(ctx, "orientation", 10)
			if err != nil || len(hits) != 2+i {
				t.Fatalf("after the rebuild: %v, %v", f.label(hits), err)
			}
			f.post(asha, "Orientation follow-up")
			f.catchUp(x)
			if hits, err = x.Search(ctx, "orientation", 10); err != nil || len(hits) != 3+i {
				t.Fatalf("a post after the rebuild: %v, %v", f.label(hits), err)
			}
		})
	}
}

// removeLive deletes the directory of an open index as an operator's
// `rm -rf` would. The index's background persister may write a new file
// between RemoveAll's listing and its rmdir ("directory not empty"), so it
// tries again until the directory is gone.
func removeLive(t *testing.T, dir string) {
	t.Helper()
	var err error
	for range 100 {
		if err = os.RemoveAll(dir); err == nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("remove %s: %v", dir, err)
}
