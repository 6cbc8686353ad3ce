// Package config reads every Campus setting from the environment into one
// typed, validated Config. It is the only place that reads the environment.
package config

import (
	"errors"
	"fmt"
	"net"
	"net/mail"
	"net/netip"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/rs/zerolog"
)

// Config is the whole runtime configuration of a node.
type Config struct {
	// Addr is the HTTP listen address (CAMPUS_ADDR, default ":8080").
	Addr string
	// DatabaseURL is a Postgres URL (DATABASE_URL); empty means the embedded server.
	DatabaseURL string
	// DBMaxConns caps this node's pool of Postgres connections
	// (CAMPUS_DB_MAX_CONNS, default 50). Every node opens up to this many
	// plus its LISTEN connections, so nodes × (DBMaxConns + those) must fit
	// the server's max_connections (README, Configuration). At least 10:
	// the writer alone runs up to four transactions at once, and sign-ins,
	// pages and the outboxes need theirs beside them.
	DBMaxConns int
	// DataDir holds postgres/, media/, search/, mail/ and secret (CAMPUS_DATA_DIR, default "./var").
	DataDir string
	// PublicOrigin is the origin browsers use, e.g. https://campus.example.edu
	// (CAMPUS_PUBLIC_ORIGIN); empty means "the origin the request came to".
	PublicOrigin string
	// SMTPURL sends mail over SMTP when set (CAMPUS_SMTP_URL); empty writes .eml files to DataDir/mail.
	SMTPURL string
	// MailFrom is the sender address of outgoing mail (CAMPUS_MAIL_FROM).
	MailFrom string
	// SupportEmail is shown to users as the support address (CAMPUS_SUPPORT_EMAIL).
	SupportEmail string
	// ProductName is the product's name in the UI and e-mails (CAMPUS_PRODUCT_NAME, default "Campus").
	ProductName string
	// LogLevel is the zerolog level (CAMPUS_LOG_LEVEL, default info).
	LogLevel zerolog.Level
	// LogFormat is "json" or "console"; default console on a TTY, json otherwise (CAMPUS_LOG_FORMAT).
	LogFormat string
	// ClientDir is the built client served at / (CAMPUS_CLIENT_DIR, default "client/dist").
	ClientDir string
	// RateLimits turns rate limiting on (CAMPUS_RATE_LIMITS=on|off, default on).
	RateLimits bool
	// PushAllowLoopbackHTTP accepts Web Push endpoints that are plain http
	// on a loopback address, and lets the push sender connect to loopback
	// (CAMPUS_PUSH_ALLOW_LOOPBACK_HTTP=on|off, default off). Only the
	// end-to-end tests, which serve their own push endpoint, turn it on: in
	// production an endpoint must be https on a public address, so a
	// browser-supplied URL can never make the server call inside the network.
	PushAllowLoopbackHTTP bool
	// NewAccounts are the spam brakes on young accounts (issue 17).
	NewAccounts NewAccountLimits
	// TrustedProxies are the proxies whose X-Forwarded-For is believed (CAMPUS_TRUSTED_PROXIES, comma-separated CIDRs or IPs).
	TrustedProxies []netip.Prefix
	// MaxConnsPerIP caps concurrent connections from one client address (CAMPUS_MAX_CONNS_PER_IP, default 2000; 0 = unlimited).
	MaxConnsPerIP int
	// MaxSocketsPerUser caps one user's websockets on a node (CAMPUS_MAX_SOCKETS_PER_USER, default 10).
	MaxSocketsPerUser int
	// ShutdownTimeout bounds the drain on SIGTERM (CAMPUS_SHUTDOWN_TIMEOUT,
	// default 20s, what deploy/kubernetes assumes).
	ShutdownTimeout time.Duration
	// DrainDelay is how long a node keeps serving HTTP with /api/ready at
	// 503 after SIGTERM, so a load balancer that polls readiness takes it
	// out before its listener closes (CAMPUS_DRAIN_DELAY, default 0: off;
	// Kubernetes uses the preStop sleep instead). Part of ShutdownTimeout.
	DrainDelay time.Duration
	// ClusterName names the Proto.Actor cluster (CAMPUS_CLUSTER_NAME, default "campus").
	ClusterName string
	// ClusterHost and ClusterPort are this node's actor-remoting address
	// (CAMPUS_CLUSTER_ADDR, default 127.0.0.1:0 = any free loopback port).
	ClusterAddr string
	// ClusterHosts lists every node's cluster address for the automanaged
	// provider (CAMPUS_CLUSTER_HOSTS, comma-separated host:port); empty = a cluster of one.
	ClusterHosts []string
	// ClusterAutoManagePort is the automanaged provider's HTTP port on this node (CAMPUS_CLUSTER_MANAGE_PORT, default 6330).
	ClusterAutoManagePort int
	// ClusterProvider picks how nodes find each other (CAMPUS_CLUSTER_PROVIDER):
	// "" = a cluster of one (automanaged when ClusterHosts is set),
	// "automanaged", "etcd" or "k8s".
	ClusterProvider string
	// EtcdEndpoints are the etcd servers of the etcd provider
	// (CAMPUS_ETCD_ENDPOINTS, comma-separated host:port or http(s) URLs).
	EtcdEndpoints []string
	// EtcdLease is how long a node that stopped keeping its etcd key alive
	// (killed, cut off) stays listed, unless its peers prove it dead first
	// (CAMPUS_ETCD_LEASE, whole seconds, default 3s).
	EtcdLease time.Duration
	// ClusterTLSCA, ClusterTLSCert and ClusterTLSKey are PEM files that make
	// actor remoting mutual TLS (CAMPUS_CLUSTER_TLS_CA, _CERT, _KEY; all
	// three or none): the cluster CA's certificate, and this node's
	// certificate and key. A cluster of several nodes needs them unless
	// ClusterInsecure is on.
	ClusterTLSCA, ClusterTLSCert, ClusterTLSKey string
	// ClusterInsecure lets a cluster of several nodes run remoting in
	// plaintext, unauthenticated (CAMPUS_CLUSTER_INSECURE=on|off, default
	// off): only on a network nothing but the nodes can reach.
	ClusterInsecure bool
	// PprofAddr serves Go's net/http/pprof profiles on a loopback address
	// when set (CAMPUS_PPROF_ADDR, e.g. 127.0.0.1:6060); empty (the default) serves none.
	PprofAddr string
	// MetricsAddr serves /metrics on a listener of its own when set
	// (CAMPUS_METRICS_ADDR, e.g. :9090), and then not on Addr: the public
	// listener does not show the node's internals. Empty (the default)
	// keeps /metrics on Addr, as before.
	MetricsAddr string
	// Media is where uploaded images live (CAMPUS_MEDIA_URL): a directory
	// (file:///path, default DataDir/media) or an S3 bucket (s3://bucket?…).
	Media Media
	// SSO is university sign-in (OIDC, SAML); see config/sso.go.
	SSO SSO
	// PasswordSignup allows making an account with a password and an
	// e-mailed code (CAMPUS_PASSWORD_SIGNUP=on|off, default on); off, new
	// accounts come only from a university sign-in.
	PasswordSignup bool
	// PasswordLogin allows signing in with a password
	// (CAMPUS_PASSWORD_LOGIN=on|off, default on); off with PasswordSignup,
	// university sign-in is the only way in.
	PasswordLogin bool
}

