package pgserver

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// binaries is one PostgreSQL installation: a directory holding both initdb
// and postgres, and the major version they report.
type binaries struct {
	dir   string
	major int
}

func (b binaries) initdb() string   { return filepath.Join(b.dir, "initdb") }
func (b binaries) postgres() string { return filepath.Join(b.dir, "postgres") }

// searchPlaces lists where to look for binaries: the directory of initdb on
// PATH first (an explicit choice by whoever set PATH), then Debian's
// versioned directories, newest version first.
func searchPlaces(lookPath func(string) (string, error), glob string) []string {
	var dirs []string
	if p, err := lookPath("initdb"); err == nil {
		// /usr/local/bin/initdb is often a symlink into the versioned
		// directory; postgres lives beside the real file.
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		dirs = append(dirs, filepath.Dir(p))
	}
	matches, _ := filepath.Glob(glob) // the pattern is constant: Glob cannot fail
	slices.SortFunc(matches, func(a, b string) int {
		return versionOf(b) - versionOf(a)
	})
	for _, m := range matches {
		if !slices.Contains(dirs, m) {
			dirs = append(dirs, m)
		}
	}
	return dirs
}

// versionOf reads the version from a path like /usr/lib/postgresql/15/bin.
func versionOf(binDir string) int {
	n, err := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	if err != nil {
		return 0
	}
	return n
}

var versionRE = regexp.MustCompile(`\(PostgreSQL\) (\d+)`)

// findBinaries picks the first place holding both executables. When
// wantMajor is set (an existing cluster's PG_VERSION) only that major version
// will do: a cluster cannot be opened by another major version.
func findBinaries(ctx context.Context, places []string, wantMajor int) (binaries, error) {
	var seen []string
	for _, dir := range places {
		b := binaries{dir: dir}
		if !isExecutable(b.initdb()) || !isExecutable(b.postgres()) {
			continue
		}
		major, err := majorVersion(ctx, b.postgres())
		if err != nil {
			return binaries{}, err
		}
		b.major = major
		if wantMajor == 0 || major == wantMajor {
			return b, nil
		}
		seen = append(seen, fmt.Sprintf("%d (%s)", major, dir))
	}
	if wantMajor != 0 && len(seen) > 0 {
		return binaries{}, fmt.Errorf("pgserver: the data directory was created by PostgreSQL %d but only %s is installed: install postgresql-%d", wantMajor, strings.Join(seen, ", "), wantMajor)
	}
	return binaries{}, ErrNoBinaries
}

func majorVersion(ctx context.Context, postgres string) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, postgres, "--version").Output()
	if err != nil {
		return 0, fmt.Errorf("pgserver: %s --version: %w", postgres, err)
	}
	m := versionRE.FindSubmatch(out)
	if m == nil {
		return 0, fmt.Errorf("pgserver: %s --version: unexpected output %q", postgres, strings.TrimSpace(string(out)))
	}
	n, err := strconv.Atoi(string(m[1]))
	if err != nil {
		return 0, fmt.Errorf("pgserver: %s --version: %w", postgres, err)
	}
	return n, nil
}

func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// clusterMajor returns the major version recorded in an initialised data
// directory, or 0 when there is none yet.
func clusterMajor(dataDir string) (int, error) {
	b, err := os.ReadFile(filepath.Join(dataDir, "PG_VERSION"))
	if os.IsNotExist(err) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("pgserver: read PG_VERSION: %w", err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		return 0, fmt.Errorf("pgserver: parse PG_VERSION %q: %w", strings.TrimSpace(string(b)), err)
	}
	return n, nil
}

// Tool returns the path and major version of one of PostgreSQL's client
// programs, such as pg_dump or pg_restore, looked up where Start looks for the server: beside
// initdb on PATH, then in /usr/lib/postgresql/*/bin, newest first. Only a
// program of major version minMajor or newer will do, because pg_dump
// refuses a server newer than itself and pg_restore an archive written by a
// newer pg_dump; 0 accepts any.
func Tool(ctx context.Context, name string, minMajor int) (path string, major int, err error) {
	var seen []string
	for _, dir := range searchPlaces(exec.LookPath, binGlob) {
		p := filepath.Join(dir, name)
		if !isExecutable(p) {
			continue
		}
		major, err := majorVersion(ctx, p)
		if err != nil {
			return "", 0, err
		}
		if major >= minMajor {
			return p, major, nil
		}
		seen = append(seen, fmt.Sprintf("%d (%s)", major, dir))
	}
	if len(seen) > 0 {
		return "", 0, fmt.Errorf("pgserver: %s of PostgreSQL %d or newer is needed but only %s is installed: install postgresql-client-%d", name, minMajor, strings.Join(seen, ", "), minMajor)
	}
	return "", 0, fmt.Errorf("pgserver: %s not found on PATH or in /usr/lib/postgresql/*/bin: install it with `apt-get install postgresql-client`", name)
}
