package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"campus/cluster"
	"campus/config"
)

// TestUsage covers the answers given before any configuration is read.
func TestUsage(t *testing.T) {
	for _, tc := range []struct {
		name     string
		args     []string
		wantCode int
		wantErr  string // on stderr
		wantOut  string // on stdout
	}{
		{name: "no command", wantCode: 2, wantErr: "campus backup DIR"},
		{name: "help lists backup and restore", args: []string{"help"}, wantCode: 0, wantOut: "campus restore DIR"},
		{name: "backup without a directory", args: []string{"backup"}, wantCode: 2, wantErr: "want exactly one directory"},
		{name: "restore with two directories", args: []string{"restore", "a", "b"}, wantCode: 2, wantErr: "want exactly one directory"},
		{name: "unknown flag", args: []string{"backup", "-x", "dir"}, wantCode: 2, wantErr: "-x"},
		{name: "unknown command", args: []string{"dump"}, wantCode: 2, wantErr: `unknown command "dump"`},
		{name: "help lists cluster certs", args: []string{"help"}, wantCode: 0, wantOut: "campus cluster certs DIR"},
		{name: "cluster without certs", args: []string{"cluster", "ca", "dir"}, wantCode: 2, wantErr: `want "certs DIR"`},
		{name: "cluster certs without a directory", args: []string{"cluster", "certs"}, wantCode: 2, wantErr: `want "certs DIR"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(tc.args, &stdout, &stderr); code != tc.wantCode {
				t.Errorf("exit code %d, want %d (stderr %q)", code, tc.wantCode, stderr.String())
			}
			if !strings.Contains(stderr.String(), tc.wantErr) || !strings.Contains(stdout.String(), tc.wantOut) {
				t.Errorf("stdout %q, stderr %q; want %q and %q in them", stdout.String(), stderr.String(), tc.wantOut, tc.wantErr)
			}
		})
	}
}

// TestClusterCerts makes certificates with the command, renews the node
// certificate, and starts from them the way serve does.
func TestClusterCerts(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tls")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"cluster", "certs", dir}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit code %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "made a new cluster CA") || !strings.Contains(stdout.String(), "CAMPUS_CLUSTER_TLS_CA=") {
		t.Fatalf("stdout %q", stdout.String())
	}
	ca, _ := os.ReadFile(filepath.Join(dir, cluster.CAFile))
	stdout.Reset()
	if code := run([]string{"cluster", "certs", dir}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "kept the cluster CA") {
		t.Fatalf("second run: exit code %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
	if again, _ := os.ReadFile(filepath.Join(dir, cluster.CAFile)); !bytes.Equal(again, ca) {
		t.Fatal("the second run replaced the CA")
	}

	env := map[string]string{
		"CAMPUS_CLUSTER_PROVIDER": "etcd", "CAMPUS_ETCD_ENDPOINTS": "10.0.0.5:2379", "CAMPUS_CLUSTER_ADDR": "10.0.0.21:6331",
		"CAMPUS_CLUSTER_TLS_CA":   filepath.Join(dir, cluster.CAFile),
		"CAMPUS_CLUSTER_TLS_CERT": filepath.Join(dir, cluster.CertFile),
		"CAMPUS_CLUSTER_TLS_KEY":  filepath.Join(dir, cluster.KeyFile),
	}
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	tlsCfg, err := loadClusterTLS(cfg, zerolog.Nop())
	if err != nil || tlsCfg == nil || tlsCfg.NotAfter.Before(time.Now().Add(cluster.CertValidity-time.Hour)) {
		t.Fatalf("loadClusterTLS: %v, %+v", err, tlsCfg)
	}

	// A node given another CA's file stops before it starts anything.
	other := filepath.Join(t.TempDir(), "other")
	if _, err := cluster.WriteCerts(other, time.Now()); err != nil {
		t.Fatal(err)
	}
	cfg.ClusterTLSCA = filepath.Join(other, cluster.CAFile)
	if _, err := loadClusterTLS(cfg, zerolog.Nop()); err == nil || !strings.Contains(err.Error(), cfg.ClusterTLSCA) {
		t.Fatalf("want an error naming %s, got %v", cfg.ClusterTLSCA, err)
	}
}
