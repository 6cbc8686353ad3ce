// Package clustertest gives tests that start real `campus serve` processes
// as a cluster the remoting certificates a cluster of several nodes needs
// (mutual TLS is required there unless CAMPUS_CLUSTER_INSECURE=on). It is
// used by tests only.
package clustertest

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"campus/cluster"
)

var (
	once  sync.Once
	files map[string][]byte
	err   error
)

// TLSEnv writes the cluster's CA certificate and node certificate and key
// into dir (which must exist) and answers the CAMPUS_CLUSTER_TLS_* settings
// (NAME=value) that point at them. Every call in a process hands out the
// same CA and certificate, made once with cluster.WriteCerts, so every node
// a test starts can join every other.
func TLSEnv(t testing.TB, dir string) []string {
	t.Helper()
	once.Do(func() {
		var tmp string
		if tmp, err = os.MkdirTemp("", "campus-cluster-certs-"); err != nil {
			return
		}
		defer os.RemoveAll(tmp)
		if _, err = cluster.WriteCerts(tmp, time.Now()); err != nil {
			return
		}
		files = map[string][]byte{}
		for _, name := range []string{cluster.CAFile, cluster.CertFile, cluster.KeyFile} {
			if files[name], err = os.ReadFile(filepath.Join(tmp, name)); err != nil {
				return
			}
		}
	})
	if err != nil {
		t.Fatalf("clustertest: make the certificates: %v", err)
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return []string{
		"CAMPUS_CLUSTER_TLS_CA=" + filepath.Join(dir, cluster.CAFile),
		"CAMPUS_CLUSTER_TLS_CERT=" + filepath.Join(dir, cluster.CertFile),
		"CAMPUS_CLUSTER_TLS_KEY=" + filepath.Join(dir, cluster.KeyFile),
	}
}
