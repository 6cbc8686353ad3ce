package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/rs/zerolog"
	"github.com/uptrace/bun"

	"campus/app"
	"campus/config"
	"campus/domain"
	"campus/persistence"
	"campus/persistence/pgserver"
)

// adminUsage is `campus admin`'s help.
const adminUsage = `campus admin — manage accounts from the command line, while nodes run

Usage:
  campus admin grant EMAIL [-role admin|moderator]    give the account a role (default admin)
  campus admin revoke EMAIL [-role admin|moderator]   take a role away (default admin)
  campus admin suspend EMAIL -reason TEXT [-days N]   suspend the account for N days (0, the
                                                      default: for good); its sockets close on
                                                      every node
  campus admin unsuspend EMAIL [-reason TEXT]         lift a suspension
  campus admin users list [-q TEXT] [-limit N] [-all] accounts whose name or e-mail contains
                                                      TEXT, newest first (-all: every page)

It works on the database the nodes use: DATABASE_URL, or the embedded Postgres
of CAMPUS_DATA_DIR (a running node's, or one it starts when no node runs).
Every change is in the audit log, by "` + app.OperatorName + `".
`

// adminArgs is a parsed `campus admin` command line.
type adminArgs struct {
	verb   string // grant, revoke, suspend, unsuspend, users list
	email  string
	role   string
	reason string
	days   int
	query  string
	limit  int
	all    bool
	// notice names the product and the support address in a suspension's
	// e-mail (from the configuration).
	notice *app.SuspensionNotice
}

// parseAdmin reads `campus admin`'s arguments; flags may come before or
// after the e-mail address.
func parseAdmin(args []string, stderr io.Writer) (adminArgs, error) {
	var a adminArgs
	fs := flag.NewFlagSet("campus admin", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, adminUsage) }
	fs.StringVar(&a.role, "role", domain.CapAdmin, "admin or moderator (grant, revoke)")
	fs.StringVar(&a.reason, "reason", "", "why, for the audit log (suspend, unsuspend)")
	fs.IntVar(&a.days, "days", 0, "days of suspension; 0 is for good (suspend)")
	fs.StringVar(&a.query, "q", "", "only accounts whose name or e-mail contains this (users list)")
	fs.IntVar(&a.limit, "limit", 50, "accounts per page, at most 100 (users list)")
	fs.BoolVar(&a.all, "all", false, "every page (users list)")
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return a, err
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	bad := func(msg string) (adminArgs, error) {
		return a, fmt.Errorf("campus admin: %s\n\n%s", msg, adminUsage)
	}
	if len(pos) == 0 {
		return bad("want a command")
	}
	a.verb = pos[0]
	switch a.verb {
	case "grant", "revoke", "suspend", "unsuspend":
		if len(pos) != 2 || strings.TrimSpace(pos[1]) == "" {
			return bad(fmt.Sprintf("want \"%s EMAIL\", e.g. campus admin %s dean@uni.edu", a.verb, a.verb))
		}
		a.email = pos[1]
	case "users":
		if len(pos) != 2 || pos[1] != "list" {
			return bad(`want "users list"`)
		}
		a.verb = "users list"
	default:
		return bad(fmt.Sprintf("unknown command %q", a.verb))
	}
	if (a.verb == "grant" || a.verb == "revoke") && a.role != domain.CapAdmin && a.role != domain.CapModerator {
		return bad(fmt.Sprintf("-role %q: want admin or moderator", a.role))
	}
	if a.verb == "suspend" && strings.TrimSpace(a.reason) == "" {
		return bad("suspend needs -reason TEXT (it goes in the audit log)")
	}
	if a.verb == "unsuspend" && strings.TrimSpace(a.reason) == "" {
		a.reason = "Lifted by the operator"
	}
	if a.limit < 1 || a.limit > 100 {
		return bad("-limit must be from 1 to 100")
	}
	return a, nil
}

