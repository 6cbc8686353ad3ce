package image

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"campus/freeport"
	"campus/persistence/testdb"
)

// archiveFlag validates an image built elsewhere (make image-test passes
// bin/campus-image.tar); without it the test builds its own image from a
// freshly built campus and a stand-in client.
var archiveFlag = flag.String("image", "", "an image archive to check instead of building one")

func TestMain(m *testing.M) {
	flag.Parse()
	testdb.Main(m)
}

// clientMarker is in the stand-in client's index.html, so the test knows
// the page it gets came from the image.
const clientMarker = "campus image test client"

// TestImage builds the image (or takes -image), checks its configuration
// and files, unpacks its layers and runs what a container runtime would run
// from them, chrooted as the image's user: pg_dump, campus serve until
// /api/ready answers 200 and / serves the client, campus backup and campus
// restore against a real Postgres, then SIGTERM and a clean exit.
func TestImage(t *testing.T) {
	archive, wantVersion := *archiveFlag, ""
	if archive == "" {
		archive, wantVersion = buildTestImage(t, t.TempDir())
	}
	img := readArchive(t, archive)
	cfg := img.config.Config

	t.Run("config", func(t *testing.T) {
		if cfg.User != fmt.Sprintf("%d:%d", UID, GID) || UID == 0 {
			t.Errorf("user %q, want %d:%d (not root)", cfg.User, UID, GID)
		}
		if !slices.Equal(cfg.Entrypoint, []string{BinaryPath}) || !slices.Equal(cfg.Cmd, []string{"serve"}) {
			t.Errorf("entrypoint %q cmd %q, want [%s] [serve]", cfg.Entrypoint, cfg.Cmd, BinaryPath)
		}
		env := envMap(cfg.Env)
		for k, v := range map[string]string{"CAMPUS_CLIENT_DIR": ClientDir, "CAMPUS_DATA_DIR": DataDir, "CAMPUS_ADDR": ":" + strconv.Itoa(HTTPPort)} {
			if env[k] != v {
				t.Errorf("env %s=%q, want %q", k, env[k], v)
			}
		}
		for _, p := range []int{HTTPPort, RemotingPort} {
			if _, ok := cfg.ExposedPorts[strconv.Itoa(p)+"/tcp"]; !ok {
				t.Errorf("port %d/tcp not exposed: %v", p, cfg.ExposedPorts)
			}
		}
		if cfg.WorkingDir != DataDir {
			t.Errorf("working dir %q, want %q", cfg.WorkingDir, DataDir)
		}
		if wantVersion != "" && cfg.Labels["org.opencontainers.image.version"] != wantVersion {
			t.Errorf("version label %q, want %q", cfg.Labels["org.opencontainers.image.version"], wantVersion)
		}
	})

	root := t.TempDir()
	unpack(t, img, root)

	t.Run("files", func(t *testing.T) {
		for _, f := range []struct {
			path string
			exec bool
		}{
			{BinaryPath, true},
			{ClientDir + "/index.html", false},
			{"/etc/ssl/certs/ca-certificates.crt", false},
			{"/etc/passwd", false},
			{"/lib64/ld-linux-x86-64.so.2", true}, // pg_dump's loader, through /lib64 → usr/lib64
		} {
			fi, err := os.Stat(filepath.Join(root, f.path))
			if err != nil || !fi.Mode().IsRegular() || fi.Size() == 0 {
				t.Errorf("%s: %v", f.path, err)
				continue
			}
			if f.exec && fi.Mode().Perm()&0o111 == 0 {
				t.Errorf("%s is not executable (%v)", f.path, fi.Mode())
			}
		}
		tools, _ := filepath.Glob(filepath.Join(root, "usr/lib/postgresql/*/bin/pg_dump"))
		if len(tools) != 1 {
			t.Errorf("want one pg_dump under /usr/lib/postgresql/*/bin, got %v", tools)
		}
		passwd, _ := os.ReadFile(filepath.Join(root, "etc/passwd"))
		if !strings.Contains(string(passwd), fmt.Sprintf(":x:%d:%d:", UID, GID)) {
			t.Errorf("/etc/passwd names no user %d:\n%s", UID, passwd)
		}
		pem, _ := os.ReadFile(filepath.Join(root, "etc/ssl/certs/ca-certificates.crt"))
		if n := strings.Count(string(pem), "BEGIN CERTIFICATE"); n < 10 {
			t.Errorf("CA bundle holds %d certificates", n)
		}
		fi, err := os.Stat(filepath.Join(root, DataDir))
		if err != nil || fi.Sys().(*syscall.Stat_t).Uid != UID {
			t.Errorf("%s is not the image user's: %v", DataDir, err)
		}
	})

	t.Run("runs", func(t *testing.T) {
		if os.Geteuid() != 0 {
			t.Skip("running the image's programs needs chroot, which needs root (CI runs as root)")
		}
		// What a runtime provides: /dev/null (os/exec opens it for a
		// child's stdin).
		if err := os.MkdirAll(filepath.Join(root, "dev"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mknod(filepath.Join(root, "dev/null"), syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(filepath.Join(root, "dev/null"), 0o666); err != nil {
			t.Fatal(err)
		}
		run := func(env []string, args ...string) *exec.Cmd {
			cmd := exec.Command(args[0], args[1:]...)
			cmd.Env = append(slices.Clone(cfg.Env), env...)
			cmd.Dir = cfg.WorkingDir
			cmd.SysProcAttr = &syscall.SysProcAttr{
				Chroot:     root,
				Credential: &syscall.Credential{Uid: UID, Gid: GID, Groups: []uint32{}},
			}
			return cmd
		}
		output := func(env []string, args ...string) string {
			t.Helper()
			out, err := run(env, args...).CombinedOutput()
			if err != nil {
				t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
			}
			return string(out)
		}

		tools, _ := filepath.Glob(filepath.Join(root, "usr/lib/postgresql/*/bin/pg_dump"))
		if len(tools) != 1 {
			t.Fatalf("pg_dump: %v", tools)
		}
		pgDump := "/" + strings.TrimPrefix(filepath.ToSlash(tools[0]), filepath.ToSlash(root)+"/")
		if out := output(nil, pgDump, "--version"); !strings.HasPrefix(out, "pg_dump (PostgreSQL) ") {
			t.Errorf("pg_dump --version: %q", out)
		}
		if out := output(nil, path.Join(path.Dir(pgDump), "pg_restore"), "--version"); !strings.HasPrefix(out, "pg_restore (PostgreSQL) ") {
			t.Errorf("pg_restore --version: %q", out)
		}
		want := "campus " + cfg.Labels["org.opencontainers.image.version"]
		if out := strings.TrimSpace(output(nil, BinaryPath, "version")); out != want {
			t.Errorf("campus version: %q, want %q (the label)", out, want)
		}

		dbURL := testdb.NewURL(t)
		addr := "127.0.0.1:" + strconv.Itoa(freePort(t))
		serve := run([]string{"DATABASE_URL=" + dbURL, "CAMPUS_ADDR=" + addr, "CAMPUS_LOG_FORMAT=json"}, cfg.Entrypoint[0], cfg.Cmd[0])
		var log bytes.Buffer
		serve.Stdout, serve.Stderr = &log, &log
		if err := serve.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- serve.Wait() }()
		var exitErr error
		running := true
		stopped := func() bool {
			if running {
				select {
				case exitErr = <-exited:
					running = false
				default:
				}
			}
			return !running
		}
		defer func() {
			if !stopped() {
				_ = serve.Process.Kill()
				<-exited
			}
			if t.Failed() {
				t.Logf("campus serve:\n%s", log.String())
			}
		}()

		base := "http://" + addr
		waitReady(t, base+"/api/ready", stopped)
		page := get(t, base+"/")
		if !strings.Contains(strings.ToLower(page), "<!doctype html>") {
			t.Errorf("/ is no page: %.200q", page)
		}
		if *archiveFlag == "" && !strings.Contains(page, clientMarker) {
			t.Errorf("/ did not serve the image's client: %.200q", page)
		}

		// Backups: campus backup runs the image's pg_dump while the node
		// serves, and campus restore its pg_restore into an empty database.
		output([]string{"DATABASE_URL=" + dbURL}, BinaryPath, "backup", "/tmp/backup")
		if _, err := os.Stat(filepath.Join(root, "tmp/backup/manifest.json")); err != nil {
			t.Errorf("backup wrote no manifest: %v", err)
		}
		output([]string{"DATABASE_URL=" + testdb.NewBareURL(t), "CAMPUS_DATA_DIR=/tmp/restored"}, BinaryPath, "restore", "/tmp/backup")

		if err := serve.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		exitErr, running = <-exited, false
		if exitErr != nil {
			t.Errorf("campus serve after SIGTERM: %v", exitErr)
		}
	})
}

// TestReproducible: the same inputs give the same image, byte for byte, so
// a rebuild of a release can be checked against the published digest.
func TestReproducible(t *testing.T) {
	if *archiveFlag != "" {
		t.Skip("-image checks a given archive; nothing is built")
	}
	// Any executable will do as the binary; pg_dump is a small one, and
	// dynamic, so its libraries are gathered twice too.
	pgBin, err := newestPostgresBin()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	o := testOptions(t, dir)
	o.Binary = filepath.Join(pgBin, "pg_dump")
	mkimage := buildMkimage(t, dir)
	first, second := filepath.Join(t.TempDir(), "first.tar"), filepath.Join(t.TempDir(), "again.tar")
	for _, out := range []string{first, second} {
		runMkimage(t, mkimage, o, out)
	}
	a, b := fileDigest(t, first), fileDigest(t, second)
	if a != b {
		t.Fatalf("two builds differ: %s and %s", a, b)
	}
	// And a different input gives a different image.
	o.Version = "another"
	third := filepath.Join(t.TempDir(), "other.tar")
	runMkimage(t, mkimage, o, third)
	if fileDigest(t, third) == a {
		t.Fatal("a different version label gave the same archive")
	}
}

// buildTestImage builds campus into dir (as make build does, so the build
// cache of make test's build serves it; it loads glibc, which the image
// then carries too) and a stand-in client, and writes the image with
// mkimage. It answers the archive and the version the binary was stamped
// with.
func buildTestImage(t *testing.T, dir string) (archive, version string) {
	t.Helper()
	o := testOptions(t, dir)
	goBuild(t, "-ldflags", "-X main.version="+o.Version, "-o", o.Binary, "campus")
	archive = filepath.Join(dir, "campus-image.tar")
	runMkimage(t, buildMkimage(t, dir), o, archive)
	return archive, o.Version
}

// buildMkimage builds the image command into dir. The tests run it rather
// than calling Build: under -race, compressing tens of megabytes in the
// instrumented test binary takes most of a minute.
func buildMkimage(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "mkimage")
	goBuild(t, "-o", p, "campus/deploy/image/mkimage")
	return p
}

// runMkimage writes the image o describes to out, as make image does.
func runMkimage(t *testing.T, mkimage string, o Options, out string) {
	t.Helper()
	cmd := exec.Command(mkimage, "-binary", o.Binary, "-client", o.ClientDir, "-tag", o.Ref, "-version", o.Version, "-o", out)
	cmd.Env = append(os.Environ(), "SOURCE_DATE_EPOCH="+strconv.FormatInt(o.Created.Unix(), 10))
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("mkimage: %v\n%s", err, b)
	}
}

