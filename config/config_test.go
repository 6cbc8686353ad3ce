package config

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestLoadDefaults(t *testing.T) {
	c, err := Load(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != ":8080" || c.DataDir != "./var" || c.DatabaseURL != "" || c.LogLevel != zerolog.InfoLevel ||
		!c.RateLimits || c.ProductName != "Campus" || c.ShutdownTimeout != 20*time.Second || c.DBMaxConns != 50 {
		t.Fatalf("unexpected defaults: %+v", c)
	}
	if c.MetricsAddr != "" {
		t.Fatalf("metrics listener on by default: %q", c.MetricsAddr)
	}
	if c.MediaDir() != "var/media" || c.PostgresDir() != "var/postgres" || c.SecretPath() != "var/secret" {
		t.Fatalf("dirs: %s %s %s", c.MediaDir(), c.PostgresDir(), c.SecretPath())
	}
}

func TestLoadValues(t *testing.T) {
	c, err := Load(env(map[string]string{
		"CAMPUS_ADDR":             "127.0.0.1:9090",
		"DATABASE_URL":            "postgres://u:p@localhost:5432/campus",
		"CAMPUS_PUBLIC_ORIGIN":    "https://campus.example.edu/",
		"CAMPUS_SMTP_URL":         "smtp://user:pass@mail.example.edu:587",
		"CAMPUS_SUPPORT_EMAIL":    "help@example.edu",
		"CAMPUS_LOG_LEVEL":        "DEBUG",
		"CAMPUS_RATE_LIMITS":      "off",
		"CAMPUS_TRUSTED_PROXIES":  "10.0.0.0/8, 192.168.1.1",
		"CAMPUS_CLUSTER_HOSTS":    "127.0.0.1:7001,127.0.0.1:7002",
		"CAMPUS_PPROF_ADDR":       "127.0.0.1:6060",
		"CAMPUS_CLUSTER_TLS_CA":   "/etc/campus/tls/ca.pem",
		"CAMPUS_CLUSTER_TLS_CERT": "/etc/campus/tls/tls.crt",
		"CAMPUS_CLUSTER_TLS_KEY":  "/etc/campus/tls/tls.key",
		"CAMPUS_DB_MAX_CONNS":     "10",
		"CAMPUS_METRICS_ADDR":     ":9091",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != "127.0.0.1:9090" || c.PublicOrigin != "https://campus.example.edu" || c.LogLevel != zerolog.DebugLevel ||
		c.RateLimits || len(c.TrustedProxies) != 2 || len(c.ClusterHosts) != 2 || c.SupportEmail != "help@example.edu" ||
		c.PprofAddr != "127.0.0.1:6060" || c.ClusterTLSCA != "/etc/campus/tls/ca.pem" ||
		c.ClusterTLSCert != "/etc/campus/tls/tls.crt" || c.ClusterTLSKey != "/etc/campus/tls/tls.key" || c.ClusterInsecure ||
		c.DBMaxConns != 10 || c.MetricsAddr != ":9091" {
		t.Fatalf("unexpected: %+v", c)
	}
}

func TestLoadRejects(t *testing.T) {
	tests := []struct {
		name, key, value string
	}{
		{"addr nonsense", "CAMPUS_ADDR", "nonsense"},
		{"addr bad port", "CAMPUS_ADDR", ":99999"},
		{"addr bad host", "CAMPUS_ADDR", "not a host:80"},
		{"pprof not loopback", "CAMPUS_PPROF_ADDR", "0.0.0.0:6060"},
		{"pprof no host", "CAMPUS_PPROF_ADDR", ":6060"},
		{"metrics addr nonsense", "CAMPUS_METRICS_ADDR", "metrics"},
		{"metrics on the public listener", "CAMPUS_METRICS_ADDR", ":8080"},
		{"database url scheme", "DATABASE_URL", "mysql://x@y/z"},
		{"origin with path", "CAMPUS_PUBLIC_ORIGIN", "https://x.edu/app"},
		{"origin scheme", "CAMPUS_PUBLIC_ORIGIN", "ftp://x.edu"},
		{"smtp scheme", "CAMPUS_SMTP_URL", "http://mail"},
		{"support email", "CAMPUS_SUPPORT_EMAIL", "not-an-email"},
		{"log level", "CAMPUS_LOG_LEVEL", "loud"},
		{"rate limits", "CAMPUS_RATE_LIMITS", "maybe"},
		{"proxies", "CAMPUS_TRUSTED_PROXIES", "10.0.0.0/8,banana"},
		{"conns", "CAMPUS_MAX_CONNS_PER_IP", "-1"},
		{"db conns below the writer's need", "CAMPUS_DB_MAX_CONNS", "9"},
		{"db conns not a number", "CAMPUS_DB_MAX_CONNS", "lots"},
		{"db conns too many", "CAMPUS_DB_MAX_CONNS", "10001"},
		{"timeout", "CAMPUS_SHUTDOWN_TIMEOUT", "soon"},
		{"drain delay", "CAMPUS_DRAIN_DELAY", "-1s"},
		{"drain delay past the shutdown timeout", "CAMPUS_DRAIN_DELAY", "20s"},
		{"hosts", "CAMPUS_CLUSTER_HOSTS", "nohostport"},
		{"log format", "CAMPUS_LOG_FORMAT", "xml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(env(map[string]string{tt.key: tt.value}))
			if err == nil || !IsError(err) {
				t.Fatalf("want config error, got %v", err)
			}
			msg := err.Error()
			if !strings.Contains(msg, tt.key) || strings.Contains(msg, "\n") {
				t.Fatalf("message must be one line naming %s: %q", tt.key, msg)
			}
		})
	}
}

// withTLS adds the remoting TLS files to env.
func withTLS(env map[string]string) map[string]string {
	out := map[string]string{"CAMPUS_CLUSTER_TLS_CA": "/tls/ca.pem", "CAMPUS_CLUSTER_TLS_CERT": "/tls/tls.crt",
		"CAMPUS_CLUSTER_TLS_KEY": "/tls/tls.key"}
	for k, v := range env {
		out[k] = v
	}
	return out
}

func TestClusterProvider(t *testing.T) {
	ok := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"default is a cluster of one", nil, ""},
		{"hosts alone keep automanaged", withTLS(map[string]string{"CAMPUS_CLUSTER_HOSTS": "127.0.0.1:6330"}), ""},
		{"automanaged", withTLS(map[string]string{"CAMPUS_CLUSTER_PROVIDER": "automanaged", "CAMPUS_CLUSTER_HOSTS": "10.0.0.1:6330,10.0.0.2:6330",
			"CAMPUS_CLUSTER_ADDR": "10.0.0.1:6331"}), "automanaged"},
		{"etcd", withTLS(map[string]string{"CAMPUS_CLUSTER_PROVIDER": "ETCD", "CAMPUS_ETCD_ENDPOINTS": "10.0.0.5:2379, https://etcd.example.edu:2379",
			"CAMPUS_CLUSTER_ADDR": "10.0.0.7:6331"}), "etcd"},
		{"k8s", withTLS(map[string]string{"CAMPUS_CLUSTER_PROVIDER": "k8s", "CAMPUS_CLUSTER_ADDR": "10.1.2.3:6331"}), "k8s"},
		// Every node and etcd on this machine (make cluster, the tests).
		{"etcd on loopback, all of it", withTLS(map[string]string{"CAMPUS_CLUSTER_PROVIDER": "etcd",
			"CAMPUS_ETCD_ENDPOINTS": "127.0.0.1:23790,http://localhost:23791", "CAMPUS_CLUSTER_ADDR": "127.0.0.1:0"}), "etcd"},
		{"plaintext on purpose", map[string]string{"CAMPUS_CLUSTER_PROVIDER": "etcd", "CAMPUS_ETCD_ENDPOINTS": "10.0.0.5:2379",
			"CAMPUS_CLUSTER_ADDR": "10.0.0.7:6331", "CAMPUS_CLUSTER_INSECURE": "on"}, "etcd"},
		{"a cluster of one may use TLS", withTLS(nil), ""},
		{"etcd with a lease", withTLS(map[string]string{"CAMPUS_CLUSTER_PROVIDER": "etcd", "CAMPUS_ETCD_ENDPOINTS": "10.0.0.5:2379, 10.0.0.6:2379",
			"CAMPUS_CLUSTER_ADDR": "10.0.0.7:6331", "CAMPUS_ETCD_LEASE": "10m"}), "etcd"},
	}
	for _, tt := range ok {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Load(env(tt.env))
			if err != nil {
				t.Fatal(err)
			}
			if c.ClusterProvider != tt.want {
				t.Fatalf("provider %q, want %q", c.ClusterProvider, tt.want)
			}
			if tt.name == "etcd" && len(c.EtcdEndpoints) != 2 {
				t.Fatalf("endpoints %v", c.EtcdEndpoints)
			}
			wantLease := 3 * time.Second
			if tt.env["CAMPUS_ETCD_LEASE"] == "10m" {
				wantLease = 10 * time.Minute
			}
			if c.EtcdLease != wantLease {
				t.Fatalf("lease %v, want %v", c.EtcdLease, wantLease)
			}
			if c.ClusterInsecure != (tt.env["CAMPUS_CLUSTER_INSECURE"] == "on") {
				t.Fatalf("insecure %v", c.ClusterInsecure)
			}
		})
	}

	etcdAt := func(endpoints, addr string) map[string]string {
		e := withTLS(map[string]string{"CAMPUS_CLUSTER_PROVIDER": "etcd", "CAMPUS_ETCD_ENDPOINTS": endpoints})
		if addr != "" {
			e["CAMPUS_CLUSTER_ADDR"] = addr
		}
		return e
	}
	bad := []struct {
		name string
		env  map[string]string
		key  string
	}{
		{"unknown provider", map[string]string{"CAMPUS_CLUSTER_PROVIDER": "consul"}, "CAMPUS_CLUSTER_PROVIDER"},
		{"automanaged without hosts", map[string]string{"CAMPUS_CLUSTER_PROVIDER": "automanaged"}, "CAMPUS_CLUSTER_HOSTS"},
		{"etcd without endpoints", map[string]string{"CAMPUS_CLUSTER_PROVIDER": "etcd"}, "CAMPUS_ETCD_ENDPOINTS"},
		{"bad endpoint", map[string]string{"CAMPUS_CLUSTER_PROVIDER": "etcd", "CAMPUS_ETCD_ENDPOINTS": "etcd-without-port"}, "CAMPUS_ETCD_ENDPOINTS"},
		{"bad endpoint scheme", map[string]string{"CAMPUS_CLUSTER_PROVIDER": "etcd", "CAMPUS_ETCD_ENDPOINTS": "ftp://etcd:2379"}, "CAMPUS_ETCD_ENDPOINTS"},
		{"endpoints without etcd", map[string]string{"CAMPUS_ETCD_ENDPOINTS": "127.0.0.1:2379"}, "CAMPUS_ETCD_ENDPOINTS"},
		{"hosts with etcd", map[string]string{"CAMPUS_CLUSTER_PROVIDER": "etcd", "CAMPUS_ETCD_ENDPOINTS": "127.0.0.1:2379",
			"CAMPUS_CLUSTER_HOSTS": "127.0.0.1:6330"}, "CAMPUS_CLUSTER_HOSTS"},
		{"hosts with k8s", map[string]string{"CAMPUS_CLUSTER_PROVIDER": "k8s", "CAMPUS_CLUSTER_HOSTS": "127.0.0.1:6330"}, "CAMPUS_CLUSTER_HOSTS"},
		{"etcd advertising a wildcard", etcdAt("127.0.0.1:2379", "0.0.0.0:6331"), "CAMPUS_CLUSTER_ADDR"},
		{"k8s advertising no host", withTLS(map[string]string{"CAMPUS_CLUSTER_PROVIDER": "k8s", "CAMPUS_CLUSTER_ADDR": ":6331"}), "CAMPUS_CLUSTER_ADDR"},
		// The trial's mistake: etcd on another machine, the address left at
		// its default 127.0.0.1:0.
		{"etcd with the default address", etcdAt("10.0.0.5:2379", ""), "CAMPUS_CLUSTER_ADDR"},
		{"etcd on loopback with the default address", etcdAt("127.0.0.1:2379", ""), "CAMPUS_CLUSTER_ADDR"},
		{"etcd advertising loopback to another machine", etcdAt("10.0.0.5:2379", "127.0.0.1:6331"), "CAMPUS_CLUSTER_ADDR"},
		{"etcd advertising localhost beside a remote endpoint", etcdAt("http://127.0.0.1:2379,https://etcd.example.edu:2379", "localhost:6331"), "CAMPUS_CLUSTER_ADDR"},
		{"k8s advertising loopback", withTLS(map[string]string{"CAMPUS_CLUSTER_PROVIDER": "k8s", "CAMPUS_CLUSTER_ADDR": "127.0.0.1:6331"}), "CAMPUS_CLUSTER_ADDR"},
		{"k8s with the default address", withTLS(map[string]string{"CAMPUS_CLUSTER_PROVIDER": "k8s"}), "CAMPUS_CLUSTER_ADDR"},
		{"automanaged advertising loopback to other machines", withTLS(map[string]string{"CAMPUS_CLUSTER_HOSTS": "10.0.0.1:6330,10.0.0.2:6330"}), "CAMPUS_CLUSTER_ADDR"},
		{"several nodes without TLS", map[string]string{"CAMPUS_CLUSTER_PROVIDER": "etcd", "CAMPUS_ETCD_ENDPOINTS": "10.0.0.5:2379",
			"CAMPUS_CLUSTER_ADDR": "10.0.0.7:6331"}, "CAMPUS_CLUSTER_TLS_CA"},
		{"automanaged without TLS", map[string]string{"CAMPUS_CLUSTER_HOSTS": "127.0.0.1:6330"}, "CAMPUS_CLUSTER_TLS_CA"},
		{"TLS without the key", map[string]string{"CAMPUS_CLUSTER_TLS_CA": "/tls/ca.pem", "CAMPUS_CLUSTER_TLS_CERT": "/tls/tls.crt"}, "CAMPUS_CLUSTER_TLS_KEY"},
		{"TLS without the CA", map[string]string{"CAMPUS_CLUSTER_TLS_CERT": "/tls/tls.crt", "CAMPUS_CLUSTER_TLS_KEY": "/tls/tls.key"}, "CAMPUS_CLUSTER_TLS_CA"},
		{"TLS and plaintext at once", withTLS(map[string]string{"CAMPUS_CLUSTER_INSECURE": "on"}), "CAMPUS_CLUSTER_INSECURE"},
		{"insecure neither on nor off", map[string]string{"CAMPUS_CLUSTER_INSECURE": "sometimes"}, "CAMPUS_CLUSTER_INSECURE"},
		{"lease without etcd", map[string]string{"CAMPUS_ETCD_LEASE": "3s"}, "CAMPUS_ETCD_LEASE"},
		{"lease of part of a second", etcdLease("1500ms"), "CAMPUS_ETCD_LEASE"},
		{"lease of nothing", etcdLease("0s"), "CAMPUS_ETCD_LEASE"},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(env(tt.env))
			if err == nil || !IsError(err) {
				t.Fatalf("want config error, got %v", err)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "config: "+tt.key+"=") || strings.Contains(msg, "\n") {
				t.Fatalf("message must be one line naming %s: %q", tt.key, msg)
			}
		})
	}
}

