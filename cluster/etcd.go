package cluster

import (
	"context"
	"errors"
	"fmt"
	"time"

	protocluster "github.com/asynkron/protoactor-go/cluster"
	"github.com/asynkron/protoactor-go/cluster/clusterproviders/etcd"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
)

// etcdBaseKey is the etcd key prefix under which members register
// (/campus/<cluster name>/<member>).
const etcdBaseKey = "/campus"

// etcdDialTimeout bounds the first contact with etcd at start-up: a node
// that cannot reach etcd fails instead of hanging (the provider's own
// requests wait for ever).
const etcdDialTimeout = 5 * time.Second

// newEtcdProvider is protoactor's etcd provider: each node puts its remoting
// address under a lease (TTL 3 s, kept alive every second) and watches the
// prefix, so a node joins by starting with the same endpoints, a stopped node
// deletes its key, and a killed node's key expires with its lease.
func newEtcdProvider(endpoints []string) (protocluster.ClusterProvider, error) {
	if len(endpoints) == 0 {
		return nil, errors.New("cluster: the etcd provider needs at least one endpoint")
	}
	cfg := clientv3.Config{
		Endpoints:   endpoints,
		DialTimeout: etcdDialTimeout,
		// The client's zap logs (reconnect chatter) stay out of our output;
		// failures surface through the provider and Ready.
		Logger: zap.NewNop(),
	}
	if err := pingEtcd(cfg); err != nil {
		return nil, err
	}
	p, err := etcd.NewWithConfig(etcdBaseKey, cfg)
	if err != nil {
		return nil, fmt.Errorf("cluster: etcd client: %w", err)
	}
	return p, nil
}

// pingEtcd makes one request with a deadline, because the provider's
// start-up requests carry none.
func pingEtcd(cfg clientv3.Config) error {
	c, err := clientv3.New(cfg)
	if err != nil {
		return fmt.Errorf("cluster: etcd client: %w", err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), etcdDialTimeout)
	defer cancel()
	if _, err := c.Get(ctx, etcdBaseKey, clientv3.WithCountOnly()); err != nil {
		return fmt.Errorf("cluster: etcd at %v: %w", cfg.Endpoints, err)
	}
	return nil
}
