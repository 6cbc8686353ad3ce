// Package cluster boots the Proto.Actor actor system as a member of a cluster
// (docs/architecture.md §4.4): a cluster of one by default; the automanaged provider for a
// small fixed cluster whose nodes are all listed; etcd or Kubernetes for
// nodes that join and leave with nothing pre-listed. Identity lookup is
// disthash whatever the provider.
package cluster

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"slices"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	protocluster "github.com/asynkron/protoactor-go/cluster"
	"github.com/asynkron/protoactor-go/cluster/clusterproviders/automanaged"
	"github.com/asynkron/protoactor-go/cluster/clusterproviders/test"
	"github.com/asynkron/protoactor-go/cluster/identitylookup/disthash"
	"github.com/asynkron/protoactor-go/remote"
	"github.com/rs/zerolog"
)

// Provider names how a node finds the other members (CAMPUS_CLUSTER_PROVIDER).
type Provider string

// The providers. The zero value is a cluster of one, or automanaged when
// Options.Hosts lists nodes.
const (
	ProviderSingle      Provider = ""
	ProviderAutomanaged Provider = "automanaged"
	ProviderEtcd        Provider = "etcd"
	ProviderKubernetes  Provider = "k8s"
)

// Options configure a node's membership.
type Options struct {
	// Name is the cluster name; nodes only see members with the same name.
	Name string
	// Addr is this node's remoting address host:port; port 0 picks a free one.
	// With etcd it is also what the node advertises, so the other nodes must
	// be able to reach it.
	Addr string
	// Provider picks the membership provider; see the constants.
	Provider Provider
	// Hosts lists every node's automanaged address (host:managePort); empty
	// runs a cluster of one with an in-process provider.
	Hosts []string
	// ManagePort is the automanaged provider's HTTP port on this node.
	ManagePort int
	// EtcdEndpoints are the etcd servers (host:port or URLs) of the etcd provider.
	EtcdEndpoints []string
	// EtcdLease is how long a node that stopped keeping its etcd key alive
	// (killed, cut off) stays listed, unless its peers prove it dead first
	// (whole seconds; 0: 3 s). Tests that must tell the peers' own proof
	// from the lease set it far beyond their length.
	EtcdLease time.Duration
	// Kinds are the grain kinds this node hosts.
	Kinds []*protocluster.Kind
	// RequestTimeout bounds one grain call made with protoactor's own
	// Request (default 1 s; our calls have deadlines of their own,
	// docs/architecture.md §4.4).
	RequestTimeout time.Duration
	// Log receives protoactor's own logs (at warn and above by default).
	Log zerolog.Logger
	// TLS, when set, makes remoting mutual TLS: the node accepts only
	// connections from a peer whose certificate the cluster CA signed, and
	// sends only to such a peer (LoadTLS). Nil is plaintext, for a cluster
	// of one or a network nothing but the nodes can reach.
	TLS *TLS
	// Database, when set, answers whether this node reaches its database
	// (campus serve: a good ping in the last 5 s); peers ask it before a node cut off from the database hands its
	// grains over (Node.PeerReachesDatabase, the README's Network faults).
	// It must not block.
	Database func() bool
}

// Node is a running actor system that has joined the cluster.
type Node struct {
	System  *actor.ActorSystem
	Cluster *protocluster.Cluster
	log     zerolog.Logger
	// selfListed: this node's provider lists it among the members once it
	// has joined. Kubernetes lists a pod only after its readiness probe
	// passes, so there readiness cannot wait for it.
	selfListed bool
	// stopped is set by Stop and read by Ready from the HTTP server's
	// goroutines.
	stopped atomic.Bool
	// members is the member list as this node sees it (members.go).
	members *members
	// guard counts the remoting connections refused (tls.go).
	guard *guard
	// etcd is the etcd provider, whose list Membership compares with the
	// topology; nil with the other providers.
	etcd *etcdProvider
	// watch finds out whether the cluster dropped this member
	// (membership.go); o are the options it was started with, for Rejoin.
	watch *watchdog
	o     Options
}

// Start creates the actor system, starts remoting and joins the cluster.
// protoactor panics on start-up failures (port taken, provider error); they
// are returned as errors here so the caller can stop cleanly.
func Start(ctx context.Context, o Options) (n *Node, err error) {
	if o.Name == "" {
		o.Name = "campus"
	}
	if o.RequestTimeout == 0 {
		o.RequestTimeout = time.Second
	}
	host, portText, err := net.SplitHostPort(o.Addr)
	if err != nil {
		return nil, fmt.Errorf("cluster: address %q: %w", o.Addr, err)
	}
	port, err := strconv.Atoi(portText)
	if err != nil {
		return nil, fmt.Errorf("cluster: address %q: bad port", o.Addr)
	}
	if host == "" {
		host = "127.0.0.1"
	}

	provider, err := newProvider(o)
	if err != nil {
		return nil, err
	}

	plog := o.Log.With().Str("component", "protoactor").Logger()
	if plog.GetLevel() < zerolog.WarnLevel {
		plog = plog.Level(zerolog.WarnLevel)
	}
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger {
		return slog.New(quietHandler{zerolog.NewSlogHandler(plog)}) // logs.go
	}))

	g := newGuard(o.Log)
	if o.TLS != nil {
		if left := time.Until(o.TLS.NotAfter); left < 30*24*time.Hour {
			o.Log.Warn().Time("not_after", o.TLS.NotAfter).
				Msg("cluster: this node's certificate expires within 30 days: renew it with campus cluster certs (README, Remoting is mutual TLS)")
		}
	}
	server, dial := remoting(o.TLS, g) // remoting.go
	cfg := protocluster.Configure(o.Name, provider, disthash.New(),
		remote.Configure(host, port, remote.WithServerOptions(server...), remote.WithDialOptions(dial...)),
		protocluster.WithKinds(o.Kinds...),
		protocluster.WithRequestTimeout(o.RequestTimeout),
	)
	c := protocluster.New(system, cfg)
	seen := &members{}
	seen.follow(system.EventStream)

	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("cluster: start member: %v", r)
			system.Shutdown()
			if e, ok := provider.(*etcdProvider); ok {
				_ = e.Shutdown(false) // its client, and its key if it got that far
			}
		}
	}()
	c.StartMember()
	if err := ctx.Err(); err != nil {
		c.Shutdown(false)
		return nil, fmt.Errorf("cluster: start: %w", err)
	}
	n = &Node{System: system, Cluster: c, log: o.Log, selfListed: o.Provider != ProviderKubernetes, members: seen,
		guard: g, o: o}
	n.etcd, _ = provider.(*etcdProvider)
	if err := n.watchMembership(); err != nil {
		n.leave()
		return nil, err
	}
	if err := n.awaitProvider(ctx); err != nil {
		n.leave()
		return nil, err
	}
	return n, nil
}

