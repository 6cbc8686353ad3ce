//go:build !k8s

package cluster

import (
	"errors"

	protocluster "github.com/asynkron/protoactor-go/cluster"
)

// ErrNoKubernetes means the binary was built without the Kubernetes provider.
var ErrNoKubernetes = errors.New("cluster: this binary has no Kubernetes provider; build it with `go build -tags k8s`")

func newKubernetesProvider() (protocluster.ClusterProvider, error) { return nil, ErrNoKubernetes }
