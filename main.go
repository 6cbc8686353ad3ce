// Command campus is the whole Campus product in one binary: the HTTP API and
// websocket, the actor-system cluster member, the search indexer and the
// built client.
//
//	campus serve     start a node (embedded Postgres unless DATABASE_URL is set)
//	campus migrate   run database migrations and exit
//	campus reindex   rebuild the search index from the database
//	campus backup    write the database and media files into a directory
//	campus restore   put a backup back into an empty database and data dir
//	campus admin …   grant and revoke roles, suspend, list accounts (nodes may run)
//	campus cluster certs DIR   make the cluster's CA and node certificate
//	campus version   print the version
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/rs/zerolog"

	"campus/cluster"
	"campus/config"
	"campus/persistence/pgserver"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

const usage = `campus — a realtime campus social network

Usage:
  campus serve          start a node: HTTP API, websockets, actors, search, client
  campus migrate        run database migrations, then exit
  campus reindex        rebuild the search index from the database (stop the node first)
  campus backup DIR     write the database and media files into DIR (new or empty)
  campus restore DIR    put the backup in DIR into an empty database and data dir
                        (the search index rebuilds itself at the next start)
  campus admin grant EMAIL
                        make the account with EMAIL an admin (admins then
                        grant moderators in the app); also revoke, suspend,
                        unsuspend, users list: "campus admin -h". Works while
                        nodes run, on the database they use
  campus cluster certs DIR
                        write a cluster CA and the node certificate every node
                        presents on remoting into DIR; run again to renew the
                        node certificate (the CA in DIR is kept)
  campus version        print the version
  campus help           show this help

Configuration comes from the environment (see README.md), e.g.
  CAMPUS_ADDR=:8080  CAMPUS_DATA_DIR=./var  DATABASE_URL=postgres://...
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run returns the process exit code, so deferred clean-up (stopping the
// embedded Postgres above all) always happens before the process exits.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "help", "-h", "--help", "-help":
		fmt.Fprint(stdout, usage)
		return 0
	case "version", "--version":
		fmt.Fprintln(stdout, "campus", version)
		return 0
	case "admin":
		return runAdmin(rest, stdout, stderr) // admincmd.go
	case "cluster":
		return clusterCommand(rest, stdout, stderr)
	case "serve", "migrate", "reindex", "backup", "restore":
	default:
		fmt.Fprintf(stderr, "campus: unknown command %q\n\n%s", cmd, usage)
		return 2
	}

	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := fs.Parse(rest); err != nil {
		return 2
	}
	var dir string
	if cmd == "backup" || cmd == "restore" {
		if fs.NArg() != 1 || fs.Arg(0) == "" {
			fmt.Fprintf(stderr, "campus %s: want exactly one directory, e.g. campus %s /srv/backups/campus-2026-11-24\n", cmd, cmd)
			return 2
		}
		dir = fs.Arg(0)
	}

	cfg, err := config.Load(os.Getenv)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	log := newLogger(cfg, stderr)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	switch cmd {
	case "migrate":
		err = migrateOnly(ctx, cfg, log)
	case "reindex":
		err = reindex(ctx, cfg, log, stderr)
	case "backup":
		err = runBackup(ctx, cfg, log, dir, stderr)
	case "restore":
		err = runRestore(ctx, cfg, log, dir, stderr)
	case "serve":
		err = serve(ctx, cfg, log, stdout)
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, pgserver.ErrNoBinaries):
		fmt.Fprintln(stderr, "campus:", pgserver.ErrNoBinaries)
		return 1
	case refusal(err):
		fmt.Fprintln(stderr, "campus:", err)
		return 1
	default:
		log.Error().Err(err).Msg("campus stopped with an error")
		return 1
	}
}

// logTimeFormat is the logs' timestamp: UTC to the millisecond.
const logTimeFormat = "2006-01-02T15:04:05.000Z07:00"

func newLogger(cfg config.Config, w io.Writer) zerolog.Logger {
	format := cfg.LogFormat
	if format == "" {
		format = "json"
		if f, ok := w.(*os.File); ok && isatty.IsTerminal(f.Fd()) {
			format = "console"
		}
	}
	if format == "console" {
		w = zerolog.ConsoleWriter{Out: w, TimeFormat: "15:04:05.000"}
	}
	// Millisecond timestamps (RFC 3339 with .000): a second is too coarse
	// to order one request's lines against another node's.
	zerolog.TimeFieldFormat = logTimeFormat
	zerolog.TimestampFunc = func() time.Time { return time.Now().UTC() }
	return zerolog.New(w).Level(cfg.LogLevel).With().Timestamp().Logger()
}

// clusterCommand runs "campus cluster certs DIR". It needs no configuration:
// the certificates are made before any node is configured to use them.
func clusterCommand(args []string, stdout, stderr io.Writer) int {
	if len(args) != 2 || args[0] != "certs" || args[1] == "" {
		fmt.Fprintln(stderr, "campus cluster: want \"certs DIR\", e.g. campus cluster certs /etc/campus/cluster-tls")
		return 2
	}
	dir := args[1]
	res, err := cluster.WriteCerts(dir, time.Now())
	if err != nil {
		fmt.Fprintln(stderr, "campus:", err)
		return 1
	}
	if res.NewCA {
		fmt.Fprintf(stdout, "made a new cluster CA (%s) in %s\n", res.CAName, filepath.Join(dir, cluster.CAFile))
	} else {
		fmt.Fprintf(stdout, "kept the cluster CA (%s) in %s\n", res.CAName, filepath.Join(dir, cluster.CAFile))
	}
	fmt.Fprintf(stdout, `wrote the node certificate %s and its key %s, valid until %s

Give every node %s, %s and %s, and set
  CAMPUS_CLUSTER_TLS_CA=.../%s CAMPUS_CLUSTER_TLS_CERT=.../%s CAMPUS_CLUSTER_TLS_KEY=.../%s
Keep %s off the nodes: whoever holds it can make members of this cluster.
`, filepath.Join(dir, cluster.CertFile), filepath.Join(dir, cluster.KeyFile), res.NotAfter.Format(time.DateOnly),
		cluster.CAFile, cluster.CertFile, cluster.KeyFile, cluster.CAFile, cluster.CertFile, cluster.KeyFile,
		filepath.Join(dir, cluster.CAKeyFile))
	return 0
}
