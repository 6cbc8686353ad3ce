package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/rs/zerolog"
	"github.com/uptrace/bun"

	"campus/actors"
	"campus/app"
	"campus/cluster"
	"campus/config"
	"campus/httpapi"
	"campus/mail"
	"campus/media"
	"campus/persistence"
	"campus/persistence/pgserver"
	"campus/searchindex"
)

// openDatabase connects to DATABASE_URL, or starts the embedded Postgres in
// the data dir when it is unset, then runs the migrations. The returned
// closer undoes everything that was started, in reverse order; it is valid
// (and must be called) even when an error is returned.
func openDatabase(ctx context.Context, cfg config.Config, log zerolog.Logger) (*bun.DB, func(), error) {
	url, closeAll, err := databaseURL(ctx, cfg, log)
	if err != nil {
		return nil, closeAll, err
	}
	db, err := persistence.Open(ctx, url, log)
	if err != nil {
		return nil, closeAll, err
	}
	closeDB := func() {
		_ = db.Close()
		closeAll()
	}
	if err := persistence.Migrate(ctx, db); err != nil {
		return nil, closeDB, err
	}
	return db, closeDB, nil
}

// databaseURL returns DATABASE_URL, or starts the embedded Postgres in the
// data dir when it is unset and returns its URL. Nothing is migrated: a
// backup must not change the database it copies, and a restore needs it
// empty. The closer stops what was started; it must be called even when an
// error is returned.
func databaseURL(ctx context.Context, cfg config.Config, log zerolog.Logger) (string, func(), error) {
	if cfg.DatabaseURL != "" {
		return cfg.DatabaseURL, func() {}, nil
	}
	// 0711: the unprivileged postgres user must traverse the data dir
	// to reach its own postgres/ (when we run as root), but not list it.
	if err := os.MkdirAll(cfg.DataDir, 0o711); err != nil {
		return "", func() {}, fmt.Errorf("data dir: %w", err)
	}
	pg, err := pgserver.Start(ctx, pgserver.Options{Dir: cfg.PostgresDir(), Log: log})
	if err != nil {
		return "", func() {}, fmt.Errorf("embedded postgres: %w", err)
	}
	log.Info().Str("dir", cfg.PostgresDir()).Msg("embedded postgres started")
	return pg.URL(), func() {
		c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := pg.Stop(c); err != nil {
			log.Error().Err(err).Msg("stop embedded postgres")
		}
	}, nil
}

func migrateOnly(ctx context.Context, cfg config.Config, log zerolog.Logger) error {
	_, closeDB, err := openDatabase(ctx, cfg, log)
	defer closeDB()
	if err != nil {
		return err
	}
	log.Info().Msg("migrations are up to date")
	return nil
}

