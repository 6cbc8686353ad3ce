package media

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"io/fs"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/valyala/fasthttp"

	"campus/media/s3test"
)

// s3Options is how a node reaches bucket on srv.
func s3Options(srv *s3test.Server, bucket string) S3Options {
	return S3Options{
		Endpoint: srv.Addr, Region: s3test.Region, Bucket: bucket, PathStyle: true,
		AccessKeyID: s3test.AccessKey, SecretAccessKey: s3test.SecretKey,
	}
}

func newS3Store(t testing.TB, srv *s3test.Server, bucket string) *Store {
	t.Helper()
	s, err := NewS3(context.Background(), s3Options(srv, bucket), zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestBackends runs the same round trips over the file store and over a
// real S3-compatible server.
func TestBackends(t *testing.T) {
	srv := s3test.Start(t)
	backends := []struct {
		name string
		open func(t *testing.T) *Store
	}{
		{"file", func(t *testing.T) *Store { s, _ := newStore(t); return s }},
		{"s3", func(t *testing.T) *Store {
			return newS3Store(t, srv, srv.Bucket(t, "campus-"+strings.ToLower(strings.ReplaceAll(t.Name(), "/", "-"))))
		}},
	}
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			s := be.open(t)
			do := serve(t, &fasthttp.Server{Handler: s.Handler()})
			pngData := pngBytes(t, 12, 9)
			img := save(t, s, pngData)
			jpg := save(t, s, withSegments(jpegBytes(t, 8, 8), nil, exifSegment(binary.LittleEndian, 1)))

			t.Run("GET serves the stored bytes with safe headers", func(t *testing.T) {
				for _, tt := range []struct {
					img   Image
					ctype string
				}{{img, "image/png"}, {jpg, "image/jpeg"}} {
					resp := do("GET", tt.img.URL)
					if resp.StatusCode() != 200 {
						t.Fatalf("GET %s: status %d", tt.img.URL, resp.StatusCode())
					}
					want := map[string]string{
						"Content-Type":            tt.ctype,
						"X-Content-Type-Options":  "nosniff",
						"Cache-Control":           "public, max-age=31536000, immutable",
						"Content-Security-Policy": "default-src 'none'; sandbox",
						"Content-Length":          strconv.FormatInt(tt.img.Size, 10),
						"ETag":                    `"` + tt.img.Key + `"`,
					}
					for k, v := range want {
						if got := string(resp.Header.Peek(k)); got != v {
							t.Errorf("%s: %s = %q, want %q", tt.ctype, k, got, v)
						}
					}
					if !bytes.Equal(resp.Body(), openAll(t, s, tt.img.Key)) || int64(len(resp.Body())) != tt.img.Size {
						t.Errorf("%s: body differs from the stored image", tt.ctype)
					}
					if bytes.Contains(resp.Body(), []byte(secret)) {
						t.Errorf("%s: metadata was served", tt.ctype)
					}
				}
			})
			t.Run("HEAD", func(t *testing.T) {
				resp := do("HEAD", img.URL)
				if resp.StatusCode() != 200 || len(resp.Body()) != 0 || resp.Header.ContentLength() != int(img.Size) {
					t.Fatalf("status %d, %d body bytes, length %d", resp.StatusCode(), len(resp.Body()), resp.Header.ContentLength())
				}
				if got := string(resp.Header.Peek("Content-Type")); got != "image/png" {
					t.Errorf("Content-Type %q", got)
				}
			})
			t.Run("If-None-Match", func(t *testing.T) {
				for _, tt := range []struct {
					inm  string
					want int
				}{{`"` + img.Key + `"`, 304}, {"*", 304}, {`"other"`, 200}} {
					if resp := do("GET", img.URL, "If-None-Match: "+tt.inm); resp.StatusCode() != tt.want {
						t.Errorf("If-None-Match %s: status %d, want %d", tt.inm, resp.StatusCode(), tt.want)
					}
				}
			})
			t.Run("missing key is a bare 404", func(t *testing.T) {
				missing := "/media/" + strings.Repeat("0", 32) + ".png"
				for _, method := range []string{"GET", "HEAD"} {
					resp := do(method, missing)
					if resp.StatusCode() != 404 {
						t.Errorf("%s: status %d, want 404", method, resp.StatusCode())
					}
					if b := strings.ToLower(string(resp.Body())); strings.Contains(b, "nosuchkey") || strings.Contains(b, "s3") || strings.Contains(b, "bucket") {
						t.Errorf("%s: the backend's error leaked: %q", method, b)
					}
				}
				if _, err := s.Open(context.Background(), strings.Repeat("0", 32)+".png"); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("Open: %v, want fs.ErrNotExist", err)
				}
			})
			t.Run("Walk lists exactly the images", func(t *testing.T) {
				got := map[string]int64{}
				if err := s.Walk(context.Background(), func(k string, n int64) error { got[k] = n; return nil }); err != nil {
					t.Fatal(err)
				}
				want := map[string]int64{img.Key: img.Size, jpg.Key: jpg.Size}
				if len(got) != len(want) || got[img.Key] != img.Size || got[jpg.Key] != jpg.Size {
					t.Errorf("Walk = %v, want %v", got, want)
				}
			})
			t.Run("Put restores as is; a failed Put leaves nothing", func(t *testing.T) {
				key := strings.Repeat("ab", 16) + ".png"
				if err := s.Put(context.Background(), key, bytes.NewReader(pngData)); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(openAll(t, s, key), pngData) {
					t.Error("restored bytes differ")
				}
				broken := strings.Repeat("cd", 16) + ".png"
				err := s.Put(context.Background(), broken, io.MultiReader(bytes.NewReader(pngData[:20]), failing{}))
				if err == nil {
					t.Fatal("Put from a failing reader succeeded")
				}
				if _, err := s.Open(context.Background(), broken); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("after a failed Put, Open: %v, want fs.ErrNotExist", err)
				}
				ctx, cancel := context.WithCancel(context.Background())
				cancel()
				if _, err := s.Save(ctx, bytes.NewReader(pngData)); err == nil {
					t.Error("Save with a cancelled context succeeded")
				}
				if err := s.Delete(key); err != nil {
					t.Fatal(err)
				}
			})
			t.Run("variants are stored, served and deleted with the original", func(t *testing.T) {
				big := save(t, s, encodeTest(t, noisy(1600, 1200, false), "jpg"))
				if len(big.Variants) != len(variantWidths) {
					t.Fatalf("variants %+v, want %d", big.Variants, len(variantWidths))
				}
				for _, v := range big.Variants {
					resp := do("GET", v.URL)
					if resp.StatusCode() != 200 || int64(len(resp.Body())) != v.Size {
						t.Fatalf("GET %s: status %d, %d bytes", v.URL, resp.StatusCode(), len(resp.Body()))
					}
					for k, want := range map[string]string{
						"Content-Type": "image/jpeg", "X-Content-Type-Options": "nosniff",
						"Cache-Control": "public, max-age=31536000, immutable",
					} {
						if got := string(resp.Header.Peek(k)); got != want {
							t.Errorf("%s: %s = %q, want %q", v.URL, k, got, want)
						}
					}
				}
				if err := s.Delete(big.Key); err != nil {
					t.Fatal(err)
				}
				for _, u := range []string{big.URL, big.Variants[0].URL, big.Variants[1].URL} {
					if resp := do("GET", u); resp.StatusCode() != 404 {
						t.Errorf("GET %s after delete: status %d, want 404", u, resp.StatusCode())
					}
				}
				// A failure storing the last copy takes back the others.
				var before int
				if err := s.Walk(context.Background(), func(string, int64) error { before++; return nil }); err != nil {
					t.Fatal(err)
				}
				broken := &Store{b: &failingPuts{backend: s.b, n: 3}, log: zerolog.Nop()}
				if _, err := broken.Save(context.Background(), bytes.NewReader(encodeTest(t, noisy(1600, 1200, false), "jpg"))); !errors.Is(err, errPut) {
					t.Fatalf("Save: %v, want %v", err, errPut)
				}
				var after int
				if err := s.Walk(context.Background(), func(string, int64) error { after++; return nil }); err != nil {
					t.Fatal(err)
				}
				if after != before {
					t.Errorf("%d objects after a failed upload, %d before", after, before)
				}
			})
			t.Run("Delete", func(t *testing.T) {
				gone := save(t, s, pngData)
				if resp := do("GET", gone.URL); resp.StatusCode() != 200 {
					t.Fatalf("before delete: status %d", resp.StatusCode())
				}
				for range 2 { // deleting a missing image is not an error
					if err := s.Delete(gone.Key); err != nil {
						t.Fatal(err)
					}
				}
				for _, method := range []string{"GET", "HEAD"} {
					if resp := do(method, gone.URL); resp.StatusCode() != 404 {
						t.Errorf("%s after delete: status %d, want 404", method, resp.StatusCode())
					}
				}
				if err := s.Delete("../" + gone.Key); !errors.Is(err, ErrKey) {
					t.Errorf("Delete of a bad key: %v, want ErrKey", err)
				}
			})
		})
	}
}

