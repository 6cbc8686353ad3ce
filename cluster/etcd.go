package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	protocluster "github.com/asynkron/protoactor-go/cluster"
	"github.com/asynkron/protoactor-go/eventstream"
	"github.com/asynkron/protoactor-go/remote"
	"github.com/rs/zerolog"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
)

// etcdBaseKey is the etcd key prefix under which members register
// (/campus/<cluster name>/<actor system id>).
const etcdBaseKey = "/campus"

const (
	// etcdDialTimeout bounds the first contact with etcd at start-up: a
	// node that cannot reach etcd fails instead of hanging.
	etcdDialTimeout = 5 * time.Second
	// defaultEtcdLease is how long a killed node stays listed unless
	// Options.EtcdLease says otherwise; the client keeps the lease alive
	// every third of it.
	defaultEtcdLease = 3 * time.Second
	// etcdRetry paces re-registration after etcd was unreachable.
	etcdRetry = 500 * time.Millisecond
)

// etcdProvider finds members through etcd. Each node puts its remoting
// address under a lease it keeps alive and watches the prefix, so a node
// joins by starting with the same endpoints, a stopped node deletes its key,
// and a killed node's key expires with its lease.
//
// It replaces protoactor's etcd provider (cluster/clusterproviders/etcd at
// our pinned version), which names members "<cluster>@<id>" instead of the
// actor system's ID that gossip and the block list key on (gossip treats
// every peer as an unknown member), blocks for ever when etcd is down at
// start, and drops its own node for good once
// etcd is unreachable for longer than the lease: it sees its own key
// expire and ignores its re-registration (upstream issue #1133) — one etcd
// hiccup would empty every node's member list.
type etcdProvider struct {
	client *clientv3.Client
	log    zerolog.Logger
	// leaseTTL is this node's lease, in seconds (etcd's unit).
	leaseTTL int64

	cluster *protocluster.Cluster
	prefix  string // <base>/<cluster name>/
	self    *protocluster.Member

	cancel context.CancelFunc
	done   chan struct{}
	once   sync.Once

	// recent are the members published last, with when each went missing
	// from etcd's list. Touched only by the run goroutine (publish).
	recent map[string]recentMember

	// Fast removal of a killed peer (see probeDead): remoting reports a
	// lost connection on suspects, a probe answers on probed, and dead holds
	// the members found dead, left out of the topology while their keys
	// live on. dead is touched only by the run goroutine.
	suspects chan string
	probed   chan probeResult
	dead     map[string]struct{}
	sub      *eventstream.Subscription

	// view is what etcd listed last (Node.Membership compares it with
	// the topology); nil until the first list.
	view atomic.Pointer[etcdView]
}

// etcdView is the members etcd lists, as of the latest list or change:
// the live ones (not leaving, not found dead) by ID, with their remoting
// addresses, and whether this node's own key is among them.
type etcdView struct {
	listed     map[string]string // member ID → address, this node excluded
	selfListed bool
}

// probeResult is what probing a suspect member's remoting address found.
// id is the member listed at the address when the probe started: a member
// that rejoins under a new ID on the same address (cluster.Node.Rejoin)
// listens there again, and a refusal seen before it did says nothing
// about it.
type probeResult struct {
	addr, id string
	dead     bool
}

// recentMember is a member as last listed, and since when its key has been
// missing (zero while it is listed).
type recentMember struct {
	m    *protocluster.Member
	gone time.Time
}

// etcdGoneGrace is how long a member whose key vanished stays published.
// protoactor blocks a member that left the topology for good (by ID), and
// after an etcd outage longer than the lease every key expires at once
// while the nodes register again within a second: without this grace a
// node that saw a peer's delete before its new put would never take that
// peer back. A node killed for real usually leaves much sooner: its peers
// see their connections to it break and probe it (probeDead); only when
// that proves nothing (its host gone, a partition) does it leave after its
// lease and this grace.
const etcdGoneGrace = 3 * time.Second

// etcdMember is what a node stores under its key.
type etcdMember struct {
	Host  string   `json:"host"`
	Port  int32    `json:"port"`
	Kinds []string `json:"kinds"`
	// Leaving is set by a node's Shutdown just before it deletes its key:
	// its peers drop it at once, with no grace.
	Leaving bool `json:"leaving,omitempty"`
}

