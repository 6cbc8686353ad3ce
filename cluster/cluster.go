// Package cluster boots the Proto.Actor actor system as a member of a cluster
// (DESIGN §4.4): a cluster of one by default, the automanaged provider when
// CAMPUS_CLUSTER_HOSTS lists the nodes, disthash identity lookup either way.
package cluster

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	protocluster "github.com/asynkron/protoactor-go/cluster"
	"github.com/asynkron/protoactor-go/cluster/clusterproviders/automanaged"
	"github.com/asynkron/protoactor-go/cluster/clusterproviders/test"
	"github.com/asynkron/protoactor-go/cluster/identitylookup/disthash"
	"github.com/asynkron/protoactor-go/remote"
	"github.com/rs/zerolog"
)

// Options configure a node's membership.
type Options struct {
	// Name is the cluster name; nodes only see members with the same name.
	Name string
	// Addr is this node's remoting address host:port; port 0 picks a free one.
	Addr string
	// Hosts lists every node's automanaged address (host:managePort); empty
	// runs a cluster of one with an in-process provider.
	Hosts []string
	// ManagePort is the automanaged provider's HTTP port on this node.
	ManagePort int
	// Kinds are the grain kinds this node hosts.
	Kinds []*protocluster.Kind
	// RequestTimeout bounds one grain call (DESIGN §4.4: ~1 s).
	RequestTimeout time.Duration
	// Log receives protoactor's own logs (at warn and above by default).
	Log zerolog.Logger
}

// Node is a running actor system that has joined the cluster.
type Node struct {
	System  *actor.ActorSystem
	Cluster *protocluster.Cluster
	log     zerolog.Logger
	stopped bool
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

	plog := o.Log.With().Str("component", "protoactor").Logger()
	if plog.GetLevel() < zerolog.WarnLevel {
		plog = plog.Level(zerolog.WarnLevel)
	}
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger {
		return slog.New(zerolog.NewSlogHandler(plog))
	}))

	var provider protocluster.ClusterProvider
	if len(o.Hosts) == 0 {
		// A cluster of one: the in-memory agent keeps membership inside this
		// process, so two nodes on one machine (tests, bench) never collide
		// on a management port.
		provider = test.NewTestProvider(test.NewInMemAgent())
	} else {
		provider = automanaged.NewWithConfig(500*time.Millisecond, o.ManagePort, o.Hosts...)
	}

	cfg := protocluster.Configure(o.Name, provider, disthash.New(),
		remote.Configure(host, port),
		protocluster.WithKinds(o.Kinds...),
		protocluster.WithRequestTimeout(o.RequestTimeout),
	)
	c := protocluster.New(system, cfg)

	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("cluster: start member: %v", r)
			system.Shutdown()
		}
	}()
	c.StartMember()
	if err := ctx.Err(); err != nil {
		c.Shutdown(false)
		return nil, fmt.Errorf("cluster: start: %w", err)
	}
	return &Node{System: system, Cluster: c, log: o.Log}, nil
}

// Address is this node's remoting address (host:port).
func (n *Node) Address() string { return n.System.Address() }

// ErrNotJoined means the node does not (yet) see itself as a cluster member.
var ErrNotJoined = errors.New("cluster: node has not joined")

// Ready reports whether the node is a member of its cluster.
func (n *Node) Ready() error {
	if n == nil || n.stopped {
		return ErrNotJoined
	}
	if !n.Cluster.MemberList.ContainsMemberID(n.System.ID) {
		return ErrNotJoined
	}
	return nil
}

// Members is the number of members this node currently sees.
func (n *Node) Members() int { return n.Cluster.MemberList.Members().Len() }

// Stop leaves the cluster gracefully (DESIGN §4.4: Shutdown(true), ~2 s).
// It is safe to call more than once.
func (n *Node) Stop() {
	if n == nil || n.stopped {
		return
	}
	n.stopped = true
	n.Cluster.Shutdown(true)
}