// serve runs one node until ctx is cancelled (SIGINT/SIGTERM), then shuts
// down in order: stop accepting, close sockets, leave the cluster, close the
// database, stop the embedded Postgres.
func serve(ctx context.Context, cfg config.Config, log zerolog.Logger, stdout io.Writer) error {
	if !cfg.RateLimits {
		log.Warn().Msg("rate limits are OFF (CAMPUS_RATE_LIMITS=off): never do this in production")
	}
	// Listen first: a taken port fails fast, before Postgres starts.
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.Addr, err)
	}
	defer ln.Close()

	db, closeDB, err := openDatabase(ctx, cfg, log)
	defer closeDB()
	if err != nil {
		return err
	}

	// The search index: opened (rebuilt from the database when missing or
	// unreadable) before serving, then following the outbox until shutdown.
	searchIdx, err := searchindex.Open(ctx, searchindex.Options{Dir: cfg.SearchDir(), DB: db, Log: log})
	if err != nil {
		return err
	}
	defer func() {
		if err := searchIdx.Close(); err != nil {
			log.Error().Err(err).Msg("close search index")
		}
	}()
	searchIdx.Start()

	// The live core: post and user grains, and (after the member started)
	// this node's socket hub.
	live := actors.New(actors.Config{DB: db, Log: log, Render: app.NotificationFrames})
	node, err := cluster.Start(ctx, cluster.Options{
		Name:          cfg.ClusterName,
		Addr:          cfg.ClusterAddr,
		Provider:      cluster.Provider(cfg.ClusterProvider),
		Hosts:         cfg.ClusterHosts,
		ManagePort:    cfg.ClusterAutoManagePort,
		EtcdEndpoints: cfg.EtcdEndpoints,
		Kinds:         live.Kinds(),
		Log:           log,
	})
	if err != nil {
		return err
	}
	defer node.Stop()
	hub, err := live.Start(node.Cluster, actors.HubOptions{MaxSocketsPerUser: cfg.MaxSocketsPerUser})
	if err != nil {
		return err
	}

	store, err := media.New(cfg.MediaDir(), log)
	if err != nil {
		return err
	}

	mailer, err := newMailer(cfg)
	if err != nil {
		return err
	}
	keys, err := app.LoadKeys(ctx, db, cfg.SecretPath())
	if err != nil {
		return err
	}
	signer, err := app.NewSigner(keys.Token, cfg.ProductName)
	if err != nil {
		return err
	}
	sessions := app.NewSessions(db, signer, log)
	bg, stopBackground := context.WithCancel(context.Background())
	defer stopBackground()
	go sessions.Listen(bg)
	sessions.OnRevoke(hub.UserRevoked) // revoked tokens close their sockets on every node
	accounts := app.NewAccounts(app.AccountsDeps{
		DB: db, Hasher: app.NewHasher(runtime.NumCPU()), Sessions: sessions, Mailer: mailer, Media: store,
		CodeKey: keys.Code, Product: cfg.ProductName, RateLimits: cfg.RateLimits, Log: log,
	})

	srv := httpapi.New(httpapi.Deps{
		Config:        cfg,
		Log:           log,
		Media:         store.Handler(),
		Sessions:      sessions,
		Accounts:      accounts,
		Profiles:      app.NewProfiles(app.ProfilesDeps{DB: db, Media: store, Log: log}),
		Friends:       app.NewFriends(app.FriendsDeps{DB: db, Log: log, Pusher: live}),
		Notifications: app.NewNotifications(app.NotificationsDeps{DB: db, Log: log}),
		Posts:         app.NewPosts(app.PostsDeps{DB: db, Media: store, Grains: live, Log: log}),
		Realtime:      app.NewRealtime(db, sessions),
		Hub:           hub,
		Search:        app.NewSearch(app.SearchDeps{DB: db, Index: searchIdx}),
		Ready: func(ctx context.Context) error {
			if err := db.PingContext(ctx); err != nil {
				return fmt.Errorf("database: %w", err)
			}
			if err := searchIdx.Ready(); err != nil {
				return fmt.Errorf("search index: %w", err)
			}
			return node.Ready()
		},
		Members: node.Members,
		Collectors: []prometheus.Collector{
			prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "campus_post_transactions_total",
				Help: "Post grain transactions (batches of likes and comments) this node ran."},
				func() float64 { return float64(live.Stats().Batches) }),
			prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "campus_post_like_actions_total",
				Help: "Like actions those transactions carried."},
				func() float64 { return float64(live.Stats().Likes) }),
			prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "campus_cluster_members",
				Help: "Cluster members this node sees."},
				func() float64 { return float64(node.Members()) }),
		},
	})
	if cfg.PprofAddr != "" {
		stopPprof, err := servePprof(cfg.PprofAddr, log)
		if err != nil {
			return err
		}
		defer stopPprof()
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()

	fmt.Fprintf(stdout, "Campus is running at %s\n", publicURL(cfg, ln.Addr()))
	log.Info().Str("addr", ln.Addr().String()).Str("cluster_addr", node.Address()).Msg("serving")

	select {
	case <-ctx.Done():
		log.Info().Msg("shutting down")
	case err := <-errc:
		return err
	}
	sctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	// Sockets first, with "going away" so clients reconnect elsewhere; then
	// HTTP, whose open like calls wait for their batches; then the grains
	// flush what is queued; the cluster leaves (deferred) after all that.
	if err := hub.CloseAll(sctx, actors.CloseGoingAway, "Server is shutting down"); err != nil {
		log.Error().Err(err).Msg("close websockets")
	}
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		log.Error().Err(err).Msg("http shutdown")
	}
	live.Drain(sctx)
	return nil
}

// servePprof serves net/http/pprof on addr, which config has checked is a
// loopback address (CAMPUS_PPROF_ADDR; off by default). The returned func
// stops it.
func servePprof(addr string, log zerolog.Logger) (func(), error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("pprof: listen on %s: %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = hs.Serve(ln) }()
	log.Warn().Str("addr", ln.Addr().String()).Msg("pprof profiles served (CAMPUS_PPROF_ADDR)")
	return func() { _ = hs.Close() }, nil
}

// newMailer sends over SMTP when CAMPUS_SMTP_URL is set, else writes .eml
// files for a developer to open.
func newMailer(cfg config.Config) (mail.Mailer, error) {
	if cfg.SMTPURL != "" {
		return mail.NewSMTP(cfg.SMTPURL, cfg.MailFrom)
	}
	return mail.NewDir(cfg.MailDir(), cfg.MailFrom)
}

// publicURL is what a person should open: the configured origin, or the
// listen address with a wildcard host replaced by localhost.
func publicURL(cfg config.Config, addr net.Addr) string {
	if cfg.PublicOrigin != "" {
		return cfg.PublicOrigin
	}
	host, port, _ := net.SplitHostPort(addr.String())
	if host == "" || host == "::" || host == "0.0.0.0" || strings.HasPrefix(host, "[") {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}
