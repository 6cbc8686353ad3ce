//go:build k8s

package cluster

import (
	"fmt"

	protocluster "github.com/asynkron/protoactor-go/cluster"
	"github.com/asynkron/protoactor-go/cluster/clusterproviders/k8s"
)

// newKubernetesProvider is protoactor's Kubernetes provider: each pod labels
// itself (cluster name, remoting port, kinds) through the API server and
// watches the pods with its cluster label; a pod counts as a member while it
// is Running and ready. It needs a service account allowed to get, list,
// watch and patch pods (deploy/kubernetes/rbac.yaml).
func newKubernetesProvider() (protocluster.ClusterProvider, error) {
	p, err := k8s.New()
	if err != nil {
		return nil, fmt.Errorf("cluster: kubernetes provider (in-cluster config): %w", err)
	}
	return p, nil
}
