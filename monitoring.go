package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"runtime"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/rs/zerolog"
	"github.com/uptrace/bun"
	"github.com/valyala/fasthttp"

	"campus/actors"
	"campus/app"
	"campus/cluster"
	"campus/httpapi"
	"campus/media"
	"campus/realtime"
	"campus/searchindex"
)

// What an operator watches a node by: the readiness answer's checks, the
// node's heartbeat (its row for the admins' system page), the metrics'
// own listener, and the node's series (deploy/monitoring has the
// dashboard and the alert rules that read them).

// readinessChecks are the dependencies /api/ready names, in order: the
// database, the search index, the cluster (joined) and the membership
// (agreeing with etcd) must answer; mail and media are reported only.
func readinessChecks(db *bun.DB, idx *searchindex.Index, node func() *cluster.Node, mail *app.MailSender, store *media.Store) func(context.Context) []httpapi.Check {
	return func(ctx context.Context) []httpapi.Check {
		return []httpapi.Check{
			{Name: "database", Err: db.PingContext(ctx)},
			{Name: "search", Err: idx.Ready()},
			{Name: "cluster", Err: node().Ready()},
			{Name: "membership", Err: node().Membership()},
			{Name: "mail", Err: mail.Health(), Optional: true},
			{Name: "media", Err: store.Check(ctx), Optional: true},
		}
	}
}

// firstFailure is the readiness checks as one error: the first required
// check that failed, or nil.
func firstFailure(checks []httpapi.Check) error {
	for _, c := range checks {
		if c.Err != nil && !c.Optional {
			return fmt.Errorf("%s: %w", c.Name, c.Err)
		}
	}
	return nil
}

// startNodeStatus starts the node's heartbeat.
func startNodeStatus(db *bun.DB, log zerolog.Logger, node func() *cluster.Node, live *actors.Live,
	sockets *realtime.Sockets, idx *searchindex.Index, ready func(context.Context) []httpapi.Check, httpAddr string,
) *app.NodeStatus {
	s := app.NewNodeStatus(app.NodeStatusOptions{
		DB: db, Log: log, Node: node().Address(), Version: version, HTTPAddr: httpAddr,
		Probes: app.NodeProbes{
			Members:    func() []string { return node().Addresses() },
			Membership: func() error { return node().Membership() },
			Ready:      func(ctx context.Context) error { return firstFailure(ready(ctx)) },
			Sockets:    sockets.Count,
			Queues: func() (int, int64) {
				st := live.Stats()
				return st.WriterQueue, st.Pending
			},
			IndexApplied: idx.Applied,
		},
	})
	s.Start()
	return s
}

// stopNodeStatus deletes the node's row (deferred before the database
// closes).
func stopNodeStatus(s *app.NodeStatus) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	s.Stop(ctx)
}

