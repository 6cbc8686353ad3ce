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
	"campus/realtime"
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
	db, err := persistence.Open(ctx, url, log, persistence.MaxConns(cfg.DBMaxConns))
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

// loadClusterTLS loads the remoting certificates when they are configured
// (nil: plaintext), and warns when a cluster of several nodes runs without.
func loadClusterTLS(cfg config.Config, log zerolog.Logger) (*cluster.TLS, error) {
	if cfg.ClusterInsecure && (cfg.ClusterProvider != "" || len(cfg.ClusterHosts) > 0) {
		log.Warn().Msg("cluster remoting is PLAINTEXT and unauthenticated (CAMPUS_CLUSTER_INSECURE=on): " +
			"whoever reaches its port can message every grain; use CAMPUS_CLUSTER_TLS_* unless only the nodes can reach it")
	}
	if cfg.ClusterTLSCA == "" {
		return nil, nil
	}
	return cluster.LoadTLS(cluster.TLSFiles{CA: cfg.ClusterTLSCA, Cert: cfg.ClusterTLSCert, Key: cfg.ClusterTLSKey}, time.Now())
}

// serve runs one node until ctx is cancelled (SIGINT/SIGTERM), then drains
// in order: ready 503 and no new sockets, close sockets with 1012, stop
// HTTP, flush the grains' batches, leave the cluster, close the database,
// stop the embedded Postgres.
func serve(ctx context.Context, cfg config.Config, log zerolog.Logger, stdout io.Writer) error {
	if !cfg.RateLimits {
		log.Warn().Msg("rate limits are OFF (CAMPUS_RATE_LIMITS=off): never do this in production")
	}
	// The remoting certificates are checked before anything starts, too.
	clusterTLS, err := loadClusterTLS(cfg, log)
	if err != nil {
		return err
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
	// this node's socket hub (package realtime), which every node's grains
	// address by its name.
	live := actors.New(actors.Config{DB: db, Log: log, Render: app.NotificationFrames, RenderMessages: app.MessageFrames(db)})
	// Whether this node reaches the database, as its peers ask it before
	// one of them hands its grains over for want of it (membership.go).
	reach := newDBReach()
	node, err := cluster.Start(ctx, cluster.Options{
		Name:          cfg.ClusterName,
		Addr:          cfg.ClusterAddr,
		Provider:      cluster.Provider(cfg.ClusterProvider),
		Hosts:         cfg.ClusterHosts,
		ManagePort:    cfg.ClusterAutoManagePort,
		EtcdEndpoints: cfg.EtcdEndpoints,
		EtcdLease:     cfg.EtcdLease,
		Kinds:         live.Kinds(),
		Log:           log,
		TLS:           clusterTLS,
		Database:      reach.recently,
	})
	if err != nil {
		return err
	}
	// A member the cluster dropped (a pause, a partition) is replaced by a
	// new one (membership.go); everything below reaches the current one
	// through mship.
	mship := newMembership(node, live, log, db.PingContext, reach)
	defer mship.stop()
	live.Start(node.Cluster, node.Addresses, node.Confirm)
	hub, err := realtime.StartHub(node.System, log, realtime.HubOptions{MaxSocketsPerUser: cfg.MaxSocketsPerUser,
		Members: mship.members, PostsBy: live.PostsBy})
	if err != nil {
		return err
	}
	mship.run(ctx, hub)

	store, err := openMedia(ctx, cfg, log)
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
	gates := app.NewGates(db, sessions)
	bg, stopBackground := context.WithCancel(context.Background())
	defer stopBackground()
	go sessions.Listen(bg)
	sessions.OnRevoke(hub.UserRevoked) // revoked tokens close their sockets on every node
	sessions.OnBlock(hub.UsersBlocked) // a block stops the live events between the two on every node

	// The mail outbox: codes are queued with the change they belong to and
	// delivered from here, retried while the mail server is down.
	mailSender := app.NewMailSender(app.MailSenderOptions{DB: db, Mailer: mailer, Log: log})
	mailSender.Start()
	defer func() {
		// Runs before the database closes (deferred earlier). A send in
		// flight gets a few seconds; an abandoned one is sent again later.
		c, cancel := context.WithTimeout(context.Background(), mailStopGrace)
		defer cancel()
		mailSender.Stop(c)
	}()

	// The push outbox: a notification for a user with no socket open on
	// any node goes to their subscribed devices from here.
	pushSender := app.NewPushSender(app.PushSenderOptions{
		DB: db, Log: log, VAPID: keys.VAPID, Subscriber: cfg.SupportEmail, Product: cfg.ProductName,
		Online: live.Online, AllowLoopbackHTTP: cfg.PushAllowLoopbackHTTP,
	})
	pushSender.Start()
	defer func() {
		c, cancel := context.WithTimeout(context.Background(), mailStopGrace)
		defer cancel()
		pushSender.Stop(c)
	}()

	sockets := realtime.New(hub, log, realtime.Options{})

	// Readiness names each dependency's state; the heartbeat (the admins'
	// system page, the metrics) reads the node's figures (monitoring.go).
	// Both reach the current member through mship: a rejoin replaces it.
	ready := readinessChecks(db, searchIdx, mship.node, mailSender, store)
	status := startNodeStatus(db, log, mship.node, live, sockets, searchIdx, ready, ln.Addr().String())
	defer stopNodeStatus(status)
	accounts := app.NewAccounts(app.AccountsDeps{
		DB: db, Hasher: app.NewHasher(runtime.NumCPU()), Sessions: sessions, Mail: mailSender, Media: store,
		CodeKey: keys.Code, Product: cfg.ProductName, RateLimits: cfg.RateLimits, Log: log,
		NoPasswordSignup: !cfg.PasswordSignup, NoPasswordLogin: !cfg.PasswordLogin, SSOName: ssoName(cfg.SSO),
	})
	ssoSvc, err := newSSO(cfg, db, accounts, log)
	if err != nil {
		return err
	}

	// Spam brakes on new accounts (issue 17), off with the other limits.
	brakes := app.NewBrakes(db, cfg.NewAccounts, cfg.RateLimits)

	moderation := app.NewModeration(app.ModerationDeps{DB: db, Sessions: sessions, Pusher: live, Grains: live,
		Counts: live, Gates: gates, Fanout: live, Mail: mailSender, Product: cfg.ProductName, Support: cfg.SupportEmail, Log: log})
	// Conversations (issue 29): sends through the conversation grains, the
	// send limit off with the other limits, typing always at most one per
	// person and conversation every 2 s.
	messages := app.NewMessages(app.MessagesDeps{DB: db, Grains: live, Fanout: live, Brakes: brakes,
		SendLimit: app.NewMessageLimiter(cfg.RateLimits), TypingLimit: app.NewTypingLimiter(), Media: store, Log: log})
	srv := httpapi.New(httpapi.Deps{
		Config:        cfg,
		Log:           log,
		Media:         store.Handler(),
		Sessions:      sessions,
		Accounts:      accounts,
		SSO:           ssoSvc,
		Profiles:      app.NewProfiles(app.ProfilesDeps{DB: db, Media: store, Notifier: live, Log: log}),
		Friends:       app.NewFriends(app.FriendsDeps{DB: db, Log: log, Pusher: live, Brakes: brakes, Messages: messages}),
		Notifications: app.NewNotifications(app.NotificationsDeps{DB: db, Log: log}),
		Posts: app.NewPosts(app.PostsDeps{DB: db, Media: store, Grains: live, Fanout: live, Brakes: brakes, Pusher: live,
			Gates: gates, Log: log}),
		Realtime:   app.NewRealtime(db, sessions, gates),
		Sockets:    sockets,
		Search:     app.NewSearch(app.SearchDeps{DB: db, Index: searchIdx}),
		Tags:       app.NewTags(app.TagsDeps{DB: db, Log: log}),
		Safety:     app.NewSafety(app.SafetyDeps{DB: db, Gates: gates, Messages: messages, Log: log}),
		Messages:   messages,
		Moderation: moderation,
		Groups:     app.NewGroups(app.GroupsDeps{DB: db, Media: store, Pusher: live, Index: searchIdx, Chats: messages, Log: log}),
		Push:       app.NewPush(app.PushDeps{DB: db, VAPID: keys.VAPID, AllowLoopbackHTTP: cfg.PushAllowLoopbackHTTP}),
		Collectors: append([]prometheus.Collector{
			prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "campus_post_transactions_total",
				Help: "Post grain transactions (batches of likes and comments) this node ran."},
				func() float64 { return float64(live.Stats().Batches) }),
			prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "campus_post_like_actions_total",
				Help: "Like actions those transactions carried."},
				func() float64 { return float64(live.Stats().Likes) }),
			prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "campus_mail_sent_total",
				Help: "Mails this node delivered from the outbox."},
				func() float64 { return float64(mailSender.Stats().Sent) }),
			prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "campus_mail_failed_total",
				Help: "Delivery attempts of this node that failed and will be retried."},
				func() float64 { return float64(mailSender.Stats().Failed) }),
			prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "campus_mail_dropped_total",
				Help: "Mails this node dropped unsent: undeliverable, expired or their code replaced."},
				func() float64 { return float64(mailSender.Stats().Dropped) }),
			prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "campus_push_sent_total",
				Help: "Web Push messages this node's push services accepted."},
				func() float64 { return float64(pushSender.Stats().Sent) }),
			prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "campus_push_skipped_total",
				Help: "Pushes not sent because the user had a socket open (or the notification was read or gone)."},
				func() float64 { return float64(pushSender.Stats().Skipped) }),
			prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "campus_push_failed_total",
				Help: "Push attempts that failed and will be retried."},
				func() float64 { return float64(pushSender.Stats().Failed) }),
			prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "campus_cluster_members",
				Help: "Cluster members this node sees."},
				func() float64 { return float64(mship.members()) }),
			prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "campus_cluster_refused_connections_total",
				Help: "Remoting connections refused, either way, for want of a valid cluster certificate."},
				func() float64 { return float64(mship.node().RefusedConnections()) }),
		}, monitoringCollectors(db, mship.node, status)...), // monitoring.go
		Admin:   app.NewAdmin(app.AdminDeps{DB: db, Sessions: sessions, Moderation: moderation, Log: log}),
		Ready:   ready,
		Members: func() []string { return mship.node().Addresses() },
		Version: version,
		Node:    node.Address(),
	})
	if cfg.MetricsAddr != "" {
		stopMetrics, err := serveMetrics(cfg.MetricsAddr, srv.MetricsHandler(), log) // monitoring.go
		if err != nil {
			return err
		}
		defer stopMetrics()
	}
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
	case err := <-mship.failed:
		return err
	}
	// The drain (docs/architecture.md §4.7), all within CAMPUS_SHUTDOWN_TIMEOUT: ready
	// turns 503 and new sockets are refused first, so the load balancer
	// and the clients go elsewhere; the sockets close with 1012 "service
	// restart" (clients reconnect to another node with jitter and resume);
	// HTTP stops, its open like calls waiting for their batches; the grains
	// flush what is queued; the cluster leaves (deferred mship.stop) and the
	// database closes after all that.
	sctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	srv.Drain()
	if cfg.DrainDelay > 0 {
		// Ready answers 503 while everything else is still served, until a
		// load balancer polling it has stopped sending here.
		log.Info().Int64("delay_ms", cfg.DrainDelay.Milliseconds()).Msg("draining: ready answers 503")
		select {
		case <-time.After(cfg.DrainDelay):
		case <-sctx.Done():
		}
	}
	if err := sockets.CloseAll(sctx, realtime.RestartReason); err != nil {
		log.Error().Err(err).Msg("close websockets")
	}
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		log.Error().Err(err).Msg("http shutdown")
	}
	live.Drain(sctx)
	log.Info().Err(sctx.Err()).Msg("drained; leaving the cluster")
	return nil
}

// mailStopGrace is how long shutdown waits for a mail being sent.
const mailStopGrace = 5 * time.Second

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

// openMedia opens the media store CAMPUS_MEDIA_URL names: the bucket of an
// S3-compatible service, which every node of a cluster can share, or a
// directory (by default the data dir's media/).
func openMedia(ctx context.Context, cfg config.Config, log zerolog.Logger) (*media.Store, error) {
	if s3 := cfg.Media.S3; s3 != nil {
		store, err := media.NewS3(ctx, media.S3Options{
			Endpoint: s3.Endpoint, Secure: s3.Secure, Region: s3.Region, Bucket: s3.Bucket, PathStyle: s3.PathStyle,
			AccessKeyID: s3.AccessKeyID, SecretAccessKey: string(s3.SecretAccessKey), SessionToken: string(s3.SessionToken),
		}, log)
		if err != nil {
			return nil, err
		}
		log.Info().Str("bucket", s3.Bucket).Str("endpoint", s3.Endpoint).Msg("media in s3")
		return store, nil
	}
	store, err := media.New(cfg.MediaDir(), log)
	if err != nil {
		return nil, err
	}
	log.Info().Str("dir", cfg.MediaDir()).Msg("media in a directory")
	return store, nil
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
