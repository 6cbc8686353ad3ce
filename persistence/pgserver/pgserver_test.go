package pgserver

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/uptrace/bun/driver/pgdriver"
)

// helperDir makes this test binary act as a campus process that starts a
// server and waits to be killed (see TestKilledParentLeavesNoPostgres).
var helperDir = flag.String("pgserver-helper-dir", "", "internal: start a server in this directory, print its pid, wait")

// tempDir is a directory whose subdirectories the postgres user can reach
// when we are root: t.TempDir's parent is 0700, which it cannot traverse.
func tempDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "pgserver-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o711); err != nil {
		t.Fatal(err)
	}
	return dir
}

func testLog(t *testing.T) zerolog.Logger {
	return zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel)
}

func start(t *testing.T, dir string) *Server {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s, err := Start(ctx, Options{Dir: dir, Log: testLog(t), Ephemeral: true})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	return s
}

func stop(t *testing.T, s *Server) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := s.Stop(ctx); err != nil {
		t.Fatalf("Stop: %v", err)
	}
}

func open(t *testing.T, url string) *sql.DB {
	t.Helper()
	db := sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(url)))
	t.Cleanup(func() { db.Close() })
	return db
}

// processUID reads the real uid of pid from /proc.
func processUID(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "Uid:"); ok {
			uid, err := strconv.Atoi(strings.Fields(rest)[0])
			if err != nil {
				t.Fatal(err)
			}
			return uid
		}
	}
	t.Fatalf("no Uid line in /proc/%d/status", pid)
	return 0
}

func TestStartStopRestart(t *testing.T) {
	dir := tempDir(t)
	ctx := context.Background()

	s := start(t, dir)
	if !strings.HasPrefix(s.URL(), "postgres://campus:") || !strings.HasSuffix(s.URL(), "/campus?sslmode=disable") {
		t.Errorf("URL() = %q, want postgres://campus:…/campus?sslmode=disable", s.URL())
	}
	db := open(t, s.URL())
	if _, err := db.ExecContext(ctx, "CREATE TABLE kept (v text); INSERT INTO kept VALUES ('from run 1')"); err != nil {
		t.Fatal(err)
	}
	var current string
	if err := db.QueryRowContext(ctx, "SELECT current_database()").Scan(&current); err != nil || current != "campus" {
		t.Fatalf("current_database() = %q, %v; want campus", current, err)
	}
	db.Close()

	fi, err := os.Stat(filepath.Join(dir, "password"))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("password file mode = %o, want 600", fi.Mode().Perm())
	}

	if _, err := Start(ctx, Options{Dir: dir, Log: testLog(t)}); !errors.Is(err, ErrInUse) {
		t.Errorf("second Start on a directory in use: err = %v, want ErrInUse", err)
	}

	pid := s.child.pid
	if os.Geteuid() == 0 {
		acct, err := runAccount()
		if err != nil {
			t.Fatal(err)
		}
		if uid := processUID(t, pid); uid != acct.uid {
			t.Errorf("running as root, postgres runs as uid %d, want %d (postgres)", uid, acct.uid)
		}
	}
	stop(t, s)
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("postgres pid %d still exists after Stop (kill 0: %v)", pid, err)
	}
	select {
	case <-s.Done():
	default:
		t.Error("Done() not closed after Stop")
	}
	stop(t, s) // idempotent

	s2 := start(t, dir)
	defer stop(t, s2)
	var v string
	if err := open(t, s2.URL()).QueryRowContext(ctx, "SELECT v FROM kept").Scan(&v); err != nil || v != "from run 1" {
		t.Fatalf("data from run 1: got %q, %v", v, err)
	}
	if s2.URL() == s.URL() {
		t.Log("same port picked twice; fine, just unusual")
	}
}