// monitoringCollectors are the node's series beside the HTTP ones and the
// counters serve.go registers: build info, the connection pool, the
// heartbeat's figures (sockets, queue depths, outboxes, index lag,
// readiness) and the members this node sees.
func monitoringCollectors(db *bun.DB, node func() *cluster.Node, status *app.NodeStatus) []prometheus.Collector {
	last := status.Last
	gauge := func(name, help string, f func(app.NodeSample) float64) prometheus.Collector {
		return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, func() float64 { return f(last()) })
	}
	return []prometheus.Collector{
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "campus_build_info",
			Help:        "Always 1; the labels say which build this node runs.",
			ConstLabels: prometheus.Labels{"version": version, "goversion": runtime.Version()}},
			func() float64 { return 1 }),
		// go_sql_in_use_connections, go_sql_wait_count_total,
		// go_sql_wait_duration_seconds_total, … of this node's pool.
		collectors.NewDBStatsCollector(db.DB, "campus"),
		gauge("campus_websockets_open", "Websockets open on this node (sampled every 5 s).",
			func(s app.NodeSample) float64 { return float64(s.Figures.Sockets) }),
		gauge("campus_writer_queue", "Post batches waiting for this node's writer (sampled).",
			func(s app.NodeSample) float64 { return float64(s.Figures.WriterQueue) }),
		gauge("campus_grain_requests_pending", "Post grain requests this node accepted and has not answered (sampled).",
			func(s app.NodeSample) float64 { return float64(s.Figures.PendingRequests) }),
		gauge("campus_mail_outbox_depth", "Mails waiting for delivery, all nodes (the shared outbox; sampled).",
			func(s app.NodeSample) float64 { return float64(s.Database.MailOutbox) }),
		gauge("campus_push_outbox_depth", "Web Push messages waiting for delivery, all nodes (sampled).",
			func(s app.NodeSample) float64 { return float64(s.Database.PushOutbox) }),
		gauge("campus_search_index_lag_entries", "Search outbox ids above what this node's index has applied (sampled; rolled-back ids count until they age out).",
			func(s app.NodeSample) float64 { return float64(s.Figures.IndexLag) }),
		gauge("campus_search_index_lag_seconds", "Age of the oldest search outbox entry this node's index has not applied (sampled).",
			func(s app.NodeSample) float64 { return float64(s.Figures.IndexLagMs) / 1000 }),
		gauge("campus_postgres_connections", "Connections to the database from every client, as Postgres counts them (sampled).",
			func(s app.NodeSample) float64 {
				n := 0
				for _, c := range s.Database.Connections {
					n += c
				}
				return float64(n)
			}),
		gauge("campus_postgres_max_connections", "The database server's max_connections (sampled).",
			func(s app.NodeSample) float64 { return float64(s.Database.MaxConnections) }),
		gauge("campus_ready", "1 while this node's readiness checks pass (sampled; not while draining).",
			func(s app.NodeSample) float64 { return boolFloat(s.Figures.Ready == "ok") }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "campus_cluster_membership_agrees",
			Help: "1 while the members this node sees agree with what etcd lists (always 1 with the other providers)."},
			func() float64 { return boolFloat(node().Membership() == nil) }),
		&memberCollector{node: node},
	}
}

func boolFloat(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// memberCollector is campus_cluster_member{address}: one series per member
// this node sees, read when scraped (a cluster has a handful).
type memberCollector struct{ node func() *cluster.Node }

var memberDesc = prometheus.NewDesc("campus_cluster_member",
	"1 for each cluster member this node sees, by remoting address.", []string{"address"}, nil)

func (c *memberCollector) Describe(ch chan<- *prometheus.Desc) { ch <- memberDesc }

func (c *memberCollector) Collect(ch chan<- prometheus.Metric) {
	for _, a := range c.node().Addresses() {
		ch <- prometheus.MustNewConstMetric(memberDesc, prometheus.GaugeValue, 1, a)
	}
}

// serveMetrics serves /metrics on addr (CAMPUS_METRICS_ADDR), on its own
// listener; the returned func stops it.
func serveMetrics(addr string, h fasthttp.RequestHandler, log zerolog.Logger) (func(), error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("metrics: listen on %s: %w", addr, err)
	}
	srv := &fasthttp.Server{Handler: h, Name: "campus", ReadTimeout: 10 * time.Second, WriteTimeout: 30 * time.Second,
		NoDefaultServerHeader: true, Logger: fasthttpLogger{log}}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, net.ErrClosed) {
			log.Error().Err(err).Msg("metrics listener stopped")
		}
	}()
	log.Info().Str("addr", ln.Addr().String()).Msg("metrics served on their own listener (CAMPUS_METRICS_ADDR)")
	return func() { _ = srv.Shutdown() }, nil
}

// fasthttpLogger routes fasthttp's own messages into zerolog.
type fasthttpLogger struct{ log zerolog.Logger }

func (l fasthttpLogger) Printf(format string, args ...any) {
	l.log.Warn().Str("component", "fasthttp").Msgf(format, args...)
}