// Media is the parsed CAMPUS_MEDIA_URL: exactly one of Dir and S3 is set.
type Media struct {
	// Dir is the file store's directory.
	Dir string
	// S3 is the bucket of an S3-compatible service.
	S3 *S3
}

// S3 says which bucket keeps the images, for
// s3://BUCKET?endpoint=http(s)://HOST:PORT&region=REGION. The credentials
// come from AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and (optional)
// AWS_SESSION_TOKEN, never from the URL: a URL ends up in process listings,
// shell histories and error messages.
type S3 struct {
	Bucket string
	// Endpoint is host[:port]; without an endpoint parameter, AWS's s3.amazonaws.com.
	Endpoint string
	// Secure is true unless the endpoint is http://.
	Secure bool
	// Region is the region parameter; default us-east-1 with an endpoint
	// (what S3-compatible servers expect), else asked of AWS.
	Region string
	// PathStyle addresses buckets as endpoint/bucket: on with an endpoint
	// (S3-compatible servers rarely have per-bucket host names), off for AWS.
	PathStyle       bool
	AccessKeyID     string
	SecretAccessKey Secret
	SessionToken    Secret
}

// Secret is a string that prints as a placeholder, so a Config logged or
// printed with %v or %+v does not show it.
type Secret string

func (Secret) String() string { return "[redacted]" }