// TestS3TwoNodes: two stores over one bucket are two nodes of a cluster;
// what one stores, the other serves and can delete.
func TestS3TwoNodes(t *testing.T) {
	srv := s3test.Start(t)
	bucket := srv.Bucket(t, "campus-two-nodes")
	node1, node2 := newS3Store(t, srv, bucket), newS3Store(t, srv, bucket)
	do2 := serve(t, &fasthttp.Server{Handler: node2.Handler()})

	img := save(t, node1, gifBytes(t, 5, 7))
	resp := do2("GET", img.URL)
	if resp.StatusCode() != 200 || !bytes.Equal(resp.Body(), openAll(t, node1, img.Key)) {
		t.Fatalf("node 2: status %d, %d bytes, want node 1's %d", resp.StatusCode(), len(resp.Body()), img.Size)
	}
	if got := string(resp.Header.Peek("Content-Type")); got != "image/gif" {
		t.Errorf("Content-Type %q", got)
	}
	if err := node2.Delete(img.Key); err != nil {
		t.Fatal(err)
	}
	if _, err := node1.Open(context.Background(), img.Key); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("node 1 still has the image node 2 deleted: %v", err)
	}
}

// TestNewS3Refuses: a node with a wrong bucket or wrong credentials fails
// at start, and says which bucket without printing the secret.
func TestNewS3Refuses(t *testing.T) {
	srv := s3test.Start(t)
	bucket := srv.Bucket(t, "campus-refuses")
	tests := []struct {
		name   string
		change func(*S3Options)
	}{
		{"missing bucket", func(o *S3Options) { o.Bucket = "campus-no-such-bucket" }},
		{"wrong secret", func(o *S3Options) { o.SecretAccessKey = "wrong-secret-value" }},
		{"unknown key", func(o *S3Options) { o.AccessKeyID = "nobody" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := s3Options(srv, bucket)
			tt.change(&o)
			_, err := NewS3(context.Background(), o, zerolog.Nop())
			if err == nil {
				t.Fatal("NewS3 succeeded")
			}
			if !strings.Contains(err.Error(), o.Bucket) || strings.Contains(err.Error(), o.SecretAccessKey) {
				t.Errorf("error must name the bucket and not the secret: %v", err)
			}
		})
	}
}