func TestSecretsNotPrinted(t *testing.T) {
	_, err := Load(env(map[string]string{"DATABASE_URL": "mysql://user:hunter2@db/x"}))
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Fatalf("password leaked or no error: %v", err)
	}
}

func TestMediaURL(t *testing.T) {
	creds := map[string]string{"AWS_ACCESS_KEY_ID": "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY": "hunter2secret"}
	tests := []struct {
		name, value string
		want        Media
	}{
		{"unset: the data dir's media", "", Media{Dir: "/srv/campus/media"}},
		{"file", "file:///mnt/images/", Media{Dir: "/mnt/images"}},
		{"file on localhost", "file://localhost/mnt/images", Media{Dir: "/mnt/images"}},
		{"aws", "s3://campus-media", Media{S3: &S3{Bucket: "campus-media", Endpoint: "s3.amazonaws.com", Secure: true}}},
		{"aws with region", "s3://campus-media?region=eu-west-1",
			Media{S3: &S3{Bucket: "campus-media", Endpoint: "s3.amazonaws.com", Secure: true, Region: "eu-west-1"}}},
		{"s3-compatible over http", "s3://campus.media?endpoint=http://127.0.0.1:7070",
			Media{S3: &S3{Bucket: "campus.media", Endpoint: "127.0.0.1:7070", Region: "us-east-1", PathStyle: true}}},
		{"s3-compatible over https with region", "s3://media-1?endpoint=https://s3.example.edu/&region=garage",
			Media{S3: &S3{Bucket: "media-1", Endpoint: "s3.example.edu", Secure: true, Region: "garage", PathStyle: true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := map[string]string{"CAMPUS_DATA_DIR": "/srv/campus", "CAMPUS_MEDIA_URL": tt.value, "AWS_SESSION_TOKEN": "tok"}
			for k, v := range creds {
				e[k] = v
			}
			c, err := Load(env(e))
			if err != nil {
				t.Fatal(err)
			}
			if tt.want.S3 != nil {
				tt.want.S3.AccessKeyID, tt.want.S3.SecretAccessKey, tt.want.S3.SessionToken = "AKIDEXAMPLE", "hunter2secret", "tok"
			}
			if c.Media.Dir != tt.want.Dir || (c.Media.S3 == nil) != (tt.want.S3 == nil) ||
				(c.Media.S3 != nil && *c.Media.S3 != *tt.want.S3) {
				t.Fatalf("Media = %+v %+v, want %+v %+v", c.Media, c.Media.S3, tt.want, tt.want.S3)
			}
			if tt.want.Dir != "" && c.MediaDir() != tt.want.Dir {
				t.Errorf("MediaDir() = %q", c.MediaDir())
			}
			if printed := fmt.Sprintf("%v %+v %#v", c, c.Media.S3, c.Media.S3); strings.Contains(printed, "hunter2secret") {
				t.Errorf("printing the config shows the secret: %s", printed)
			}
		})
	}
}

func TestMediaURLRejects(t *testing.T) {
	creds := map[string]string{"AWS_ACCESS_KEY_ID": "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY": "hunter2secret"}
	tests := []struct {
		name, value string
		env         map[string]string
		wantVar     string
	}{
		{"scheme", "ftp://x/y", creds, "CAMPUS_MEDIA_URL"},
		{"plain path", "/srv/media", creds, "CAMPUS_MEDIA_URL"},
		{"file with host", "file://server/media", creds, "CAMPUS_MEDIA_URL"},
		{"file relative", "file:media", creds, "CAMPUS_MEDIA_URL"},
		{"file root only", "file:///", creds, "CAMPUS_MEDIA_URL"},
		{"file with query", "file:///m?x=1", creds, "CAMPUS_MEDIA_URL"},
		{"no bucket", "s3://", creds, "CAMPUS_MEDIA_URL"},
		{"bucket upper case", "s3://Campus_Media", creds, "CAMPUS_MEDIA_URL"},
		{"bucket too short", "s3://ab", creds, "CAMPUS_MEDIA_URL"},
		{"bucket ends in hyphen", "s3://media-", creds, "CAMPUS_MEDIA_URL"},
		{"path", "s3://media/prefix", creds, "CAMPUS_MEDIA_URL"},
		{"endpoint scheme", "s3://media?endpoint=ftp://h:21", creds, "CAMPUS_MEDIA_URL"},
		{"endpoint without host", "s3://media?endpoint=http://", creds, "CAMPUS_MEDIA_URL"},
		{"endpoint with path", "s3://media?endpoint=http://h:9000/media", creds, "CAMPUS_MEDIA_URL"},
		{"endpoint bad port", "s3://media?endpoint=http://h:99999", creds, "CAMPUS_MEDIA_URL"},
		{"region", "s3://media?region=US%20East", creds, "CAMPUS_MEDIA_URL"},
		{"repeated parameter", "s3://media?region=a&region=b", creds, "CAMPUS_MEDIA_URL"},
		{"secret in the query", "s3://media?secret_key=hunter2secret", creds, "CAMPUS_MEDIA_URL"},
		{"secret in the user info", "s3://AKID:hunter2secret@media", creds, "CAMPUS_MEDIA_URL"},
		{"no access key", "s3://media", map[string]string{"AWS_SECRET_ACCESS_KEY": "hunter2secret"}, "AWS_ACCESS_KEY_ID"},
		{"no secret key", "s3://media", map[string]string{"AWS_ACCESS_KEY_ID": "AKIDEXAMPLE"}, "AWS_SECRET_ACCESS_KEY"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := map[string]string{"CAMPUS_MEDIA_URL": tt.value}
			for k, v := range tt.env {
				e[k] = v
			}
			_, err := Load(env(e))
			if err == nil || !IsError(err) {
				t.Fatalf("want config error, got %v", err)
			}
			msg := err.Error()
			if !strings.Contains(msg, tt.wantVar) || strings.Contains(msg, "\n") {
				t.Fatalf("message must be one line naming %s: %q", tt.wantVar, msg)
			}
			if strings.Contains(msg, "hunter2secret") {
				t.Fatalf("message shows the secret: %q", msg)
			}
		})
	}
}

// etcdLease is a valid etcd node's environment with CAMPUS_ETCD_LEASE set.
func etcdLease(lease string) map[string]string {
	return withTLS(map[string]string{"CAMPUS_CLUSTER_PROVIDER": "etcd", "CAMPUS_ETCD_ENDPOINTS": "10.0.0.5:2379",
		"CAMPUS_CLUSTER_ADDR": "10.0.0.7:6331", "CAMPUS_ETCD_LEASE": lease})
}
