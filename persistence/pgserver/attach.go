package pgserver

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/uptrace/bun/driver/pgdriver"
)

// ErrNotRunning means no live postgres holds the directory: there is
// nothing to attach to (Start one instead).
var ErrNotRunning = errors.New("pgserver: no postgres is running in the directory")

// Attach answers the connection URL of the postgres that another process
// (a running `campus serve`) started in dir, so that a tool such as `campus
// admin` can work on the live database instead of failing with ErrInUse.
// The port is read from postgres's own postmaster.pid (it changes at every
// start), the password from the file beside the cluster. It answers
// ErrNotRunning when no live postmaster holds dir's cluster.
func Attach(ctx context.Context, dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("pgserver: %w", err)
	}
	dataDir := filepath.Join(dir, "data")
	b, err := os.ReadFile(filepath.Join(dataDir, "postmaster.pid"))
	if os.IsNotExist(err) {
		return "", ErrNotRunning
	}
	if err != nil {
		return "", fmt.Errorf("pgserver: read postmaster.pid: %w", err)
	}
	pid, port, ok := parsePidFile(string(b))
	if !ok {
		return "", ErrNotRunning // torn, or written by a postmaster still starting
	}
	held, err := holdsDataDir(pid, dataDir)
	if err != nil {
		return "", err
	}
	if !held {
		return "", ErrNotRunning // stale: its postmaster is gone
	}
	password, err := loadPassword(filepath.Join(dir, "password"), false, account{})
	if err != nil {
		return "", err
	}
	url := dsn(password, port, database)
	db := sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(url), pgdriver.WithTimeout(5*time.Second)))
	defer db.Close()
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := db.PingContext(pctx); err != nil {
		return "", fmt.Errorf("pgserver: the postgres running in %s (pid %d, port %d) does not answer: %w", dir, pid, port, err)
	}
	return url, nil
}

// parsePidFile reads the postmaster's pid (line 1) and TCP port (line 4)
// from postmaster.pid.
func parsePidFile(s string) (pid, port int, ok bool) {
	lines := strings.Split(s, "\n")
	if len(lines) < 4 {
		return 0, 0, false
	}
	pid, err1 := strconv.Atoi(strings.TrimSpace(lines[0]))
	port, err2 := strconv.Atoi(strings.TrimSpace(lines[3]))
	if err1 != nil || err2 != nil || pid <= 0 || port <= 0 || port > 65535 {
		return 0, 0, false
	}
	return pid, port, true
}
