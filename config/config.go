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
	// TrustedProxies are the proxies whose X-Forwarded-For is believed (CAMPUS_TRUSTED_PROXIES, comma-separated CIDRs or IPs).
	TrustedProxies []netip.Prefix
	// MaxConnsPerIP caps concurrent connections from one client address (CAMPUS_MAX_CONNS_PER_IP, default 2000; 0 = unlimited).
	MaxConnsPerIP int
	// MaxSocketsPerUser caps one user's websockets on a node (CAMPUS_MAX_SOCKETS_PER_USER, default 10).
	MaxSocketsPerUser int
	// ShutdownTimeout bounds graceful shutdown (CAMPUS_SHUTDOWN_TIMEOUT, default 10s).
	ShutdownTimeout time.Duration
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
	// PprofAddr serves Go's net/http/pprof profiles on a loopback address
	// when set (CAMPUS_PPROF_ADDR, e.g. 127.0.0.1:6060); empty (the default) serves none.
	PprofAddr string
}

// MediaDir is where uploaded files live.
func (c Config) MediaDir() string { return filepath.Join(c.DataDir, "media") }

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
	c := Config{
		Addr:                  r.addr("CAMPUS_ADDR", ":8080"),
		DatabaseURL:           r.dbURL("DATABASE_URL"),
		DataDir:               r.str("CAMPUS_DATA_DIR", "./var"),
		PublicOrigin:          r.origin("CAMPUS_PUBLIC_ORIGIN"),
		SMTPURL:               r.smtpURL("CAMPUS_SMTP_URL"),
		MailFrom:              r.email("CAMPUS_MAIL_FROM", "Campus <no-reply@campus.localhost>"),
		SupportEmail:          r.email("CAMPUS_SUPPORT_EMAIL", "support@campus.localhost"),
		ProductName:           r.str("CAMPUS_PRODUCT_NAME", "Campus"),
		LogLevel:              r.level("CAMPUS_LOG_LEVEL", zerolog.InfoLevel),
		LogFormat:             r.oneOf("CAMPUS_LOG_FORMAT", "", "json", "console"),
		ClientDir:             r.str("CAMPUS_CLIENT_DIR", "client/dist"),
		RateLimits:            r.onOff("CAMPUS_RATE_LIMITS", true),
		TrustedProxies:        r.prefixes("CAMPUS_TRUSTED_PROXIES"),
		MaxConnsPerIP:         r.intRange("CAMPUS_MAX_CONNS_PER_IP", 2000, 0, 1_000_000),
		MaxSocketsPerUser:     r.intRange("CAMPUS_MAX_SOCKETS_PER_USER", 10, 1, 1_000_000),
		ShutdownTimeout:       r.duration("CAMPUS_SHUTDOWN_TIMEOUT", 10*time.Second),
		ClusterName:           r.str("CAMPUS_CLUSTER_NAME", "campus"),
		ClusterAddr:           r.addr("CAMPUS_CLUSTER_ADDR", "127.0.0.1:0"),
		ClusterHosts:          r.hosts("CAMPUS_CLUSTER_HOSTS"),
		ClusterAutoManagePort: r.intRange("CAMPUS_CLUSTER_MANAGE_PORT", 6330, 1, 65535),
		ClusterProvider:       r.oneOf("CAMPUS_CLUSTER_PROVIDER", "", "automanaged", "etcd", "k8s"),
		EtcdEndpoints:         r.endpoints("CAMPUS_ETCD_ENDPOINTS"),
		PprofAddr:             r.loopbackAddr("CAMPUS_PPROF_ADDR"),
	}
	r.clusterProvider(c)
	if r.err != nil {
		return Config{}, r.err
	}
	return c, nil
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
	if (c.ClusterProvider == "etcd" || c.ClusterProvider == "k8s") && len(c.ClusterHosts) > 0 {
		r.fail("CAMPUS_CLUSTER_HOSTS", hosts, "only used by the automanaged provider; "+c.ClusterProvider+" finds the nodes itself")
	}
	if c.ClusterProvider != "" || len(c.ClusterHosts) > 0 {
		// The remoting address is what this node advertises to the others
		// (and the reply address of every message it sends).
		if host, _, err := net.SplitHostPort(c.ClusterAddr); err == nil {
			if a, err := netip.ParseAddr(host); host == "" || (err == nil && a.IsUnspecified()) {
				r.fail("CAMPUS_CLUSTER_ADDR", c.ClusterAddr, "the other nodes must reach this address: give this node's own IP, not a wildcard")
			}
		}
	}
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
