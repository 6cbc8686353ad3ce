package backup_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/rs/zerolog"

	"campus/backup"
	"campus/media"
	"campus/media/s3test"
	"campus/persistence/testdb"
)

// TestThroughS3: a backup of a file store restores into a bucket of a real
// S3-compatible server, a backup of that bucket holds the same images, and
// a restore refuses a bucket that holds another image under a backed-up key.
func TestThroughS3(t *testing.T) {
	ctx := context.Background()
	srv := s3test.Start(t)
	bucketStore := func(name string) *media.Store {
		t.Helper()
		s, err := media.NewS3(ctx, media.S3Options{
			Endpoint: srv.Addr, Region: s3test.Region, Bucket: srv.Bucket(t, name), PathStyle: true,
			AccessKeyID: s3test.AccessKey, SecretAccessKey: s3test.SecretKey,
		}, zerolog.Nop())
		if err != nil {
			t.Fatal(err)
		}
		return s
	}

	src := seed(t)
	dir, _ := runBackup(t, src)
	srcFiles := storeFiles(t, src.store)
	if len(srcFiles) == 0 {
		t.Fatal("the seed stored no images")
	}

	restored := bucketStore("campus-restored")
	restoredURL := testdb.NewBareURL(t)
	if err := restore(t, dir, restoredURL, restored); err != nil {
		t.Fatalf("restore into s3: %v", err)
	}
	sameFiles := func(t *testing.T, got map[string][]byte) {
		t.Helper()
		if len(got) != len(srcFiles) {
			t.Errorf("%d images, want %d", len(got), len(srcFiles))
		}
		for k, b := range srcFiles {
			if !bytes.Equal(got[k], b) {
				t.Errorf("image %s: %d bytes, want the %d backed up", k, len(got[k]), len(b))
			}
		}
	}
	t.Run("restored into the bucket byte-identical", func(t *testing.T) { sameFiles(t, storeFiles(t, restored)) })

	t.Run("backup of the bucket", func(t *testing.T) {
		dir2, m := runBackup(t, &site{url: restoredURL, store: restored})
		if m.Media.Files != int64(len(srcFiles)) || len(m.MissingMedia) != 0 {
			t.Fatalf("manifest: %d files, missing %v; want %d, none", m.Media.Files, m.MissingMedia, len(srcFiles))
		}
		again := newStore(t)
		if err := restore(t, dir2, testdb.NewBareURL(t), again); err != nil {
			t.Fatalf("restore the bucket's backup: %v", err)
		}
		sameFiles(t, storeFiles(t, again))
	})

	t.Run("conflicting bucket refused", func(t *testing.T) {
		other := bucketStore("campus-conflict")
		for k := range srcFiles {
			if err := other.Put(ctx, k, bytes.NewReader([]byte("another image"))); err != nil {
				t.Fatal(err)
			}
			break
		}
		err := restore(t, dir, testdb.NewBareURL(t), other)
		if !errors.Is(err, backup.ErrMediaConflict) {
			t.Fatalf("restore: %v, want ErrMediaConflict", err)
		}
	})
}
