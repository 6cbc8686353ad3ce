// Package image builds Campus's container image: an OCI image written as
// one tar file that is both an OCI image layout (podman load, skopeo
// oci-archive:, containerd's import) and a `docker save` archive (docker
// load, crane push, kind load image-archive). `make image` runs it through
// mkimage; the README's Image section says what goes in and how to push it.
//
// There is no Docker engine and no base image: the root file system is
// assembled here from the campus binary, the built client, Debian's pg_dump
// and pg_restore with the shared libraries they load (found with ldd on the
// build machine), the machine's CA bundle and a passwd naming the non-root
// user campus (65532). Timestamps are fixed (Options.Created) and entries
// sorted, so the same inputs give the same image digest.
package image

import (
	"bufio"
	"bytes"
	"debug/elf"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The image's fixed facts; the manifests in deploy/kubernetes (checked by
// their test) and the README rely on them.
const (
	// DefaultRef is the image's name unless make image is told otherwise
	// (IMAGE=…); deploy/kubernetes runs it.
	DefaultRef = "campus:latest"

	// UID and GID of the user campus runs as. 65532 is the "nonroot" of
	// the distroless images: outside any range a distribution hands out.
	UID = 65532
	GID = 65532

	// BinaryPath is the entrypoint; ClientDir is CAMPUS_CLIENT_DIR and
	// DataDir CAMPUS_DATA_DIR, owned by UID (also the working directory).
	BinaryPath = "/usr/bin/campus"
	ClientDir  = "/usr/share/campus/client"
	DataDir    = "/var/lib/campus"
	// HTTPPort and RemotingPort are the ports the image declares
	// (CAMPUS_ADDR, and the port of CAMPUS_CLUSTER_ADDR in a cluster).
	HTTPPort     = 8080
	RemotingPort = 6331
)

// Options say what goes into the image.
type Options struct {
	// Binary is the campus binary to ship; make image builds it static,
	// with the Kubernetes provider. A binary built with cgo works too: the
	// libraries it loads are shipped with it.
	Binary string
	// ClientDir is the built client (client/dist).
	ClientDir string
	// PostgresBin holds pg_dump and pg_restore; empty is Debian's newest
	// /usr/lib/postgresql/N/bin, where campus backup looks too.
	PostgresBin string
	// Ref is the image's name ("campus:latest", "registry.example.edu/campus:v3").
	Ref string
	// Version and Revision become the image's labels.
	Version, Revision string
	// Created is the image's date and every file's time.
	Created time.Time
	// Log, when set, is told about each layer.
	Log func(format string, args ...any)
}

// entry is one file system object of a layer. Exactly one of src (a file
// of the build machine, copied), data and link is set for a file; a
// directory has none.
type entry struct {
	path     string // absolute, in the image
	mode     fs.FileMode
	uid, gid int
	src      string
	data     []byte
	link     string // symlink target
}

func (e entry) isDir() bool { return e.mode.IsDir() }

// layerSpec is a layer's name (its history line) and its entries.
type layerSpec struct {
	name    string
	entries []entry
}

// rootfs gathers the image's layers: what changes least first, so that a
// new release pushes only its last layer or two.
func rootfs(o Options) ([]layerSpec, error) {
	bin, err := filepath.Abs(o.Binary)
	if err != nil {
		return nil, err
	}
	if !isFile(bin) {
		return nil, fmt.Errorf("no campus binary at %s (make image builds it)", o.Binary)
	}
	if !isFile(filepath.Join(o.ClientDir, "index.html")) {
		return nil, fmt.Errorf("no built client in %s (make client builds it)", o.ClientDir)
	}
	pgBin := o.PostgresBin
	if pgBin == "" {
		if pgBin, err = newestPostgresBin(); err != nil {
			return nil, err
		}
	}

	sys := newFileSet()
	// /tmp for the backups' scratch files; Kubernetes mounts an emptyDir
	// over it and over the data dir, since the root file system is
	// mounted read-only there.
	sys.dir("/tmp", fs.ModeSticky|0o777, 0, 0)
	sys.dir(DataDir, 0o755, UID, GID)
	sys.file("/etc/passwd", 0o644, []byte(
		"root:x:0:0:root:/root:/usr/sbin/nologin\n"+
			fmt.Sprintf("campus:x:%d:%d:campus:%s:/usr/sbin/nologin\n", UID, GID, DataDir)))
	sys.file("/etc/group", 0o644, []byte("root:x:0:\n"+fmt.Sprintf("campus:x:%d:\n", GID)))
	sys.file("/etc/nsswitch.conf", 0o644, []byte("passwd: files\ngroup: files\nhosts: files dns\n"))
	// pg_dump's libpq and Go's crypto/x509 both find the bundle here.
	if err := sys.copyFile("/etc/ssl/certs/ca-certificates.crt", "/etc/ssl/certs/ca-certificates.crt", 0o644); err != nil {
		return nil, fmt.Errorf("CA certificates: %w (apt-get install ca-certificates)", err)
	}
	sys.addPackage("ca-certificates")
	if err := sys.copyFile("/etc/os-release", "/etc/os-release", 0o644); err != nil {
		return nil, err
	}
	sys.addPackage("base-files")

	// pg_dump and pg_restore where campus backup looks for them (Debian's
	// versioned directory), with every shared library they load.
	for _, tool := range []string{"pg_dump", "pg_restore"} {
		host := filepath.Join(pgBin, tool)
		if !isFile(host) {
			return nil, fmt.Errorf("no %s in %s (apt-get install postgresql-client)", tool, pgBin)
		}
		if err := sys.copyFile(host, host, 0o755); err != nil {
			return nil, err
		}
		sys.ownerOf(host)
		if err := sys.sharedLibraries(host); err != nil {
			return nil, err
		}
	}
	// A campus built with cgo loads glibc too; a static one (make image's)
	// needs nothing.
	if err := sys.sharedLibraries(bin); err != nil {
		return nil, err
	}
	if err := sys.packageRecords(); err != nil {
		return nil, err
	}

	client := newFileSet()
	client.dir("/usr/share/campus", 0o755, 0, 0)
	if err := client.copyTree(o.ClientDir, ClientDir); err != nil {
		return nil, err
	}

	app := newFileSet()
	if err := app.copyFile(bin, BinaryPath, 0o755); err != nil {
		return nil, err
	}

	return []layerSpec{
		{"system: CA certificates, passwd, pg_dump and pg_restore with their libraries", sys.sorted()},
		{"the web client", client.sorted()},
		{"the campus binary", app.sorted()},
	}, nil
}

// fileSet collects the entries of one layer; a path added twice keeps its
// first entry.
type fileSet struct {
	entries  map[string]entry
	packages map[string]bool // Debian packages the files came from
	owned    []string        // files of some package, packages still unknown
}

func newFileSet() *fileSet {
	return &fileSet{entries: map[string]entry{}, packages: map[string]bool{}}
}

func (s *fileSet) add(e entry) {
	if _, ok := s.entries[e.path]; ok {
		return
	}
	s.entries[e.path] = e
	// Every parent too: a runtime would make the missing ones itself,
	// owned by root and 0755, which is what they get here; but listed they
	// are the same on every unpacker.
	for d := path.Dir(e.path); d != "/"; d = path.Dir(d) {
		if _, ok := s.entries[d]; !ok {
			s.entries[d] = entry{path: d, mode: fs.ModeDir | 0o755}
		}
	}
}

func (s *fileSet) dir(p string, mode fs.FileMode, uid, gid int) {
	s.add(entry{path: p, mode: fs.ModeDir | mode, uid: uid, gid: gid})
}

func (s *fileSet) file(p string, mode fs.FileMode, data []byte) {
	s.add(entry{path: p, mode: mode, data: data})
}

func (s *fileSet) symlink(p, target string) {
	s.add(entry{path: p, mode: fs.ModeSymlink | 0o777, link: target})
}

// copyFile adds the build machine's file host (symlinks followed) at p.
func (s *fileSet) copyFile(host, p string, mode fs.FileMode) error {
	real, err := filepath.EvalSymlinks(host)
	if err != nil {
		return err
	}
	if !isFile(real) {
		return fmt.Errorf("%s is not a regular file", host)
	}
	s.add(entry{path: p, mode: mode, src: real})
	return nil
}

// copyTree adds every file under the build machine's dir at p, readable
// by all and owned by root.
func (s *fileSet) copyTree(dir, p string) error {
	return filepath.WalkDir(dir, func(host string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, host)
		if err != nil {
			return err
		}
		target := path.Join(p, filepath.ToSlash(rel))
		switch {
		case d.IsDir():
			s.dir(target, 0o755, 0, 0)
		case d.Type().IsRegular():
			s.add(entry{path: target, mode: 0o644, src: host})
		default:
			return fmt.Errorf("%s: only files and directories may be shipped", host)
		}
		return nil
	})
}

