// Package s3test starts a real S3-compatible server for tests: Versity's
// S3 gateway (versitygw) over a temporary directory, on a loopback port.
//
// The binary is built once from the Go module proxy with `go install` into
// the user's cache directory (scripts/ensure-system.sh does the same before
// `make test`, so tests find it ready); CAMPUS_VERSITYGW names another
// binary to use instead.
package s3test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// Version is the versitygw release the tests run; scripts/ensure-system.sh
// installs the same one.
const Version = "v1.8.0"

const pkg = "github.com/versity/versitygw/cmd/versitygw"

// Fixed credentials of the server's root account: the server lives only as
// long as one test and listens on loopback.
const (
	AccessKey = "campus-test"
	SecretKey = "campus-test-secret"
	Region    = "us-east-1"
)

// Server is a running versitygw.
type Server struct {
	// Addr is the server's host:port on loopback.
	Addr string
	stop func()
}

// Stop stops the server before the test ends, as an outage would.
func (s *Server) Stop() { s.stop() }

// Start runs a server for the rest of t, with no buckets.
func Start(t testing.TB) *Server {
	t.Helper()
	bin, err := Binary()
	if err != nil {
		t.Fatalf("s3test: %v", err)
	}
	root := filepath.Join(t.TempDir(), "s3")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	// A port taken between our probe and the server's listen is rare;
	// one more try makes it rarer.
	var lastErr error
	for range 3 {
		addr, err := freeAddr()
		if err != nil {
			t.Fatal(err)
		}
		stop, err := start(t, bin, addr, root)
		if err == nil {
			return &Server{Addr: addr, stop: stop}
		}
		lastErr = err
	}
	t.Fatalf("s3test: start versitygw: %v", lastErr)
	return nil
}

// start runs versitygw on addr until the test ends or the returned func,
// which may be called more than once, is called.
func start(t testing.TB, bin, addr, root string) (func(), error) {
	cmd := exec.Command(bin, "--port", addr, "--quiet", "--health", "/healthz", "posix", root)
	cmd.Env = append(os.Environ(), "ROOT_ACCESS_KEY_ID="+AccessKey, "ROOT_SECRET_ACCESS_KEY="+SecretKey)
	// A test binary that dies (a panic, a timeout) takes the server along.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	logPath := filepath.Join(filepath.Dir(root), "versitygw.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	defer logFile.Close() // the child keeps its own descriptor
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			_ = cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-exited:
			case <-time.After(10 * time.Second):
				_ = cmd.Process.Kill()
				<-exited
			}
		})
	}
	deadline := time.Now().Add(60 * time.Second)
	client := &http.Client{Timeout: 2 * time.Second}
	for {
		select {
		case err := <-exited:
			out, _ := os.ReadFile(logPath)
			return nil, fmt.Errorf("exited (%v): %s", err, out)
		default:
		}
		resp, err := client.Get("http://" + addr + "/healthz")
		if err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				t.Cleanup(stop)
				return stop, nil
			}
		}
		if time.Now().After(deadline) {
			stop()
			return nil, fmt.Errorf("not healthy within a minute: %v", err)
		}
		time.Sleep(50 * time.Millisecond) // polling a condition, not waiting for time
	}
}

// Client is a client of the server, for a test's own set-up and checks.
func (s *Server) Client(t testing.TB) *minio.Client {
	t.Helper()
	c, err := minio.New(s.Addr, &minio.Options{
		Creds:        credentials.NewStaticV4(AccessKey, SecretKey, ""),
		Region:       Region,
		BucketLookup: minio.BucketLookupPath,
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Bucket creates a bucket and returns its name.
func (s *Server) Bucket(t testing.TB, name string) string {
	t.Helper()
	if err := s.Client(t).MakeBucket(context.Background(), name, minio.MakeBucketOptions{Region: Region}); err != nil {
		t.Fatalf("s3test: make bucket %s: %v", name, err)
	}
	return name
}

// URL is bucket's CAMPUS_MEDIA_URL. The credentials go in AWS_ACCESS_KEY_ID
// and AWS_SECRET_ACCESS_KEY (see Env).
func (s *Server) URL(bucket string) string {
	q := url.Values{"endpoint": {"http://" + s.Addr}, "region": {Region}}
	return "s3://" + bucket + "?" + q.Encode()
}

// Env is the environment a campus process needs to keep its media in bucket.
func (s *Server) Env(bucket string) []string {
	return []string{
		"CAMPUS_MEDIA_URL=" + s.URL(bucket),
		"AWS_ACCESS_KEY_ID=" + AccessKey,
		"AWS_SECRET_ACCESS_KEY=" + SecretKey,
	}
}

var binary struct {
	once sync.Once
	path string
	err  error
}

// Binary returns the path of the versitygw binary, building it first if
// needed: CAMPUS_VERSITYGW if set, else the cached build of Version.
func Binary() (string, error) {
	binary.once.Do(func() { binary.path, binary.err = findOrBuild() })
	return binary.path, binary.err
}

func findOrBuild() (string, error) {
	if p := os.Getenv("CAMPUS_VERSITYGW"); p != "" {
		return p, nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("cache dir: %w", err)
	}
	dir := filepath.Join(cache, "campus", "versitygw-"+Version)
	bin := filepath.Join(dir, "versitygw")
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	// Test binaries of several packages run at once: one builds, the
	// others wait on the lock and then find the binary.
	lock, err := os.OpenFile(filepath.Join(dir, ".lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return "", err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return "", fmt.Errorf("lock %s: %w", dir, err)
	}
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	cmd := exec.Command("go", "install", pkg+"@"+Version)
	// Outside any module, so our go.mod and GOFLAGS (-mod=…) do not apply.
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOBIN="+dir, "GOFLAGS=-buildvcs=false", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go install %s@%s: %w: %s", pkg, Version, err, out)
	}
	if _, err := os.Stat(bin); err != nil {
		return "", errors.New("go install left no versitygw in " + dir)
	}
	return bin, nil
}

func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return "127.0.0.1:" + strconv.Itoa(ln.Addr().(*net.TCPAddr).Port), nil
}