// GoString hides the secret from %#v too.
func (Secret) GoString() string { return `"[redacted]"` }

// MediaDir is the file store's directory (meaningless when Media.S3 is set).
func (c Config) MediaDir() string { return c.Media.Dir }

// PostgresDir is the embedded Postgres's directory.
func (c Config) PostgresDir() string { return filepath.Join(c.DataDir, "postgres") }

// SearchDir is the Bleve index directory.
func (c Config) SearchDir() string { return filepath.Join(c.DataDir, "search") }

// MailDir is where the file mailer writes .eml files.
func (c Config) MailDir() string { return filepath.Join(c.DataDir, "mail") }

// SecretPath is the file holding the token-signing secret.
func (c Config) SecretPath() string { return filepath.Join(c.DataDir, "secret") }

// Error names the variable whose value is bad; its text is one line.
type Error struct {
	Var, Value, Reason string
}

func (e *Error) Error() string {
	return fmt.Sprintf("config: %s=%q: %s", e.Var, e.Value, e.Reason)
}

// Load reads the configuration from getenv (os.Getenv in main, a map in tests)
// and validates it. The first bad variable is reported.
func Load(getenv func(string) string) (Config, error) {
	r := reader{getenv: getenv}
	dataDir := r.str("CAMPUS_DATA_DIR", "./var")
	c := Config{
		Addr:                  r.addr("CAMPUS_ADDR", ":8080"),
		DatabaseURL:           r.dbURL("DATABASE_URL"),
		DBMaxConns:            r.intRange("CAMPUS_DB_MAX_CONNS", 50, 10, 10_000),
		DataDir:               dataDir,
		PublicOrigin:          r.origin("CAMPUS_PUBLIC_ORIGIN"),
		SMTPURL:               r.smtpURL("CAMPUS_SMTP_URL"),
		MailFrom:              r.email("CAMPUS_MAIL_FROM", "Campus <no-reply@campus.localhost>"),
		SupportEmail:          r.email("CAMPUS_SUPPORT_EMAIL", "support@campus.localhost"),
		ProductName:           r.str("CAMPUS_PRODUCT_NAME", "Campus"),
		LogLevel:              r.level("CAMPUS_LOG_LEVEL", zerolog.InfoLevel),
		LogFormat:             r.oneOf("CAMPUS_LOG_FORMAT", "", "json", "console"),
		ClientDir:             r.str("CAMPUS_CLIENT_DIR", "client/dist"),
		RateLimits:            r.onOff("CAMPUS_RATE_LIMITS", true),
		PushAllowLoopbackHTTP: r.onOff("CAMPUS_PUSH_ALLOW_LOOPBACK_HTTP", false),
		TrustedProxies:        r.prefixes("CAMPUS_TRUSTED_PROXIES"),
		MaxConnsPerIP:         r.intRange("CAMPUS_MAX_CONNS_PER_IP", 2000, 0, 1_000_000),
		MaxSocketsPerUser:     r.intRange("CAMPUS_MAX_SOCKETS_PER_USER", 10, 1, 1_000_000),
		ShutdownTimeout:       r.duration("CAMPUS_SHUTDOWN_TIMEOUT", 20*time.Second),
		DrainDelay:            r.durationOrZero("CAMPUS_DRAIN_DELAY"),
		ClusterName:           r.str("CAMPUS_CLUSTER_NAME", "campus"),
		ClusterAddr:           r.addr("CAMPUS_CLUSTER_ADDR", "127.0.0.1:0"),
		ClusterHosts:          r.hosts("CAMPUS_CLUSTER_HOSTS"),
		ClusterAutoManagePort: r.intRange("CAMPUS_CLUSTER_MANAGE_PORT", 6330, 1, 65535),
		ClusterProvider:       r.oneOf("CAMPUS_CLUSTER_PROVIDER", "", "automanaged", "etcd", "k8s"),
		EtcdEndpoints:         r.endpoints("CAMPUS_ETCD_ENDPOINTS"),
		EtcdLease:             r.duration("CAMPUS_ETCD_LEASE", 3*time.Second),
		ClusterTLSCA:          r.str("CAMPUS_CLUSTER_TLS_CA", ""),
		ClusterTLSCert:        r.str("CAMPUS_CLUSTER_TLS_CERT", ""),
		ClusterTLSKey:         r.str("CAMPUS_CLUSTER_TLS_KEY", ""),
		ClusterInsecure:       r.onOff("CAMPUS_CLUSTER_INSECURE", false),
		PprofAddr:             r.loopbackAddr("CAMPUS_PPROF_ADDR"),
		MetricsAddr:           r.addr("CAMPUS_METRICS_ADDR", ""),
		Media:                 r.media("CAMPUS_MEDIA_URL", filepath.Join(dataDir, "media")),
		PasswordSignup:        r.onOff("CAMPUS_PASSWORD_SIGNUP", true),
		PasswordLogin:         r.onOff("CAMPUS_PASSWORD_LOGIN", true),
	}
	r.sso(&c)
	c.NewAccounts = NewAccountLimits{
		Age:                  r.duration("CAMPUS_NEW_ACCOUNT_AGE", 24*time.Hour),
		PostsPerHour:         r.intRange("CAMPUS_NEW_ACCOUNT_POSTS_PER_HOUR", 10, 1, 1_000_000),
		CommentsPerHour:      r.intRange("CAMPUS_NEW_ACCOUNT_COMMENTS_PER_HOUR", 30, 1, 1_000_000),
		RequestsPerHour:      r.intRange("CAMPUS_NEW_ACCOUNT_REQUESTS_PER_HOUR", 20, 1, 1_000_000),
		ConversationsPerHour: r.intRange("CAMPUS_NEW_ACCOUNT_CONVERSATIONS_PER_HOUR", 10, 1, 1_000_000),
		MessagesPerHour:      r.intRange("CAMPUS_NEW_ACCOUNT_MESSAGES_PER_HOUR", 100, 1, 1_000_000),
	}
	r.clusterProvider(c)
	if r.err == nil && c.MetricsAddr != "" && c.MetricsAddr == c.Addr {
		r.fail("CAMPUS_METRICS_ADDR", c.MetricsAddr, "must differ from CAMPUS_ADDR: metrics get a listener of their own")
	}
	if r.err == nil && c.DrainDelay >= c.ShutdownTimeout {
		// The delay is spent inside the shutdown bound: nothing would be
		// left to close the sockets and flush the batches.
		r.fail("CAMPUS_DRAIN_DELAY", c.DrainDelay.String(), "must be shorter than CAMPUS_SHUTDOWN_TIMEOUT")
	}
	if r.err != nil {
		return Config{}, r.err
	}
	return c, nil
}