func TestFailedStartQuotesLog(t *testing.T) {
	dir := tempDir(t)
	stop(t, start(t, dir))

	// postgresql.auto.conf belongs to postgres; appending keeps its owner.
	conf := filepath.Join(dir, "data", "postgresql.auto.conf")
	f, err := os.OpenFile(conf, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("campus_bogus_setting = 1\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := Start(ctx, Options{Dir: dir, Log: testLog(t), Ephemeral: true})
	if err == nil {
		stop(t, s)
		t.Fatal("Start succeeded with a bogus setting")
	}
	if !strings.Contains(err.Error(), "campus_bogus_setting") {
		t.Errorf("error does not quote the log: %v", err)
	}
	// The failed start released the directory: the next one may proceed.
	if _, err := lockDir(dir); err != nil {
		t.Errorf("directory still locked after a failed start: %v", err)
	}
}

func TestOrphanFromEarlierRunIsStopped(t *testing.T) {
	dir := tempDir(t)
	old := start(t, dir)
	// Pretend the manager of `old` died while its postmaster kept running:
	// drop the manager's lock but not the process.
	old.stopping.Store(true)
	old.lock.Close()

	s := start(t, dir)
	defer stop(t, s)
	select {
	case <-old.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the earlier postmaster is still running")
	}
	stop(t, old) // frees the rest of what it held
	if err := open(t, s.URL()).PingContext(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// TestKilledParentLeavesNoPostgres kills -9 a process that started a server
// and checks that its postgres goes away by itself, then that the next
// start on the same directory works. The directory is deeper than a unix
// socket path allows, which exercises the socket directory fallback.
func TestKilledParentLeavesNoPostgres(t *testing.T) {
	dir := filepath.Join(tempDir(t), strings.Repeat("d", 100))

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestHelperProcess$", "-pgserver-helper-dir="+dir)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := 0
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if p, ok := strings.CutPrefix(sc.Text(), "postgres pid "); ok {
			pid, _ = strconv.Atoi(p)
			break
		}
	}
	if pid == 0 {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatal("helper did not report a postgres pid")
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait() // killed: the error is expected
	if !waitGone(ctx, pid, 30*time.Second) {
		t.Fatalf("postgres pid %d outlived its killed parent", pid)
	}

	s := start(t, dir)
	if err := open(t, s.URL()).PingContext(ctx); err != nil {
		stop(t, s)
		t.Fatal(err)
	}
	stop(t, s)
	if s.tmpSock == "" {
		t.Fatalf("a %d-byte directory did not get a socket directory elsewhere", len(dir))
	}
	if _, err := os.Stat(s.tmpSock); !os.IsNotExist(err) {
		t.Errorf("socket directory %s left behind after Stop (stat: %v)", s.tmpSock, err)
	}
}

// TestHelperProcess is the killed parent of TestKilledParentLeavesNoPostgres.
func TestHelperProcess(t *testing.T) {
	if *helperDir == "" {
		t.Skip("runs only as a helper process")
	}
	s, err := Start(context.Background(), Options{Dir: *helperDir, Log: testLog(t), Ephemeral: true})
	if err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		os.Exit(2)
	}
	fmt.Printf("postgres pid %d\n", s.child.pid)
	time.Sleep(time.Minute) // the parent kills us long before
	os.Exit(3)
}

func TestFindBinaries(t *testing.T) {
	ctx := context.Background()
	noPath := func(string) (string, error) { return "", exec.ErrNotFound }
	real := searchPlaces(exec.LookPath, binGlob)

	t.Run("none", func(t *testing.T) {
		_, err := findBinaries(ctx, searchPlaces(noPath, filepath.Join(t.TempDir(), "*", "bin")), 0)
		if !errors.Is(err, ErrNoBinaries) {
			t.Fatalf("err = %v, want ErrNoBinaries", err)
		}
		if strings.Count(err.Error(), "\n") != 0 || !strings.Contains(err.Error(), "apt-get install postgresql") {
			t.Errorf("message %q: want one line naming the install command", err)
		}
	})
	t.Run("installed", func(t *testing.T) {
		b, err := findBinaries(ctx, real, 0)
		if err != nil {
			t.Fatal(err)
		}
		if b.major < 13 {
			t.Errorf("major = %d from %s", b.major, b.dir)
		}
		if _, err := findBinaries(ctx, real, b.major); err != nil {
			t.Errorf("the same major again: %v", err)
		}
	})
	t.Run("wrong major", func(t *testing.T) {
		_, err := findBinaries(ctx, real, 99)
		if err == nil || errors.Is(err, ErrNoBinaries) || !strings.Contains(err.Error(), "PostgreSQL 99") {
			t.Fatalf("err = %v, want a version mismatch naming 99", err)
		}
	})
}

func TestTool(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name, tool string
		min        int
		want       string // in the path, or in the error when wantErr
		wantErr    bool
	}{
		{name: "pg_dump", tool: "pg_dump", want: "/pg_dump"},
		{name: "pg_restore of at least 13", tool: "pg_restore", min: 13, want: "/pg_restore"},
		{name: "too new a version", tool: "pg_dump", min: 99, want: "PostgreSQL 99 or newer", wantErr: true},
		{name: "no such program", tool: "pg_nothing", want: "pg_nothing not found", wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, major, err := Tool(ctx, tc.tool, tc.min)
			if tc.wantErr {
				if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
					t.Fatalf("err = %v, want one line containing %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasSuffix(p, tc.want) || !isExecutable(p) || major < max(tc.min, 10) {
				t.Errorf("path = %q, major = %d", p, major)
			}
		})
	}
}

func TestCanTraverse(t *testing.T) {
	const uid, gid = 101, 104
	tests := []struct {
		name      string
		perm      os.FileMode
		owner, gr int
		want      bool
	}{
		{"owner with x", 0o700, uid, 0, true},
		{"owner without x, others with x", 0o601, uid, 0, false},
		{"group with x", 0o710, 0, gid, true},
		{"group without x", 0o701, 0, gid, false},
		{"other with x", 0o711, 0, 0, true},
		{"other without x", 0o770, 0, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := canTraverse(tt.perm, tt.owner, tt.gr, uid, gid); got != tt.want {
				t.Errorf("canTraverse(%o) = %v, want %v", tt.perm, got, tt.want)
			}
		})
	}
}

func TestUntraversableParentIsNamed(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root hands the server to another user")
	}
	parent := t.TempDir() // 0700, owned by root
	dir := filepath.Join(parent, "pg")
	_, err := Start(context.Background(), Options{Dir: dir, Log: testLog(t)})
	if err == nil || !strings.Contains(err.Error(), parent) || !strings.Contains(err.Error(), "chmod o+x") {
		t.Fatalf("err = %v, want one naming %s and the fix", err, parent)
	}
}