func goBuild(t *testing.T, args ...string) {
	t.Helper()
	if out, err := exec.Command("go", append([]string{"build"}, args...)...).CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// testOptions are the options of the test's image, its inputs in dir.
func testOptions(t *testing.T, dir string) Options {
	t.Helper()
	client := filepath.Join(dir, "client")
	if err := os.MkdirAll(filepath.Join(client, "assets"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		"index.html":    "<!doctype html><title>" + clientMarker + "</title><script src=/assets/app.js></script>",
		"assets/app.js": "console.log('" + clientMarker + "')",
	} {
		if err := os.WriteFile(filepath.Join(client, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return Options{
		Binary:    filepath.Join(dir, "campus"),
		ClientDir: client,
		Ref:       DefaultRef,
		Version:   "image-test",
		Created:   time.Unix(1_790_000_000, 0).UTC(),
	}
}

// archived is an image read back from its archive.
type archived struct {
	config imageConfig
	layers [][]byte // compressed, in order
}

// readArchive reads the OCI layout in the archive, checking every digest
// and size on the way, and that its docker-archive manifest names the same
// config and layers.
func readArchive(t *testing.T, archive string) archived {
	t.Helper()
	f, err := os.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	files := map[string][]byte{}
	tr := tar.NewReader(f)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			if files[h.Name], err = io.ReadAll(tr); err != nil {
				t.Fatal(err)
			}
		}
	}
	if string(files["oci-layout"]) != `{"imageLayoutVersion":"1.0.0"}` {
		t.Fatalf("oci-layout: %q", files["oci-layout"])
	}
	blob := func(d descriptor) []byte {
		t.Helper()
		b, ok := files[blobPath(d.Digest)]
		if !ok {
			t.Fatalf("no blob %s", d.Digest)
		}
		sum := sha256.Sum256(b)
		if "sha256:"+hex.EncodeToString(sum[:]) != d.Digest || int64(len(b)) != d.Size {
			t.Fatalf("blob %s: digest or size (%d, want %d) wrong", d.Digest, len(b), d.Size)
		}
		return b
	}
	var idx index
	mustUnmarshal(t, files["index.json"], &idx)
	if len(idx.Manifests) != 1 || idx.Manifests[0].MediaType != mediaManifest {
		t.Fatalf("index: %+v", idx)
	}
	d := idx.Manifests[0]
	name, tag := splitRef(DefaultRef)
	if *archiveFlag == "" && (d.Annotations["org.opencontainers.image.ref.name"] != tag ||
		d.Annotations["io.containerd.image.name"] != "docker.io/library/"+name+":"+tag) {
		t.Errorf("index annotations %v do not name %s", d.Annotations, DefaultRef)
	}
	var man manifest
	mustUnmarshal(t, blob(d), &man)
	var img archived
	mustUnmarshal(t, blob(man.Config), &img.config)
	if len(man.Layers) == 0 || len(man.Layers) != len(img.config.RootFS.DiffIDs) {
		t.Fatalf("%d layers, %d diff ids", len(man.Layers), len(img.config.RootFS.DiffIDs))
	}
	for i, l := range man.Layers {
		if l.MediaType != mediaLayer {
			t.Errorf("layer %d media type %s", i, l.MediaType)
		}
		gz := blob(l)
		zr, err := gzip.NewReader(bytes.NewReader(gz))
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.New()
		if _, err := io.Copy(h, zr); err != nil {
			t.Fatal(err)
		}
		if diff := "sha256:" + hex.EncodeToString(h.Sum(nil)); diff != img.config.RootFS.DiffIDs[i] {
			t.Errorf("layer %d diff id %s, config says %s", i, diff, img.config.RootFS.DiffIDs[i])
		}
		img.layers = append(img.layers, gz)
	}
	var dm []dockerManifest
	mustUnmarshal(t, files["manifest.json"], &dm)
	if len(dm) != 1 || dm[0].Config != blobPath(man.Config.Digest) || len(dm[0].Layers) != len(man.Layers) || len(dm[0].RepoTags) != 1 {
		t.Fatalf("manifest.json %+v does not match the OCI manifest", dm)
	}
	for i, l := range man.Layers {
		if dm[0].Layers[i] != blobPath(l.Digest) {
			t.Errorf("manifest.json layer %d is %s, not %s", i, dm[0].Layers[i], blobPath(l.Digest))
		}
	}
	return img
}

// unpack applies the layers in order under root as a runtime would,
// owners and modes included.
func unpack(t *testing.T, img archived, root string) {
	t.Helper()
	for i, gz := range img.layers {
		zr, err := gzip.NewReader(bytes.NewReader(gz))
		if err != nil {
			t.Fatal(err)
		}
		tr := tar.NewReader(zr)
		for {
			h, err := tr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			name := path.Clean(h.Name)
			if !fs.ValidPath(name) || strings.Contains(path.Base(name), ".wh.") {
				t.Fatalf("layer %d: unexpected entry %q", i, h.Name)
			}
			p := filepath.Join(root, filepath.FromSlash(name))
			mode := fs.FileMode(h.Mode).Perm()
			if h.Mode&0o1000 != 0 {
				mode |= fs.ModeSticky
			}
			switch h.Typeflag {
			case tar.TypeDir:
				if err := os.MkdirAll(p, 0o755); err != nil {
					t.Fatal(err)
				}
			case tar.TypeReg:
				out, err := os.OpenFile(p, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
				if err != nil {
					t.Fatal(err)
				}
				_, err = io.Copy(out, tr)
				if cerr := out.Close(); err == nil {
					err = cerr
				}
				if err != nil {
					t.Fatal(err)
				}
			case tar.TypeSymlink:
				if err := os.Symlink(h.Linkname, p); err != nil {
					t.Fatal(err)
				}
				continue
			default:
				t.Fatalf("layer %d: %s has type %c", i, h.Name, h.Typeflag)
			}
			if err := os.Chmod(p, mode); err != nil {
				t.Fatal(err)
			}
			if os.Geteuid() == 0 {
				if err := os.Lchown(p, h.Uid, h.Gid); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// waitReady polls url until it answers 200; the node exiting first
// (stopped), or no answer within two minutes, fails the test.
func waitReady(t *testing.T, url string, stopped func() bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		if stopped() {
			t.Fatal("campus serve exited before it was ready")
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s never answered 200 (last: %v)", url, err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func get(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", url, resp.Status)
	}
	return string(b)
}

// freePort picks a port below the ephemeral range (see freeport).
func freePort(t *testing.T) int { return freeport.Must(t) }

func envMap(env []string) map[string]string {
	m := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		m[k] = v
	}
	return m
}

func fileDigest(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func mustUnmarshal(t *testing.T, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(errors.Join(errors.New("decode"), err))
	}
}