// NewAccountLimits limit what an account younger than Age may do per hour:
// posts, comments, friend requests, conversations started and messages, keyed on the account (docs/architecture.md §10).
// They apply only while CAMPUS_RATE_LIMITS is on.
type NewAccountLimits struct {
	// Age is how long an account counts as new (CAMPUS_NEW_ACCOUNT_AGE, default 24h).
	Age time.Duration
	// PostsPerHour (CAMPUS_NEW_ACCOUNT_POSTS_PER_HOUR, default 10),
	// CommentsPerHour (CAMPUS_NEW_ACCOUNT_COMMENTS_PER_HOUR, default 30) and
	// RequestsPerHour (CAMPUS_NEW_ACCOUNT_REQUESTS_PER_HOUR, default 20).
	PostsPerHour    int
	CommentsPerHour int
	RequestsPerHour int
	// ConversationsPerHour (CAMPUS_NEW_ACCOUNT_CONVERSATIONS_PER_HOUR,
	// default 10) bounds the conversations a new account starts (a direct
	// one, a group) and MessagesPerHour
	// (CAMPUS_NEW_ACCOUNT_MESSAGES_PER_HOUR, default 100) the messages it
	// sends: a burst from a fresh account to many people is the classic
	// spam shape.
	ConversationsPerHour int
	MessagesPerHour      int
}

