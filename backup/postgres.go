package backup

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"time"

	"campus/persistence/pgserver"
)

// libpq is how pg_dump and pg_restore reach the database that pgdriver
// reaches through a URL. The URL itself will not do: pgdriver accepts
// parameters libpq rejects, and a password on a command line is visible to
// every user of the machine, so the password travels in the environment.
type libpq struct {
	conninfo string // keyword=value pairs, without the password
	password string
}

// libpqFrom translates a pgdriver URL, keeping what libpq understands.
func libpqFrom(raw string) (libpq, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		// The URL may hold a password: never quote it.
		return libpq{}, errors.New("backup: malformed database URL")
	}
	q := u.Query()
	host, port := u.Hostname(), u.Port()
	if h := q.Get("host"); h != "" { // a unix socket directory, as pgdriver allows
		host = h
	}
	if host == "" {
		host = "localhost"
	}
	if port == "" {
		port = "5432"
	}
	user := u.User.Username()
	if user == "" {
		user = "postgres" // pgdriver's default, not libpq's (the OS user)
	}
	password, _ := u.User.Password()
	kv := []string{
		"host=" + quoteConninfo(host),
		"port=" + quoteConninfo(port),
		"user=" + quoteConninfo(user),
		"dbname=" + quoteConninfo(strings.TrimPrefix(u.Path, "/")),
		"application_name=campus-backup",
		"connect_timeout=30",
	}
	for _, k := range []string{"sslmode", "sslrootcert", "sslcert", "sslkey"} {
		if v := q.Get(k); v != "" {
			kv = append(kv, k+"="+quoteConninfo(v))
		}
	}
	return libpq{conninfo: strings.Join(kv, " "), password: password}, nil
}

// quoteConninfo quotes a conninfo value: single quotes, with backslashes
// and quotes escaped.
func quoteConninfo(v string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(v) + "'"
}

// env is the whole environment of a client program: none of the parent's
// PG* variables may redirect it to another server.
func (l libpq) env() []string {
	env := []string{"PATH=/usr/bin:/bin", "LC_ALL=C", "PGPASSFILE=/dev/null", "PGSYSCONFDIR=/nonexistent"}
	if l.password != "" {
		env = append(env, "PGPASSWORD="+l.password)
	}
	return env
}

// runTool runs one client program to completion. Its stderr becomes part of
// the error; on success what it said is dropped (pg_restore warns about
// things --no-owner already handles).
func runTool(ctx context.Context, path string, args []string, conn libpq) error {
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Env = conn.env()
	cmd.Dir = os.TempDir()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	// A cancelled backup asks the tool to stop first; it ends its
	// transaction and leaves nothing behind on the server.
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 10 * time.Second
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if len(msg) > 4000 {
			msg = "…" + msg[len(msg)-4000:]
		}
		if msg != "" {
			return fmt.Errorf("%s: %w: %s", pathBase(path), err, msg)
		}
		return fmt.Errorf("%s: %w", pathBase(path), err)
	}
	return nil
}

func pathBase(p string) string {
	return p[strings.LastIndexByte(p, '/')+1:]
}

// findTool wraps pgserver.Tool with the package's error prefix.
func findTool(ctx context.Context, name string, minMajor int) (string, int, error) {
	p, major, err := pgserver.Tool(ctx, name, minMajor)
	if err != nil {
		return "", 0, fmt.Errorf("backup: %w", err)
	}
	return p, major, nil
}