// openAll reads what s stores under key.
func openAll(t testing.TB, s *Store, key string) []byte {
	t.Helper()
	rc, err := s.Open(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

type failing struct{}

func (failing) Read([]byte) (int, error) { return 0, errors.New("connection reset") }

// TestS3Outage: with the service gone, serving answers a bare 5xx and
// uploads fail with an error; nothing about the service reaches clients.
func TestS3Outage(t *testing.T) {
	srv := s3test.Start(t)
	s := newS3Store(t, srv, srv.Bucket(t, "campus-outage"))
	img := save(t, s, pngBytes(t, 4, 4))
	do := serve(t, &fasthttp.Server{Handler: s.Handler()})
	if err := s.Check(context.Background()); err != nil {
		t.Fatalf("Check with the service up: %v", err)
	}
	srv.Stop()
	if err := s.Check(context.Background()); err == nil {
		t.Error("Check answered nil with the service gone (the readiness answer's media state)")
	}

	for _, method := range []string{"GET", "HEAD"} {
		resp := do(method, img.URL)
		if code := resp.StatusCode(); code != 500 && code != 503 {
			t.Errorf("%s: status %d, want 500 or 503", method, code)
		}
		if b := string(resp.Body()); strings.Contains(b, srv.Addr) || strings.Contains(strings.ToLower(b), "dial") {
			t.Errorf("%s: the backend's error leaked: %q", method, b)
		}
		if got := string(resp.Header.Peek("Cache-Control")); strings.Contains(got, "immutable") {
			t.Errorf("%s: an error is cacheable: %q", method, got)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := s.Save(ctx, bytes.NewReader(pngBytes(t, 4, 4))); err == nil {
		t.Error("Save succeeded with the service gone")
	}
}