// clusterProvider checks that the provider has what it needs, and that no
// other provider's setting is given where it would be silently ignored.
func (r *reader) clusterProvider(c Config) {
	if r.err != nil {
		return
	}
	hosts, _ := r.raw("CAMPUS_CLUSTER_HOSTS")
	endpoints, _ := r.raw("CAMPUS_ETCD_ENDPOINTS")
	switch c.ClusterProvider {
	case "automanaged":
		if len(c.ClusterHosts) == 0 {
			r.fail("CAMPUS_CLUSTER_HOSTS", hosts, "the automanaged provider needs every node's host:port listed")
		}
	case "etcd":
		if len(c.EtcdEndpoints) == 0 {
			r.fail("CAMPUS_ETCD_ENDPOINTS", endpoints, "the etcd provider needs at least one endpoint, e.g. 10.0.0.5:2379")
		}
	}
	if c.ClusterProvider != "etcd" && len(c.EtcdEndpoints) > 0 {
		r.fail("CAMPUS_ETCD_ENDPOINTS", endpoints, "only used with CAMPUS_CLUSTER_PROVIDER=etcd")
	}
	if lease, set := r.raw("CAMPUS_ETCD_LEASE"); set {
		switch {
		case c.ClusterProvider != "etcd":
			r.fail("CAMPUS_ETCD_LEASE", lease, "only used with CAMPUS_CLUSTER_PROVIDER=etcd")
		case c.EtcdLease%time.Second != 0:
			r.fail("CAMPUS_ETCD_LEASE", lease, "etcd leases are whole seconds, e.g. 3s")
		}
	}
	if (c.ClusterProvider == "etcd" || c.ClusterProvider == "k8s") && len(c.ClusterHosts) > 0 {
		r.fail("CAMPUS_CLUSTER_HOSTS", hosts, "only used by the automanaged provider; "+c.ClusterProvider+" finds the nodes itself")
	}
	multi := c.ClusterProvider != "" || len(c.ClusterHosts) > 0
	if multi {
		r.advertised(c, hosts, endpoints)
	}
	r.clusterTLS(c, multi)
}

// advertised checks the remoting address of a node in a cluster of
// several: it is what the node advertises to the others (and the reply
// address of every message it sends), so they must be able to reach it.
// A wildcard never works. A loopback address works only when every node
// runs on this machine, which is taken as meant when every peer address
// the provider is given is loopback too (etcd endpoints, automanaged
// hosts); a pod's loopback is its own. With etcd the address must be
// given at all: a default of 127.0.0.1 beside an etcd reached on loopback
// may just as well be a node behind a local etcd proxy.
func (r *reader) advertised(c Config, hosts, endpoints string) {
	if _, given := r.raw("CAMPUS_CLUSTER_ADDR"); c.ClusterProvider == "etcd" && !given {
		r.fail("CAMPUS_CLUSTER_ADDR", "", "the etcd provider advertises this address to the other nodes: set this node's own IP and port, e.g. 10.0.0.21:6331")
		return
	}
	host, _, err := net.SplitHostPort(c.ClusterAddr)
	if err != nil {
		return // reported by addr
	}
	if a, err := netip.ParseAddr(host); host == "" || (err == nil && a.IsUnspecified()) {
		r.fail("CAMPUS_CLUSTER_ADDR", c.ClusterAddr, "the other nodes must reach this address: give this node's own IP, not a wildcard")
		return
	}
	if !isLoopback(host) {
		return
	}
	switch {
	case c.ClusterProvider == "k8s":
		r.fail("CAMPUS_CLUSTER_ADDR", c.ClusterAddr, "a pod's loopback address is its own: give the pod IP, e.g. $(POD_IP):6331")
	case c.ClusterProvider == "etcd" && !allLoopback(c.EtcdEndpoints):
		r.fail("CAMPUS_CLUSTER_ADDR", c.ClusterAddr, "a loopback address, but etcd ("+endpoints+") is not on this machine: give this node's own IP, e.g. 10.0.0.21:6331")
	case len(c.ClusterHosts) > 0 && !allLoopback(c.ClusterHosts):
		r.fail("CAMPUS_CLUSTER_ADDR", c.ClusterAddr, "a loopback address, but CAMPUS_CLUSTER_HOSTS ("+hosts+") lists other machines: give this node's own IP")
	}
}