// runAdmin runs `campus admin …` and returns the exit code.
func runAdmin(args []string, stdout, stderr io.Writer) int {
	a, err := parseAdmin(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	cfg, err := config.Load(os.Getenv)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	log := newLogger(cfg, stderr)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	a.notice = &app.SuspensionNotice{Product: cfg.ProductName, Support: cfg.SupportEmail}
	db, closeDB, err := adminDatabase(ctx, cfg, log)
	defer closeDB()
	if err == nil {
		err = a.run(ctx, db, stdout)
	}
	var de *domain.Error
	switch {
	case err == nil:
		return 0
	case errors.As(err, &de):
		// What the console would show: the account, the role, the reason.
		fmt.Fprintln(stderr, "campus admin:", de.Message)
		return 1
	case errors.Is(err, pgserver.ErrNoBinaries):
		fmt.Fprintln(stderr, "campus:", pgserver.ErrNoBinaries)
		return 1
	default:
		log.Error().Err(err).Msg("campus admin failed")
		return 1
	}
}

// run carries out the command on db.
func (a adminArgs) run(ctx context.Context, db *bun.DB, stdout io.Writer) error {
	var (
		res app.OperatorResult
		err error
	)
	switch a.verb {
	case "grant", "revoke":
		res, err = app.OperatorSetRole(ctx, db, a.email, a.role, a.verb == "grant")
	case "suspend":
		res, err = app.OperatorSuspend(ctx, db, a.email, a.days, a.reason, a.notice)
	case "unsuspend":
		res, err = app.OperatorUnsuspend(ctx, db, a.email, a.reason)
	case "users list":
		return listUsers(ctx, db, a, stdout)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s (%s): %s\n", res.Email, res.UserID, res.Message)
	return nil
}

// listUsers prints the accounts as a table.
func listUsers(ctx context.Context, db *bun.DB, a adminArgs, stdout io.Writer) error {
	w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "EMAIL\tNAME\tKIND\tROLES\tSTATUS\tJOINED\tID")
	cursor := ""
	for {
		page, err := app.OperatorUsers(ctx, db, a.query, a.limit, cursor)
		if err != nil {
			return err
		}
		for _, u := range page.Users {
			roles := strings.Join(u.Capabilities, ",")
			if roles == "" {
				roles = "-"
			}
			status := "active"
			switch {
			case u.Suspended && u.SuspendedTil == nil:
				status = "suspended for good"
			case u.Suspended:
				status = "suspended until " + u.SuspendedTil.UTC().Format(time.DateOnly)
			case !u.Verified:
				status = "unverified"
			}
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", u.Email, u.Name, u.Role, roles, status,
				u.CreatedAt.UTC().Format(time.DateOnly), u.ID)
		}
		if page.NextCursor == nil {
			break
		}
		if !a.all {
			fmt.Fprintf(w, "… more: -all lists every page\n")
			break
		}
		cursor = *page.NextCursor
	}
	return w.Flush()
}

// adminDatabase opens the database `campus admin` works on: DATABASE_URL;
// else the embedded Postgres a running node started in the data dir
// (found from its postmaster.pid: its port changes at every start), not
// migrated, since the node did that; else, with no node running, one it
// starts itself (and migrates, as `campus migrate` would).
func adminDatabase(ctx context.Context, cfg config.Config, log zerolog.Logger) (*bun.DB, func(), error) {
	if cfg.DatabaseURL != "" {
		return openDatabase(ctx, cfg, log)
	}
	for attempt := 0; ; attempt++ {
		url, err := pgserver.Attach(ctx, cfg.PostgresDir())
		if err == nil {
			log.Debug().Str("dir", cfg.PostgresDir()).Msg("using the running node's embedded postgres")
			db, err := persistence.Open(ctx, url, log)
			if err != nil {
				return nil, func() {}, err
			}
			return db, func() { _ = db.Close() }, nil
		}
		if !errors.Is(err, pgserver.ErrNotRunning) {
			return nil, func() {}, err
		}
		db, closeDB, err := openDatabase(ctx, cfg, log)
		// A node that started between the two looks holds the directory
		// now: attach to it instead.
		if errors.Is(err, pgserver.ErrInUse) && attempt == 0 {
			closeDB()
			continue
		}
		return db, closeDB, err
	}
}