// usrMerged are the top-level directories that are symlinks into /usr on a
// merged-/usr system (Debian since 12): ldd names libraries by these paths,
// and the dynamic loader's own path (/lib64/ld-linux-x86-64.so.2) is written
// into every binary, so the image keeps the same links.
var usrMerged = []string{"/bin", "/lib", "/lib64", "/sbin"}

// imagePath is where a library the build machine knows as host goes in the
// image: under /usr when its top directory is a link into /usr here.
func imagePath(host string) string {
	for _, top := range usrMerged {
		if strings.HasPrefix(host, top+"/") {
			if t, err := os.Readlink(top); err == nil && t == "usr"+top {
				return "/usr" + host
			}
		}
	}
	return host
}

// lddLine matches ldd's "name => /path (0x…)" and "/path (0x…)" lines.
var lddLine = regexp.MustCompile(`^\s*(?:(\S+) => )?(/\S+) \(0x[0-9a-f]+\)$`)

// sharedLibraries adds the libraries the dynamic executable bin loads, as
// ldd finds them on the build machine, and the loader itself. A static
// executable adds nothing.
func (s *fileSet) sharedLibraries(bin string) error {
	f, err := elf.Open(bin)
	if err != nil {
		return fmt.Errorf("%s: %w", bin, err)
	}
	dynamic := slices.ContainsFunc(f.Progs, func(p *elf.Prog) bool { return p.Type == elf.PT_INTERP })
	f.Close()
	if !dynamic {
		return nil
	}
	out, err := exec.Command("ldd", bin).CombinedOutput()
	if err != nil {
		return fmt.Errorf("ldd %s: %w: %s", bin, err, bytes.TrimSpace(out))
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		if strings.Contains(line, "not found") {
			return fmt.Errorf("ldd %s: %s", bin, strings.TrimSpace(line))
		}
		m := lddLine.FindStringSubmatch(line)
		if m == nil {
			continue // linux-vdso.so.1, which the kernel provides
		}
		host := m[2]
		p := imagePath(host)
		if err := s.copyFile(host, p, 0o755); err != nil {
			return err
		}
		s.ownerOf(host)
	}
	for _, top := range usrMerged {
		if t, err := os.Readlink(top); err == nil && t == "usr"+top {
			s.symlink(top, t)
			s.dir("/"+t, 0o755, 0, 0)
		}
	}
	return sc.Err()
}