// clusterTLS checks the remoting TLS settings: all three files or none, not
// beside CAMPUS_CLUSTER_INSECURE, and required by a cluster of several
// nodes unless CAMPUS_CLUSTER_INSECURE=on says plaintext is meant.
func (r *reader) clusterTLS(c Config, multi bool) {
	names := []string{"CAMPUS_CLUSTER_TLS_CA", "CAMPUS_CLUSTER_TLS_CERT", "CAMPUS_CLUSTER_TLS_KEY"}
	values := []string{c.ClusterTLSCA, c.ClusterTLSCert, c.ClusterTLSKey}
	set := 0
	for _, v := range values {
		if v != "" {
			set++
		}
	}
	switch {
	case set > 0 && set < len(names):
		for i, v := range values {
			if v == "" {
				r.fail(names[i], "", "set CAMPUS_CLUSTER_TLS_CA, CAMPUS_CLUSTER_TLS_CERT and CAMPUS_CLUSTER_TLS_KEY together")
				return
			}
		}
	case set > 0 && c.ClusterInsecure:
		v, _ := r.raw("CAMPUS_CLUSTER_INSECURE")
		r.fail("CAMPUS_CLUSTER_INSECURE", v, "remoting cannot be plaintext and TLS at once: unset it or the CAMPUS_CLUSTER_TLS_* files")
	case set == 0 && multi && !c.ClusterInsecure:
		r.fail("CAMPUS_CLUSTER_TLS_CA", "", "a cluster of several nodes needs mutual TLS on remoting: set CAMPUS_CLUSTER_TLS_CA, _CERT and _KEY "+
			"(campus cluster certs DIR makes them), or CAMPUS_CLUSTER_INSECURE=on if nothing but the nodes can reach their remoting port")
	}
}

// isLoopback: 127.0.0.0/8, ::1 or localhost.
func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.IsLoopback()
}

// allLoopback reports whether every host:port or URL in addrs is on loopback.
func allLoopback(addrs []string) bool {
	for _, a := range addrs {
		if u, err := url.Parse(a); err == nil && u.Host != "" && strings.Contains(a, "://") {
			a = u.Host
		}
		host, _, err := net.SplitHostPort(a)
		if err != nil || !isLoopback(host) {
			return false
		}
	}
	return len(addrs) > 0
}

// reader collects the first error so Load stays a flat list.
type reader struct {
	getenv func(string) string
	err    error
}

func (r *reader) fail(name, value, reason string) {
	if r.err == nil {
		r.err = &Error{Var: name, Value: value, Reason: reason}
	}
}

func (r *reader) raw(name string) (string, bool) {
	v := strings.TrimSpace(r.getenv(name))
	return v, v != ""
}

func (r *reader) str(name, def string) string {
	if v, ok := r.raw(name); ok {
		return v
	}
	return def
}

func (r *reader) addr(name, def string) string {
	v, ok := r.raw(name)
	if !ok {
		return def
	}
	host, port, err := net.SplitHostPort(v)
	if err != nil {
		r.fail(name, v, "want host:port, e.g. :8080 or 127.0.0.1:8080")
		return ""
	}
	if host != "" && host != "localhost" {
		if _, err := netip.ParseAddr(host); err != nil {
			r.fail(name, v, "host must be an IP address, localhost or empty")
			return ""
		}
	}
	if p, err := strconv.Atoi(port); err != nil || p < 0 || p > 65535 {
		r.fail(name, v, "port must be a number from 0 to 65535")
		return ""
	}
	return v
}

// loopbackAddr is an optional host:port whose host is a loopback address:
// profiles reveal internals and must never be reachable from outside.
func (r *reader) loopbackAddr(name string) string {
	v, ok := r.raw(name)
	if !ok {
		return ""
	}
	host, port, err := net.SplitHostPort(v)
	if err != nil {
		r.fail(name, v, "want 127.0.0.1:port")
		return ""
	}
	if a, err := netip.ParseAddr(host); host != "localhost" && (err != nil || !a.IsLoopback()) {
		r.fail(name, v, "host must be a loopback address (127.0.0.1, ::1 or localhost)")
		return ""
	}
	if p, err := strconv.Atoi(port); err != nil || p < 0 || p > 65535 {
		r.fail(name, v, "port must be a number from 0 to 65535")
		return ""
	}
	return v
}

func (r *reader) dbURL(name string) string {
	v, ok := r.raw(name)
	if !ok {
		return ""
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") || u.Host == "" {
		r.fail(name, redact(v), "want postgres://user:pass@host:port/db")
		return ""
	}
	return v
}

func (r *reader) smtpURL(name string) string {
	v, ok := r.raw(name)
	if !ok {
		return ""
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "smtp" && u.Scheme != "smtps") || u.Hostname() == "" {
		r.fail(name, redact(v), "want smtp://user:pass@host:587 or smtps://host:465")
		return ""
	}
	return v
}