// newEtcdProvider makes the provider over endpoints; lease is how long a
// node that stops keeping its key alive stays listed (0: defaultEtcdLease;
// rounded up to whole seconds).
func newEtcdProvider(endpoints []string, lease time.Duration, log zerolog.Logger) (protocluster.ClusterProvider, error) {
	if len(endpoints) == 0 {
		return nil, errors.New("cluster: the etcd provider needs at least one endpoint")
	}
	client, err := clientv3.New(clientv3.Config{
		Endpoints:   endpoints,
		DialTimeout: etcdDialTimeout,
		// The client's zap logs (reconnect chatter) stay out of our output;
		// failures surface in our own log lines and in Ready.
		Logger: zap.NewNop(),
	})
	if err != nil {
		return nil, fmt.Errorf("cluster: etcd client: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), etcdDialTimeout)
	defer cancel()
	if _, err := client.Get(ctx, etcdBaseKey, clientv3.WithCountOnly()); err != nil {
		client.Close()
		return nil, fmt.Errorf("cluster: etcd at %v: %w", endpoints, err)
	}
	if lease <= 0 {
		lease = defaultEtcdLease
	}
	ttl := int64((lease + time.Second - 1) / time.Second)
	return &etcdProvider{client: client, log: log.With().Str("component", "etcd").Logger(), leaseTTL: ttl}, nil
}

// StartMember registers this node and starts following the members.
func (p *etcdProvider) StartMember(c *protocluster.Cluster) error {
	host, portText, err := net.SplitHostPort(c.ActorSystem.Address())
	if err != nil {
		return fmt.Errorf("cluster: etcd: own address: %w", err)
	}
	port, err := strconv.Atoi(portText)
	if err != nil {
		return fmt.Errorf("cluster: etcd: own address: %w", err)
	}
	p.cluster = c
	p.prefix = etcdBaseKey + "/" + c.Config.Name + "/"
	p.self = &protocluster.Member{Id: c.ActorSystem.ID, Host: host, Port: int32(port), Kinds: c.GetClusterKinds()}

	p.suspects, p.probed, p.dead = make(chan string, 64), make(chan probeResult, 64), map[string]struct{}{}
	// Remoting publishes EndpointTerminatedEvent as soon as a connection to
	// a peer breaks: a killed process's sockets are closed by its kernel, so
	// its peers hear of it within milliseconds, long before its lease ends.
	p.sub = c.ActorSystem.EventStream.Subscribe(func(evt any) {
		if t, ok := evt.(*remote.EndpointTerminatedEvent); ok {
			select {
			case p.suspects <- t.Address:
			default: // a probe backlog: the lease still catches a dead peer
			}
		}
	})

	ctx, cancel := context.WithCancel(context.Background())
	p.cancel, p.done = cancel, make(chan struct{})
	// The first registration happens here, so Start returns a listed node.
	reg, err := p.register(ctx)
	if err != nil {
		cancel()
		p.cancel = nil // no run loop to wait for in Shutdown
		return err
	}
	go p.run(ctx, reg)
	return nil
}

// StartClient is not used: every campus node is a member.
func (p *etcdProvider) StartClient(*protocluster.Cluster) error {
	return errors.New("cluster: etcd provider: client mode is not supported")
}

// Shutdown marks this node's key as leaving and then deletes it, so the
// others drop it at once (a key that merely vanishes keeps its member for
// etcdGoneGrace), then closes the client.
func (p *etcdProvider) Shutdown(bool) error {
	p.once.Do(func() {
		if p.sub != nil {
			p.cluster.ActorSystem.EventStream.Unsubscribe(p.sub)
		}
		if p.cancel == nil {
			p.client.Close()
			return
		}
		p.cancel()
		<-p.done
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		key := p.prefix + p.self.Id
		leaving, err := p.value(true)
		if err == nil {
			_, err = p.client.Put(ctx, key, leaving, clientv3.WithIgnoreLease())
		}
		if err != nil {
			p.log.Warn().Err(err).Msg("etcd: mark leaving")
		}
		if _, err := p.client.Delete(ctx, key); err != nil {
			p.log.Warn().Err(err).Msg("etcd: deregister")
		}
		p.client.Close()
	})
	return nil
}

// value is what this node stores under its key; leaving marks its Shutdown.
func (p *etcdProvider) value(leaving bool) (string, error) {
	v, err := json.Marshal(etcdMember{Host: p.self.Host, Port: p.self.Port, Kinds: p.self.Kinds, Leaving: leaving})
	return string(v), err
}

// registration is one lease with this node's key on it.
type registration struct {
	lease     clientv3.LeaseID
	keepAlive <-chan *clientv3.LeaseKeepAliveResponse
}

// register grants a lease, puts this node's key on it and keeps it alive.
func (p *etcdProvider) register(ctx context.Context) (registration, error) {
	value, err := p.value(false)
	if err != nil {
		return registration{}, err
	}
	rctx, cancel := context.WithTimeout(ctx, etcdDialTimeout)
	defer cancel()
	lease, err := p.client.Grant(rctx, p.leaseTTL)
	if err != nil {
		return registration{}, fmt.Errorf("cluster: etcd: grant lease: %w", err)
	}
	if _, err := p.client.Put(rctx, p.prefix+p.self.Id, value, clientv3.WithLease(lease.ID)); err != nil {
		return registration{}, fmt.Errorf("cluster: etcd: register: %w", err)
	}
	ka, err := p.client.KeepAlive(ctx, lease.ID)
	if err != nil {
		return registration{}, fmt.Errorf("cluster: etcd: keep alive: %w", err)
	}
	return registration{lease: lease.ID, keepAlive: ka}, nil
}

// run follows the members until Shutdown: list them, watch for changes from
// that revision on, and start over (registering again if the lease was
// lost) whenever etcd goes away.
func (p *etcdProvider) run(ctx context.Context, reg registration) {
	defer close(p.done)
	for ctx.Err() == nil {
		if reg.keepAlive == nil {
			r, err := p.register(ctx)
			if err != nil {
				if ctx.Err() == nil {
					p.log.Warn().Err(err).Msg("etcd: cannot register, retrying")
				}
				sleep(ctx, etcdRetry)
				continue
			}
			reg = r
			p.log.Info().Msg("etcd: registered again")
		}
		if err := p.follow(ctx, reg); err != nil && ctx.Err() == nil {
			p.log.Warn().Err(err).Msg("etcd: lost the member list, starting over")
			if errors.Is(err, errLeaseLost) {
				reg.keepAlive = nil
			}
			sleep(ctx, etcdRetry)
		}
	}
}

// errLeaseLost means this node's lease expired or can no longer be kept
// alive: its key is gone or going, so it must register again.
var errLeaseLost = errors.New("lease keep-alive ended")

// follow publishes the member list and each change to it until the watch or
// the lease fails.
func (p *etcdProvider) follow(ctx context.Context, reg registration) error {
	gctx, cancel := context.WithTimeout(ctx, etcdDialTimeout)
	resp, err := p.client.Get(gctx, p.prefix, clientv3.WithPrefix())
	cancel()
	if err != nil {
		return fmt.Errorf("list members: %w", err)
	}
	members := map[string]*protocluster.Member{}
	for _, kv := range resp.Kvs {
		p.put(members, string(kv.Key), kv.Value)
	}
	p.publish(members)

	wctx, stop := context.WithCancel(clientv3.WithRequireLeader(ctx))
	defer stop()
	// Members in their grace period leave the list when it ends.
	regrace := time.NewTicker(etcdGoneGrace / 4)
	defer regrace.Stop()
	watch := p.client.Watch(wctx, p.prefix, clientv3.WithPrefix(), clientv3.WithRev(resp.Header.Revision+1))
	for {
		select {
		case <-ctx.Done():
			return nil
		case _, ok := <-reg.keepAlive:
			if !ok {
				return errLeaseLost
			}
		case <-regrace.C:
			if p.graceful(members) {
				p.publish(members)
			}
		case addr := <-p.suspects:
			if m := p.listed(members, addr); m != nil {
				id := m.Id
				go func() {
					r := probeResult{addr: addr, id: id, dead: probeDead(ctx, addr)}
					select {
					case p.probed <- r:
					case <-ctx.Done():
					}
				}()
			}
		case r := <-p.probed:
			if m := p.listed(members, r.addr); m != nil && m.Id == r.id && r.dead {
				p.log.Warn().Str("member", m.Id).Str("address", r.addr).
					Msg("etcd: peer's connection lost and its port refuses connections: dropped before its lease expires")
				p.dead[m.Id] = struct{}{}
				p.publish(members)
			}
		case w, ok := <-watch:
			if !ok {
				return errors.New("watch ended")
			}
			if err := w.Err(); err != nil {
				return fmt.Errorf("watch: %w", err)
			}
			for _, ev := range w.Events {
				switch ev.Type {
				case clientv3.EventTypePut:
					p.put(members, string(ev.Kv.Key), ev.Kv.Value)
				case clientv3.EventTypeDelete:
					delete(members, string(ev.Kv.Key))
				}
			}
			p.publish(members)
		}
	}
}

func (p *etcdProvider) put(members map[string]*protocluster.Member, key string, value []byte) {
	var m etcdMember
	if err := json.Unmarshal(value, &m); err != nil {
		p.log.Warn().Str("key", key).Err(err).Msg("etcd: unreadable member, ignored")
		return
	}
	id := key[len(p.prefix):]
	members[key] = &protocluster.Member{Id: id, Host: m.Host, Port: m.Port, Kinds: m.Kinds}
	if m.Leaving && id != p.self.Id {
		// Left out of the topology from now on, as a peer found dead is.
		p.dead[id] = struct{}{}
	}
}

// publish hands the members to protoactor: those listed in etcd, and those
// whose key vanished less than etcdGoneGrace ago. This node is always among
// them while it runs: an etcd outage must not make it drop itself.
func (p *etcdProvider) publish(members map[string]*protocluster.Member) {
	now := time.Now()
	if p.recent == nil {
		p.recent = map[string]recentMember{}
	}
	for id := range p.dead {
		if _, listed := members[p.prefix+id]; !listed {
			delete(p.dead, id) // its key is gone too: nothing left to leave out
		}
	}
	for _, m := range members {
		if _, dead := p.dead[m.Id]; dead {
			delete(p.recent, m.Id) // no grace: it is known to be gone
			continue
		}
		p.recent[m.Id] = recentMember{m: m}
	}
	list := make([]*protocluster.Member, 0, len(p.recent)+1)
	list = append(list, p.self)
	for id, r := range p.recent {
		// The grace runs from the first list the key is missing from, not
		// from the last list it was in: with no change for a while, that
		// one is old, and a peer would leave, and be blocked for good, at
		// its first missing list (after an etcd outage, between its old
		// key's expiry and its new put).
		if _, listed := members[p.prefix+id]; !listed {
			if r.gone.IsZero() {
				r.gone = now
				p.recent[id] = r
			}
			if now.Sub(r.gone) >= etcdGoneGrace {
				delete(p.recent, id)
				continue
			}
		}
		if id != p.self.Id {
			list = append(list, r.m)
		}
	}
	// The view is stored around the topology update so that a reader
	// never sees etcd list a member the topology has not taken yet, nor one
	// the topology has just dropped (found dead): first what both the old
	// and the new view list, then the new one.
	view := p.etcdView(members)
	if old := p.view.Load(); old != nil {
		both := &etcdView{listed: map[string]string{}, selfListed: view.selfListed && old.selfListed}
		for id, addr := range view.listed {
			if old.listed[id] == addr {
				both.listed[id] = addr
			}
		}
		p.view.Store(both)
	}
	p.cluster.MemberList.UpdateClusterTopology(list)
	p.view.Store(view)
}

// etcdView is what members (etcd's list) says: the live members besides
// this node, and whether this node is listed.
func (p *etcdProvider) etcdView(members map[string]*protocluster.Member) *etcdView {
	v := &etcdView{listed: make(map[string]string, len(members))}
	for _, m := range members {
		if m.Id == p.self.Id {
			v.selfListed = true
			continue
		}
		if _, dead := p.dead[m.Id]; !dead {
			v.listed[m.Id] = m.Address()
		}
	}
	return v
}

// graceful reports whether a published member is missing from members, so
// the list must be published again when its grace ends.
func (p *etcdProvider) graceful(members map[string]*protocluster.Member) bool {
	for id := range p.recent {
		if _, ok := members[p.prefix+id]; !ok {
			return true
		}
	}
	return false
}

// listed is the published member (not this node, not already dropped)
// whose remoting address is addr, or nil.
func (p *etcdProvider) listed(members map[string]*protocluster.Member, addr string) *protocluster.Member {
	for _, m := range members {
		if m.Address() != addr || m.Id == p.self.Id {
			continue
		}
		if _, dead := p.dead[m.Id]; dead {
			return nil
		}
		return m
	}
	return nil
}

// deadProbeTimeout bounds one probe of a suspect peer; deadProbes probes,
// deadProbeEvery apart, are made before a peer counts as alive.
const (
	deadProbeTimeout = 500 * time.Millisecond
	deadProbes       = 4
	deadProbeEvery   = 250 * time.Millisecond
)

// probeDead reports whether the peer at addr is certainly gone: a TCP
// connect to its remoting port is refused, i.e. its host answers and nothing
// listens there any more. The port belongs to the member for its lifetime
// (a new process there, or a new member of a process that rejoined, has a
// new member ID; the result names the member it was made for), so a
// refusal means this member is dead and may be dropped while its key still
// lives: a kill leaves the
// cluster in well under a second instead of the lease's 3 s plus the
// etcdGoneGrace. Anything else (a timeout, an unreachable host, a connect
// that succeeds) proves nothing: a paused process or a partition heals,
// and protoactor would block a member dropped in error for good; those
// cases keep the lease and the grace. A dying process's kernel may close
// the connections a moment before the listener, so a connect that succeeds
// is tried again a few times before the peer counts as alive.
func probeDead(ctx context.Context, addr string) bool {
	d := net.Dialer{Timeout: deadProbeTimeout}
	for i := range deadProbes {
		if i > 0 {
			sleep(ctx, deadProbeEvery)
		}
		conn, err := d.DialContext(ctx, "tcp", addr)
		if err == nil {
			conn.Close()
			continue
		}
		return errors.Is(err, syscall.ECONNREFUSED)
	}
	return false
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
