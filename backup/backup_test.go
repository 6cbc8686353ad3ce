package backup_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/rs/zerolog"
	"github.com/uptrace/bun"

	"campus/backup"
	"campus/domain"
	"campus/media"
	"campus/persistence"
	"campus/persistence/testdb"
	"campus/searchindex"
)

func TestMain(m *testing.M) { testdb.Main(m) }

func testLog(t *testing.T) zerolog.Logger {
	return zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel)
}

func open(t *testing.T, url string) *bun.DB {
	t.Helper()
	db, err := persistence.Open(context.Background(), url, testLog(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func newStore(t *testing.T) *media.Store {
	t.Helper()
	s, err := media.New(filepath.Join(t.TempDir(), "media"), zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// pngOf is a real PNG, different for every seed.
func pngOf(t *testing.T, seed, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.NRGBA{uint8(x*seed + y), uint8(y * 7), uint8(seed * 31), 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// site is a seeded Campus: a database and its media store.
type site struct {
	url   string
	db    *bun.DB
	store *media.Store
	users []*persistence.User
	posts []*persistence.Post
	// findable is a word only one post contains.
	findable string
	findPost uuid.UUID
}

// seed fills a fresh database and store through the persistence layer and
// the media store, as the app does: users with avatars and covers, posts
// with images, likes, comments, friend requests and friendships.
func seed(t *testing.T) *site {
	t.Helper()
	ctx := context.Background()
	s := &site{url: testdb.NewURL(t), store: newStore(t), findable: "zanzibarquokka"}
	s.db = open(t, s.url)
	save := func(seed int) media.Image {
		t.Helper()
		im, err := s.store.Save(ctx, bytes.NewReader(pngOf(t, seed, 40+seed, 30+seed)))
		if err != nil {
			t.Fatal(err)
		}
		return im
	}
	tx := func(fn func(ctx context.Context, tx bun.Tx) error) {
		t.Helper()
		if err := s.db.RunInTx(ctx, nil, fn); err != nil {
			t.Fatal(err)
		}
	}
	for i, name := range []string{"Asha Rao", "Bilal Khan", "Chen Wei", "Dara Okafor"} {
		u := &persistence.User{ID: persistence.NewID(), Name: name, Email: fmt.Sprintf("u%d@uni.edu", i),
			PasswordHash: "hash", Role: "student", UniversityID: fmt.Sprintf("BWU/BCA/20/%03d", i), EmailVerifiedAt: time.Now()}
		tx(func(ctx context.Context, tx bun.Tx) error { return persistence.InsertUser(ctx, tx, u) })
		if i < 3 {
			av := save(100 + i)
			tx(func(ctx context.Context, tx bun.Tx) error {
				_, err := persistence.SetUserImage(ctx, tx, u.ID, persistence.ImageAvatar, av.URL, av.Key, nil)
				return err
			})
		}
		if i == 0 {
			cv := save(200)
			tx(func(ctx context.Context, tx bun.Tx) error {
				_, err := persistence.SetUserImage(ctx, tx, u.ID, persistence.ImageCover, cv.URL, cv.Key, nil)
				return err
			})
		}
		s.users = append(s.users, u)
	}
	for i := range 5 {
		content := fmt.Sprintf("post %d about the library and exams", i)
		if i == 3 {
			content = "who saw the " + s.findable + " near the canteen"
		}
		p := &persistence.Post{ID: persistence.NewID(), UserID: s.users[i%len(s.users)].ID, Content: content}
		var ims []*persistence.PostImage
		for pos := range i % 3 {
			im := save(10*i + pos)
			ims = append(ims, &persistence.PostImage{ID: persistence.NewID(), PostID: p.ID, Position: int16(pos),
				StorageKey: im.Key, URL: im.URL, Type: im.Type, ContentType: im.ContentType,
				Width: im.Width, Height: im.Height, SizeBytes: im.Size})
		}
		tx(func(ctx context.Context, tx bun.Tx) error {
			if err := persistence.InsertPost(ctx, tx, p, ims); err != nil {
				return err
			}
			return persistence.AddOutbox(ctx, tx, persistence.EntityPost, p.ID, persistence.OpUpsert)
		})
		s.posts = append(s.posts, p)
		if i == 3 {
			s.findPost = p.ID
		}
		b := persistence.PostBatch{PostID: p.ID}
		for j, u := range s.users {
			if (i+j)%2 == 0 {
				b.Likes = append(b.Likes, persistence.LikeChange{UserID: u.ID, Op: domain.Like})
			}
			if (i+j)%3 == 0 {
				b.Comments = append(b.Comments, &persistence.Comment{ID: persistence.NewID(), PostID: p.ID, UserID: u.ID,
					Content: fmt.Sprintf("comment %d on %d", j, i)})
			}
		}
		if _, err := persistence.ApplyPostBatch(ctx, s.db, b); err != nil {
			t.Fatal(err)
		}
	}
	for _, pair := range [][2]int{{0, 1}, {0, 2}, {1, 3}} {
		if _, err := persistence.AddFriendship(ctx, s.db, s.users[pair[0]].ID, s.users[pair[1]].ID); err != nil {
			t.Fatal(err)
		}
	}
	req := &persistence.FriendRequest{ID: persistence.NewID(), SenderID: s.users[2].ID, ReceiverID: s.users[3].ID, Status: "pending"}
	if err := persistence.InsertFriendRequest(ctx, s.db, req); err != nil {
		t.Fatal(err)
	}
	n := &persistence.Notification{ID: persistence.NewID(), UserID: req.ReceiverID, Type: "friend_request", SenderID: req.SenderID}
	if err := persistence.InsertNotification(ctx, s.db, n); err != nil {
		t.Fatal(err)
	}
	// The signing secret lives in the database: a restored site keeps its
	// users' sessions valid.
	if _, err := persistence.Secret(ctx, s.db, "master"); err != nil {
		t.Fatal(err)
	}
	return s
}

// comparedTables are read row by row from both databases.
var comparedTables = []string{"users", "profiles", "posts", "post_images", "post_likes", "comments",
	"friendships", "friend_requests", "notifications", "search_outbox", "app_secrets", "bun_migrations"}

// rows renders a table's rows, sorted, as text.
func rows(t *testing.T, db bun.IDB, table string) (string, int) {
	t.Helper()
	var text string
	var n int
	err := db.QueryRowContext(context.Background(),
		"SELECT coalesce(string_agg(x::text, E'\\n' ORDER BY x::text), ''), count(*) FROM "+table+" x").Scan(&text, &n)
	if err != nil {
		t.Fatal(err)
	}
	return text, n
}

// storeFiles reads every file of a store.
func storeFiles(t *testing.T, s backup.MediaStore) map[string][]byte {
	t.Helper()
	ctx := context.Background()
	out := map[string][]byte{}
	err := s.Walk(ctx, func(key string, _ int64) error {
		r, err := s.Open(ctx, key)
		if err != nil {
			return err
		}
		defer r.Close()
		b, err := io.ReadAll(r)
		out[key] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func runBackup(t *testing.T, s *site) (string, *backup.Manifest) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "backup")
	var progress bytes.Buffer
	m, err := backup.Backup(context.Background(), backup.Options{
		Dir: dir, DatabaseURL: s.url, Media: s.store, Version: "test", Log: testLog(t),
		Progress: backup.NewProgress(&progress, false),
	})
	if err != nil {
		t.Fatalf("backup: %v", err)
	}
	if !strings.Contains(progress.String(), "backup written to") {
		t.Errorf("progress output lacks the summary:\n%s", progress.String())
	}
	return dir, m
}

func restore(t *testing.T, dir, url string, store backup.MediaStore) error {
	t.Helper()
	_, err := backup.Restore(context.Background(), backup.Options{
		Dir: dir, DatabaseURL: url, Media: store, Log: testLog(t),
	})
	return err
}

func TestRoundTrip(t *testing.T) {
	ctx := context.Background()
	src := seed(t)
	// A running node's heartbeat: its state, not data, left out of the dump.
	if _, err := src.db.ExecContext(ctx, `INSERT INTO node_status (node, version, started_at, figures)
		VALUES ('10.0.0.1:6331', 'v1', now(), '{}')`); err != nil {
		t.Fatal(err)
	}
	dir, m := runBackup(t, src)

	srcFiles := storeFiles(t, src.store)
	if len(srcFiles) != 8 || m.Media.Files != int64(len(srcFiles)) {
		t.Fatalf("manifest lists %d media files, the store holds %d, the seed stored 8", m.Media.Files, len(srcFiles))
	}
	if len(m.MissingMedia) != 0 {
		t.Errorf("missing media %v, want none", m.MissingMedia)
	}
	if m.Database.Rows["users"] != 4 || m.Database.Rows["posts"] != 5 || m.Database.Migration == "" || m.Database.PgDumpMajor == 0 {
		t.Errorf("database facts %+v", m.Database)
	}

	dstURL := testdb.NewBareURL(t)
	dstStore := newStore(t)
	// One file is there already, identical: a restore run again after a
	// failure finds the files it copied the first time.
	var someKey string
	for k := range srcFiles {
		someKey = k
		break
	}
	if err := dstStore.Put(ctx, someKey, bytes.NewReader(srcFiles[someKey])); err != nil {
		t.Fatal(err)
	}
	if err := restore(t, dir, dstURL, dstStore); err != nil {
		t.Fatalf("restore: %v", err)
	}
	dst := open(t, dstURL)

	for _, table := range comparedTables {
		t.Run("table "+table, func(t *testing.T) {
			want, wantN := rows(t, src.db, table)
			got, gotN := rows(t, dst, table)
			if wantN == 0 {
				t.Fatalf("%s: nothing was seeded, so nothing is compared", table)
			}
			if got != want {
				t.Errorf("%s: restored %d rows differ from the %d backed up\n got: %.600s\nwant: %.600s", table, gotN, wantN, got, want)
			}
		})
	}
	t.Run("no heartbeats of the backed-up nodes", func(t *testing.T) {
		var n int
		if err := dst.QueryRowContext(ctx, "SELECT count(*) FROM node_status").Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 0 {
			t.Errorf("%d node_status rows restored, want none", n)
		}
	})
	t.Run("counters match rows", func(t *testing.T) {
		var bad int
		err := dst.QueryRowContext(ctx, `SELECT count(*) FROM posts p WHERE likes_count <> (SELECT count(*) FROM post_likes l WHERE l.post_id = p.id)
			OR comments_count <> (SELECT count(*) FROM comments c WHERE c.post_id = p.id)`).Scan(&bad)
		if err != nil {
			t.Fatal(err)
		}
		var likes int
		if err := dst.QueryRowContext(ctx, "SELECT count(*) FROM post_likes").Scan(&likes); err != nil {
			t.Fatal(err)
		}
		if bad != 0 || likes == 0 {
			t.Errorf("%d posts whose counters disagree with their rows; %d likes", bad, likes)
		}
	})
	t.Run("media byte-identical", func(t *testing.T) {
		got := storeFiles(t, dstStore)
		if len(got) != len(srcFiles) {
			t.Errorf("restored %d files, want %d", len(got), len(srcFiles))
		}
		for k, b := range srcFiles {
			if !bytes.Equal(got[k], b) {
				t.Errorf("media %s: %d bytes restored, want the %d backed up", k, len(got[k]), len(b))
			}
		}
	})
	t.Run("search after reindex", func(t *testing.T) {
		searchDir := filepath.Join(t.TempDir(), "search")
		st, err := searchindex.Rebuild(ctx, dst, searchDir, nil)
		if err != nil {
			t.Fatal(err)
		}
		if st.Users != 4 || st.Posts != 5 {
			t.Errorf("rebuild indexed %d users and %d posts, want 4 and 5", st.Users, st.Posts)
		}
		idx, err := searchindex.Open(ctx, searchindex.Options{Dir: searchDir, DB: dst, Log: testLog(t)})
		if err != nil {
			t.Fatal(err)
		}
		defer idx.Close()
		hits, err := idx.Search(ctx, src.findable, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) != 1 || hits[0].ID != src.findPost || hits[0].Kind != domain.SearchPost {
			t.Errorf("search %q: %+v, want the one post %s", src.findable, hits, src.findPost)
		}
	})
	t.Run("restored database is at the newest migration", func(t *testing.T) {
		fresh := open(t, testdb.NewURL(t))
		want, _ := rows(t, fresh, "(SELECT name FROM bun_migrations)")
		got, _ := rows(t, dst, "(SELECT name FROM bun_migrations)")
		if got != want || got == "" {
			t.Errorf("migrations %q, want %q", got, want)
		}
	})
}

// TestMissingMediaIsRecorded: a key the database refers to whose file is
// gone (deleted after the snapshot) is listed, not fatal.
func TestMissingMediaIsRecorded(t *testing.T) {
	ctx := context.Background()
	s := seed(t)
	gone := s.users[3]
	key := strings.Repeat("ab", 16) + ".png"
	if _, err := persistence.SetUserImage(ctx, s.db, gone.ID, persistence.ImageAvatar, "/media/"+key, key, nil); err != nil {
		t.Fatal(err)
	}
	_, m := runBackup(t, s)
	if !slices.Equal(m.MissingMedia, []string{key}) {
		t.Errorf("missing media %v, want [%s]", m.MissingMedia, key)
	}
}

func TestBackupRefusesNonEmptyDir(t *testing.T) {
	s := seed(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := backup.Backup(context.Background(), backup.Options{Dir: dir, DatabaseURL: s.url, Media: s.store, Log: testLog(t)})
	if !errors.Is(err, backup.ErrDirNotEmpty) {
		t.Fatalf("err = %v, want ErrDirNotEmpty", err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "notes.txt")); err != nil || string(b) != "mine" {
		t.Errorf("the existing file was touched: %q, %v", b, err)
	}
}

// TestRestoreRefuses: every refusal leaves the target database and store
// exactly as they were.
func TestRestoreRefuses(t *testing.T) {
	ctx := context.Background()
	src := seed(t)
	good, m := runBackup(t, src)
	firstKey := m.Media.Items[0].Key

	// copyBackup gives each case its own copy to damage.
	copyBackup := func(t *testing.T) string {
		t.Helper()
		dir := filepath.Join(t.TempDir(), "copy")
		if err := os.CopyFS(dir, os.DirFS(good)); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	mediaFile := func(dir, key string) string { return filepath.Join(dir, "media", key[:2], key) }

	for _, tc := range []struct {
		name    string
		damage  func(t *testing.T, dir string) // to the backup
		target  func(t *testing.T) (url string, store *media.Store)
		wantErr error
		wantMsg string
	}{
		{
			name: "media file altered",
			damage: func(t *testing.T, dir string) {
				p := mediaFile(dir, firstKey)
				b, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				b[len(b)/2] ^= 0xff
				if err := os.WriteFile(p, b, 0o600); err != nil {
					t.Fatal(err)
				}
			},
			wantErr: backup.ErrCorrupt, wantMsg: firstKey + " does not match its checksum",
		},
		{
			name: "media file missing",
			damage: func(t *testing.T, dir string) {
				if err := os.Remove(mediaFile(dir, firstKey)); err != nil {
					t.Fatal(err)
				}
			},
			wantErr: backup.ErrCorrupt, wantMsg: firstKey + " is missing",
		},
		{
			name: "dump truncated",
			damage: func(t *testing.T, dir string) {
				p := filepath.Join(dir, backup.DumpFile)
				if err := os.Truncate(p, m.Database.Size/2); err != nil {
					t.Fatal(err)
				}
			},
			wantErr: backup.ErrCorrupt, wantMsg: "database.dump has",
		},
		{
			name: "no manifest",
			damage: func(t *testing.T, dir string) {
				if err := os.Remove(filepath.Join(dir, backup.ManifestFile)); err != nil {
					t.Fatal(err)
				}
			},
			wantErr: backup.ErrCorrupt, wantMsg: "unfinished backup",
		},
		{
			name: "database with data",
			target: func(t *testing.T) (string, *media.Store) {
				other := seed(t)
				return other.url, newStore(t)
			},
			wantErr: backup.ErrDatabaseNotEmpty, wantMsg: "4 users and 5 posts",
		},
		{
			name: "database migrated but without data",
			target: func(t *testing.T) (string, *media.Store) {
				return testdb.NewURL(t), newStore(t)
			},
			wantErr: backup.ErrDatabaseNotEmpty, wantMsg: "tables",
		},
		{
			name: "store with other contents under a key",
			target: func(t *testing.T) (string, *media.Store) {
				st := newStore(t)
				if err := st.Put(ctx, firstKey, bytes.NewReader(pngOf(t, 99, 5, 5))); err != nil {
					t.Fatal(err)
				}
				return testdb.NewBareURL(t), st
			},
			wantErr: backup.ErrMediaConflict, wantMsg: firstKey,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := good
			if tc.damage != nil {
				dir = copyBackup(t)
				tc.damage(t, dir)
			}
			url, store := testdb.NewBareURL(t), newStore(t)
			if tc.target != nil {
				url, store = tc.target(t)
			}
			db := open(t, url)
			before, err := persistence.ContentsOf(ctx, db)
			if err != nil {
				t.Fatal(err)
			}
			filesBefore := storeFiles(t, store)

			err = restore(t, dir, url, store)
			if !errors.Is(err, tc.wantErr) || !strings.Contains(err.Error(), tc.wantMsg) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("err = %v, want %v saying %q in one line", err, tc.wantErr, tc.wantMsg)
			}
			after, err := persistence.ContentsOf(ctx, db)
			if err != nil {
				t.Fatal(err)
			}
			if after != before {
				t.Errorf("database changed from %+v to %+v", before, after)
			}
			filesAfter := storeFiles(t, store)
			if len(filesAfter) != len(filesBefore) {
				t.Errorf("store went from %d to %d files", len(filesBefore), len(filesAfter))
			}
			for k, b := range filesBefore {
				if !bytes.Equal(filesAfter[k], b) {
					t.Errorf("store file %s changed", k)
				}
			}
		})
	}
}

// TestBackupWhileWriting backs up while posts with images are created,
// liked and deleted (images deleted after the commit, as the app does).
// The restored database must be one consistent snapshot, and every image
// it refers to must be restored or listed as missing in the manifest.
func TestBackupWhileWriting(t *testing.T) {
	ctx := context.Background()
	s := seed(t)
	// Made here: t.Fatal belongs to the test's goroutine.
	var images [][]byte
	for i := range 20 {
		images = append(images, pngOf(t, i, 8, 8))
	}
	writeCtx, stopWriting := context.WithCancel(ctx)
	writerDone := make(chan error, 1)
	wrote := make(chan struct{}, 1)
	go func() {
		writerDone <- func() error {
			var live []uuid.UUID
			for i := 0; writeCtx.Err() == nil; i++ {
				im, err := s.store.Save(ctx, bytes.NewReader(images[i%len(images)]))
				if err != nil {
					return err
				}
				p := &persistence.Post{ID: persistence.NewID(), UserID: s.users[i%len(s.users)].ID, Content: fmt.Sprintf("busy %d", i)}
				img := &persistence.PostImage{ID: persistence.NewID(), PostID: p.ID, StorageKey: im.Key, URL: im.URL,
					ContentType: im.ContentType, Width: im.Width, Height: im.Height, SizeBytes: im.Size}
				if err := persistence.InsertPost(ctx, s.db, p, []*persistence.PostImage{img}); err != nil {
					return err
				}
				live = append(live, p.ID)
				b := persistence.PostBatch{PostID: p.ID}
				for _, u := range s.users[:1+i%len(s.users)] {
					b.Likes = append(b.Likes, persistence.LikeChange{UserID: u.ID, Op: domain.Like})
				}
				if _, err := persistence.ApplyPostBatch(ctx, s.db, b); err != nil {
					return err
				}
				if len(live) > 3 { // delete the oldest: rows first, then its files
					var keys []string
					err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
						var err error
						keys, err = persistence.DeletePost(ctx, tx, live[0])
						return err
					})
					if err != nil {
						return err
					}
					live = live[1:]
					for _, k := range keys {
						if err := s.store.Delete(k); err != nil {
							return err
						}
					}
				}
				select {
				case wrote <- struct{}{}:
				default:
				}
			}
			return nil
		}()
	}()
	<-wrote // the writer is under way before the backup starts
	dir, m := runBackup(t, s)
	stopWriting()
	if err := <-writerDone; err != nil {
		t.Fatalf("writer: %v", err)
	}

	dstURL, dstStore := testdb.NewBareURL(t), newStore(t)
	if err := restore(t, dir, dstURL, dstStore); err != nil {
		t.Fatalf("restore: %v", err)
	}
	dst := open(t, dstURL)
	var bad int
	err := dst.QueryRowContext(ctx, `SELECT count(*) FROM posts p
		WHERE likes_count <> (SELECT count(*) FROM post_likes l WHERE l.post_id = p.id)`).Scan(&bad)
	if err != nil {
		t.Fatal(err)
	}
	if bad != 0 {
		t.Errorf("%d restored posts whose like counters disagree with their rows", bad)
	}
	referenced, err := persistence.MediaKeys(ctx, dst)
	if err != nil {
		t.Fatal(err)
	}
	restored := storeFiles(t, dstStore)
	var missing []string
	for _, k := range referenced {
		if restored[k] == nil {
			missing = append(missing, k)
		}
	}
	slices.Sort(missing)
	got := slices.Sorted(slices.Values(m.MissingMedia))
	if !slices.Equal(missing, got) {
		t.Errorf("referenced but not restored: %v; the manifest lists %v", missing, got)
	}
	t.Logf("%d posts restored, %d images referenced, %d missing", m.Database.Rows["posts"], len(referenced), len(missing))
}