func (r *reader) origin(name string) string {
	v, ok := r.raw(name)
	if !ok {
		return ""
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
		r.fail(name, v, "want an origin such as https://campus.example.edu")
		return ""
	}
	return u.Scheme + "://" + u.Host
}

func (r *reader) email(name, def string) string {
	v, ok := r.raw(name)
	if !ok {
		return def
	}
	if _, err := mail.ParseAddress(v); err != nil {
		r.fail(name, v, "want an e-mail address")
		return ""
	}
	return v
}

func (r *reader) level(name string, def zerolog.Level) zerolog.Level {
	v, ok := r.raw(name)
	if !ok {
		return def
	}
	l, err := zerolog.ParseLevel(strings.ToLower(v))
	if err != nil || l == zerolog.NoLevel {
		r.fail(name, v, "want one of trace, debug, info, warn, error")
		return def
	}
	return l
}

func (r *reader) oneOf(name, def string, allowed ...string) string {
	v, ok := r.raw(name)
	if !ok {
		return def
	}
	for _, a := range allowed {
		if strings.EqualFold(v, a) {
			return a
		}
	}
	r.fail(name, v, "want one of "+strings.Join(allowed, ", "))
	return def
}

func (r *reader) onOff(name string, def bool) bool {
	v, ok := r.raw(name)
	if !ok {
		return def
	}
	switch strings.ToLower(v) {
	case "on", "true", "1", "yes":
		return true
	case "off", "false", "0", "no":
		return false
	}
	r.fail(name, v, "want on or off")
	return def
}

func (r *reader) intRange(name string, def, lo, hi int) int {
	v, ok := r.raw(name)
	if !ok {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		r.fail(name, v, fmt.Sprintf("want a whole number from %d to %d", lo, hi))
		return def
	}
	return n
}

// durationOrZero is a duration that may be 0 (the default: off).
func (r *reader) durationOrZero(name string) time.Duration {
	v, ok := r.raw(name)
	if !ok {
		return 0
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		r.fail(name, v, "want a duration such as 5s, or 0")
		return 0
	}
	return d
}

func (r *reader) duration(name string, def time.Duration) time.Duration {
	v, ok := r.raw(name)
	if !ok {
		return def
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		r.fail(name, v, "want a positive duration such as 10s")
		return def
	}
	return d
}

