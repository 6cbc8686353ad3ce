package cluster

import (
	"os"
	"testing"

	"campus/cluster/etcdtest"
)

// StartEtcd runs a private etcd for the test and returns its client
// endpoint (etcdtest.Start).
func StartEtcd(t testing.TB) string {
	t.Helper()
	endpoint, _ := etcdtest.Start(t)
	return endpoint
}

// startEtcd is StartEtcd that also answers the etcd process, for tests that
// pause it.
func startEtcd(t testing.TB) (string, *os.Process) {
	t.Helper()
	return etcdtest.Start(t)
}