// newProvider builds the membership provider the options ask for.
func newProvider(o Options) (protocluster.ClusterProvider, error) {
	p := o.Provider
	if p == ProviderSingle && len(o.Hosts) > 0 {
		p = ProviderAutomanaged
	}
	switch p {
	case ProviderSingle:
		// A cluster of one: the in-memory agent keeps membership inside this
		// process, so two nodes on one machine (tests, bench) never collide
		// on a management port.
		return test.NewTestProvider(test.NewInMemAgent()), nil
	case ProviderAutomanaged:
		if len(o.Hosts) == 0 {
			return nil, errors.New("cluster: the automanaged provider needs the hosts of every node")
		}
		return automanaged.NewWithConfig(500*time.Millisecond, o.ManagePort, o.Hosts...), nil
	case ProviderEtcd:
		return newEtcdProvider(o.EtcdEndpoints, o.EtcdLease, o.Log)
	case ProviderKubernetes:
		return newKubernetesProvider()
	}
	return nil, fmt.Errorf("cluster: unknown provider %q", o.Provider)
}

// Address is this node's remoting address (host:port).
func (n *Node) Address() string { return n.System.Address() }

// RefusedConnections counts the remoting connections this node refused, in
// either direction, because the peer had no valid cluster certificate.
func (n *Node) RefusedConnections() uint64 { return n.guard.in.Load() + n.guard.out.Load() }

// ErrNotJoined means the node does not (yet) see itself as a cluster member.
var ErrNotJoined = errors.New("cluster: node has not joined")

// Ready reports whether the node is a member of its cluster (with
// Kubernetes: whether it has started and not left): ErrDropped once it
// found that the cluster dropped it.
func (n *Node) Ready() error {
	if n == nil {
		return ErrNotJoined
	}
	select {
	case <-n.watch.dropped:
		return ErrDropped
	default:
	}
	if n.stopped.Load() {
		return ErrNotJoined
	}
	if !n.selfListed {
		return nil
	}
	// By address, not ID: the etcd and Kubernetes providers name members
	// with IDs of their own rather than the actor system's.
	if slices.Contains(n.Addresses(), n.System.Address()) {
		return nil
	}
	return ErrNotJoined
}

// ErrMembership means this node's member list disagrees with the
// membership provider's: etcd no longer lists this node (its lease was
// lost), or lists a member this node does not see and has not blocked.
var ErrMembership = errors.New("cluster: membership disagrees with etcd")

// Membership answers nil while the members this node sees agree with what
// its provider lists (only the etcd provider is checked; the others answer
// nil). A member that this node blocked (protoactor drops a member it saw
// leave for good, by ID) is not held against it: that member must rejoin
// under a new ID, and this node cannot mend it. Members that etcd no
// longer lists but this node still sees are in their grace period
// (etcdGoneGrace), which the provider ends.
func (n *Node) Membership() error {
	if n == nil || n.etcd == nil {
		return nil
	}
	return compareMembership(n.etcd.view.Load(), n.Addresses(), n.Cluster.Remote.BlockList().IsBlocked)
}

// compareMembership is Membership's rule: v is what etcd lists (nil before
// the first list), seen the addresses this node sees, blocked whether this
// node blocked a member ID.
func compareMembership(v *etcdView, seen []string, blocked func(id string) bool) error {
	if v == nil {
		return nil // not listed yet: Ready says whether the node joined
	}
	if !v.selfListed {
		return fmt.Errorf("%w: etcd does not list this node (its lease was lost)", ErrMembership)
	}
	ids := slices.Sorted(maps.Keys(v.listed)) // the same member named each time
	for _, id := range ids {
		if addr := v.listed[id]; !slices.Contains(seen, addr) && !blocked(id) {
			return fmt.Errorf("%w: etcd lists %s (%s), which this node does not see", ErrMembership, addr, id)
		}
	}
	return nil
}

// Members is the number of members this node currently sees.
func (n *Node) Members() int { return len(n.Addresses()) }

// Addresses are the remoting addresses of the members this node currently
// sees (itself included once it has joined). Safe from any goroutine; the
// slice is shared and must not be modified.
func (n *Node) Addresses() []string { return n.members.addresses() }

// Stop leaves the cluster gracefully (Shutdown(true), ~2 s; docs/architecture.md §4.7).
// It is safe to call more than once.
func (n *Node) Stop() {
	if n == nil || !n.stopped.CompareAndSwap(false, true) {
		return
	}
	n.stopWatching()
	n.Cluster.Shutdown(true)
}