func (r *reader) prefixes(name string) []netip.Prefix {
	v, ok := r.raw(name)
	if !ok {
		return nil
	}
	var out []netip.Prefix
	for _, part := range strings.Split(v, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if p, err := netip.ParsePrefix(part); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(part)
		if err != nil {
			r.fail(name, v, "want comma-separated IPs or CIDRs")
			return nil
		}
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out
}

func (r *reader) hosts(name string) []string {
	v, ok := r.raw(name)
	if !ok {
		return nil
	}
	var out []string
	for _, part := range strings.Split(v, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if _, _, err := net.SplitHostPort(part); err != nil {
			r.fail(name, v, "want comma-separated host:port pairs")
			return nil
		}
		out = append(out, part)
	}
	return out
}

// media parses CAMPUS_MEDIA_URL; unset means the file store in defDir.
func (r *reader) media(name, defDir string) Media {
	v, ok := r.raw(name)
	if !ok {
		return Media{Dir: defDir}
	}
	shown := redactMediaURL(v)
	u, err := url.Parse(v)
	if err != nil {
		r.fail(name, shown, "want file:///absolute/dir or s3://bucket?endpoint=https://host:port&region=name")
		return Media{}
	}
	switch u.Scheme {
	case "file":
		if u.User != nil || (u.Host != "" && u.Host != "localhost") || u.RawQuery != "" || u.Fragment != "" ||
			u.Opaque != "" || u.Path == "" || u.Path == "/" {
			r.fail(name, shown, "want file:///absolute/dir (three slashes, no host, no query)")
			return Media{}
		}
		return Media{Dir: filepath.Clean(u.Path)}
	case "s3":
		s3, reason := parseS3(u)
		if reason != "" {
			r.fail(name, shown, reason)
			return Media{}
		}
		s3.AccessKeyID = r.required("AWS_ACCESS_KEY_ID", name)
		s3.SecretAccessKey = Secret(r.required("AWS_SECRET_ACCESS_KEY", name))
		s3.SessionToken = Secret(strings.TrimSpace(r.getenv("AWS_SESSION_TOKEN")))
		return Media{S3: s3}
	}
	r.fail(name, shown, "scheme must be file or s3")
	return Media{}
}

// parseS3 reads s3://bucket?endpoint=…&region=…; a non-empty reason says
// what is wrong with it.
func parseS3(u *url.URL) (*S3, string) {
	if u.User != nil {
		return nil, "credentials do not go in the URL: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"
	}
	if (u.Path != "" && u.Path != "/") || u.Fragment != "" || u.Opaque != "" {
		return nil, "want s3://bucket?endpoint=https://host:port&region=name (a bucket, no path)"
	}
	if !validBucket(u.Host) {
		return nil, "the bucket name must be 3 to 63 lower-case letters, digits, dots and hyphens"
	}
	q, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return nil, "unreadable query"
	}
	s3 := &S3{Bucket: u.Host, Endpoint: "s3.amazonaws.com", Secure: true}
	for k, vs := range q {
		if len(vs) != 1 {
			return nil, "parameter " + k + " given more than once"
		}
		switch v := vs[0]; k {
		case "endpoint":
			e, err := url.Parse(v)
			if err != nil || (e.Scheme != "http" && e.Scheme != "https") || e.Host == "" || e.User != nil ||
				(e.Path != "" && e.Path != "/") || e.RawQuery != "" {
				return nil, "endpoint must be http(s)://host[:port]"
			}
			if p := e.Port(); p != "" {
				if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
					return nil, "endpoint port must be a number from 1 to 65535"
				}
			}
			s3.Endpoint, s3.Secure, s3.PathStyle = e.Host, e.Scheme == "https", true
		case "region":
			if v == "" || strings.ContainsFunc(v, func(r rune) bool {
				return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_')
			}) {
				return nil, "region must be a name such as us-east-1"
			}
			s3.Region = v
		default:
			return nil, "unknown parameter " + k + " (want endpoint and region; credentials come from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)"
		}
	}
	if s3.Region == "" && s3.PathStyle {
		s3.Region = "us-east-1"
	}
	return s3, ""
}

// validBucket follows S3's bucket naming rules.
func validBucket(b string) bool {
	if len(b) < 3 || len(b) > 63 {
		return false
	}
	for i := range len(b) {
		c := b[i]
		alnum := c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
		if !alnum && ((c != '.' && c != '-') || i == 0 || i == len(b)-1) {
			return false
		}
	}
	return true
}

// required returns variable name, which the setting of `by` needs. It only
// checks presence, so no value (a secret, maybe) ever reaches an error.
func (r *reader) required(name, by string) string {
	v, ok := r.raw(name)
	if !ok {
		r.fail(name, "", "required by "+by+"=s3://…")
		return ""
	}
	return v
}

// redactMediaURL shows a media URL in an error: the password and every query
// value but the endpoint and region are hidden, in case someone put
// credentials there.
func redactMediaURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparseable)"
	}
	if u.User != nil {
		u.User = url.UserPassword("xxxxx", "xxxxx")
	}
	q, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		u.RawQuery = "xxxxx"
		return u.String()
	}
	for k := range q {
		if k != "endpoint" && k != "region" {
			q[k] = []string{"xxxxx"}
		}
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// endpoints are etcd client endpoints: host:port or http(s)://host:port.
func (r *reader) endpoints(name string) []string {
	v, ok := r.raw(name)
	if !ok {
		return nil
	}
	var out []string
	for _, part := range strings.Split(v, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		hostPort := part
		if strings.Contains(part, "://") {
			u, err := url.Parse(part)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || (u.Path != "" && u.Path != "/") {
				r.fail(name, redact(v), "want comma-separated host:port or http(s)://host:port")
				return nil
			}
			hostPort = u.Host
		}
		if host, port, err := net.SplitHostPort(hostPort); err != nil || host == "" || port == "" {
			r.fail(name, redact(v), "want comma-separated host:port or http(s)://host:port")
			return nil
		}
		out = append(out, part)
	}
	return out
}

// redact hides a URL's password so a config error never prints it.
func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		if err != nil {
			return "(unparseable)"
		}
		return raw
	}
	if _, has := u.User.Password(); has {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return u.String()
}

// IsError reports whether err is a configuration error.
func IsError(err error) bool {
	var e *Error
	return errors.As(err, &e)
}
