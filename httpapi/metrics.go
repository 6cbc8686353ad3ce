package httpapi

import (
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/valyala/fasthttp"
	"github.com/valyala/fasthttp/fasthttpadaptor"
)

// metrics are the Prometheus series of the HTTP layer. Routes are labelled by
// their pattern (/api/posts/{id}), never the raw path, so cardinality stays
// bounded.
type metrics struct {
	registry *prometheus.Registry
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	handler  fasthttp.RequestHandler
	// series caches each (method, route, status)'s two children: looking
	// them up by label values hashes the labels on every request.
	series sync.Map // seriesKey → *series
}

type seriesKey struct {
	method, route string
	status        int
}

type series struct {
	requests prometheus.Counter
	duration prometheus.Observer
}

func newMetrics(extra ...prometheus.Collector) *metrics {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	reg.MustRegister(extra...)
	m := &metrics{
		registry: reg,
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "campus_http_requests_total",
			Help: "HTTP requests by method, route pattern and status code.",
		}, []string{"method", "route", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "campus_http_request_duration_seconds",
			Help:    "HTTP request durations by method and route pattern.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5},
		}, []string{"method", "route"}),
	}
	reg.MustRegister(m.requests, m.duration)
	m.handler = fasthttpadaptor.NewFastHTTPHandler(promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	return m
}

// observe counts one answered request.
func (m *metrics) observe(method, route string, status int, d time.Duration) {
	k := seriesKey{method, route, status}
	v, ok := m.series.Load(k)
	if !ok {
		v, _ = m.series.LoadOrStore(k, &series{
			requests: m.requests.WithLabelValues(method, route, strconv.Itoa(status)),
			duration: m.duration.WithLabelValues(method, route),
		})
	}
	s := v.(*series)
	s.requests.Inc()
	s.duration.Observe(d.Seconds())
}

// MetricsHandler answers GET /metrics and 404 for anything else: the
// handler of the metrics' own listener (CAMPUS_METRICS_ADDR).
func (s *Server) MetricsHandler() fasthttp.RequestHandler {
	return func(ctx *fasthttp.RequestCtx) {
		if string(ctx.Path()) != "/metrics" {
			ctx.Error("Not Found", fasthttp.StatusNotFound)
			return
		}
		if !ctx.IsGet() && !ctx.IsHead() {
			ctx.Error("Method Not Allowed", fasthttp.StatusMethodNotAllowed)
			return
		}
		s.metrics.handler(ctx)
	}
}