// ownerOf notes that host came from a Debian package; packageRecords
// asks dpkg which.
func (s *fileSet) ownerOf(host string) {
	s.owned = append(s.owned, host, imagePath(host))
	if real, err := filepath.EvalSymlinks(host); err == nil {
		s.owned = append(s.owned, real)
	}
}

// owners asks dpkg, once, which packages installed the paths ownerOf noted.
func (s *fileSet) owners() error {
	if len(s.owned) == 0 {
		return nil
	}
	// Paths of no package (a library's unmerged /lib spelling) make dpkg
	// exit 1 while it still lists the others.
	out, err := exec.Command("dpkg-query", append([]string{"-S"}, s.owned...)...).Output()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return fmt.Errorf("dpkg-query -S: %w", err)
	}
	// "libpq5:amd64: /usr/lib/x86_64-linux-gnu/libpq.so.5", or several
	// packages before the colon, comma-separated.
	for line := range strings.SplitSeq(string(out), "\n") {
		pkgs, _, ok := strings.Cut(line, ": /")
		if !ok || strings.HasPrefix(line, "diversion by") {
			continue
		}
		for p := range strings.SplitSeq(pkgs, ", ") {
			s.addPackage(p)
		}
	}
	return nil
}

func (s *fileSet) addPackage(pkg string) { s.packages[pkg] = true }

// packageRecords writes, for each Debian package files were taken from,
// its dpkg status record to /var/lib/dpkg/status.d/ (where scanners such as
// trivy and grype look in images without a dpkg database, as distroless
// does) and its copyright file, which the licenses of the libraries ask to
// travel with them.
func (s *fileSet) packageRecords() error {
	if _, err := exec.LookPath("dpkg-query"); err != nil {
		return nil // not a Debian build machine: nothing to record
	}
	if err := s.owners(); err != nil {
		return err
	}
	pkgs := make([]string, 0, len(s.packages))
	for p := range s.packages {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	s.dir("/var/lib/dpkg", 0o755, 0, 0)
	s.dir("/var/lib/dpkg/status.d", 0o755, 0, 0)
	for _, pkg := range pkgs {
		status, err := exec.Command("dpkg-query", "-s", pkg).Output()
		if err != nil {
			return fmt.Errorf("dpkg-query -s %s: %w", pkg, err)
		}
		name, _, _ := strings.Cut(pkg, ":")
		s.file("/var/lib/dpkg/status.d/"+name, 0o644, status)
		copyright := "/usr/share/doc/" + name + "/copyright"
		if isFile(copyright) {
			if err := s.copyFile(copyright, copyright, 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

// sorted answers the entries in path order, each directory before what it
// holds, as image tools expect.
func (s *fileSet) sorted() []entry {
	out := make([]entry, 0, len(s.entries))
	for _, e := range s.entries {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}

// newestPostgresBin is Debian's newest /usr/lib/postgresql/N/bin holding
// pg_dump, where campus backup looks too.
func newestPostgresBin() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin") // a constant pattern: no error
	best, bestN := "", -1
	for _, d := range dirs {
		n, err := strconv.Atoi(filepath.Base(filepath.Dir(d)))
		if err == nil && n > bestN && isFile(filepath.Join(d, "pg_dump")) {
			best, bestN = d, n
		}
	}
	if best == "" {
		return "", errors.New("no pg_dump in /usr/lib/postgresql/*/bin: apt-get install postgresql-client (or pass -postgres-bin)")
	}
	return best, nil
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}
