package app

import (
	"context"
	"encoding/json"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"
	"github.com/uptrace/bun"

	"campus/persistence"
)

// The node's heartbeat: every few seconds a node reads its own figures and
// the shared database's, keeps them for its metrics, and writes them to its
// row of node_status, from which any node's system page shows every node.
// One table in the database the nodes already share was chosen over asking
// each member over the cluster: it needs no new message between nodes (a
// new cross-node message type must ship a release before it is sent), it
// shows a node that is cut off from its peers but not from the database,
// and a silent node shows as stale instead of vanishing.

const (
	// DefaultHeartbeat is how often a node writes its row.
	DefaultHeartbeat = 5 * time.Second
	// nodeStaleAfter is when the system page calls a silent node stale.
	nodeStaleAfter = 3 * DefaultHeartbeat
	// nodeForget is when a silent node's row is deleted (by any node).
	nodeForget = time.Hour
	// sampleTimeout bounds one heartbeat's reads and write.
	sampleTimeout = 4 * time.Second
)

// NodeProbes read this node's parts for the heartbeat; serve.go wires
// them. Each may be nil (the figure is left out).
type NodeProbes struct {
	// Members are the remoting addresses of the members this node sees.
	Members func() []string
	// Membership answers nil while this node's member list agrees with
	// the membership provider's, else why not.
	Membership func() error
	// Ready runs the readiness checks; nil when the node is ready.
	Ready func(ctx context.Context) error
	// Sockets counts the websockets open on this node.
	Sockets func() (int, error)
	// Queues are the live core's queue depths: batches waiting for the
	// node's writer, and grain requests accepted and not yet answered.
	Queues func() (writerQueue int, pending int64)
	// IndexApplied is the search outbox id up to which the index is done.
	IndexApplied func() int64
}

// NodeStatusOptions configure the heartbeat.
type NodeStatusOptions struct {
	DB  *bun.DB
	Log zerolog.Logger
	// Node names this node: its cluster address.
	Node     string
	Version  string
	HTTPAddr string
	Probes   NodeProbes
	// Interval is the heartbeat's period (default DefaultHeartbeat).
	Interval time.Duration
}

// PoolFigures are this node's database connection pool.
type PoolFigures struct {
	MaxOpen int `json:"maxOpen"`
	Open    int `json:"open"`
	InUse   int `json:"inUse"`
	Idle    int `json:"idle"`
	// WaitCount and WaitMs are the waits for a free connection so far,
	// and their total time.
	WaitCount int64 `json:"waitCount"`
	WaitMs    int64 `json:"waitMs"`
}

// NodeFigures are one node's own figures, as its heartbeat wrote them.
type NodeFigures struct {
	Hostname string `json:"hostname"`
	HTTPAddr string `json:"httpAddr"`
	// Members are the members this node sees (remoting addresses).
	Members []string `json:"members"`
	// Membership is "ok" while the node's member list agrees with the
	// membership provider's, else why not.
	Membership string `json:"membership"`
	// Ready is "ok", or why the node is not ready.
	Ready       string `json:"ready"`
	Sockets     int    `json:"sockets"`
	WriterQueue int    `json:"writerQueue"`
	// PendingRequests are grain requests accepted and not yet answered.
	PendingRequests int64 `json:"pendingRequests"`
	// IndexApplied, IndexLag and IndexLagMs: how far the node's search
	// index has followed the outbox, in entries and in time.
	IndexApplied int64       `json:"indexApplied"`
	IndexLag     int64       `json:"indexLag"`
	IndexLagMs   int64       `json:"indexLagMs"`
	Pool         PoolFigures `json:"pool"`
	Goroutines   int         `json:"goroutines"`
}

// NodeSample is one heartbeat's reading.
type NodeSample struct {
	Figures  NodeFigures
	Database persistence.DatabaseFigures
	// DatabaseOK is false when the database's figures could not be read
	// (Database holds the last ones read).
	DatabaseOK bool
	At         time.Time
}

// NodeStatus is the node's heartbeat; Start runs it, Last reads it.
type NodeStatus struct {
	o       NodeStatusOptions
	started time.Time
	host    string
	last    atomic.Pointer[NodeSample]

	cancel context.CancelFunc
	done   chan struct{}
	once   sync.Once
}

// NewNodeStatus makes the heartbeat; nothing runs until Start.
func NewNodeStatus(o NodeStatusOptions) *NodeStatus {
	if o.Interval <= 0 {
		o.Interval = DefaultHeartbeat
	}
	host, _ := os.Hostname() // empty when unknown: only shown
	s := &NodeStatus{o: o, started: time.Now(), host: host}
	s.last.Store(&NodeSample{})
	return s
}

// Start takes the first reading now and then one every interval until Stop.
func (s *NodeStatus) Start() {
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel, s.done = cancel, make(chan struct{})
	go s.run(ctx)
}

// Stop ends the heartbeat and deletes this node's row (and rows silent
// for an hour), so a cleanly stopped node leaves the system page at once.
func (s *NodeStatus) Stop(ctx context.Context) {
	s.once.Do(func() {
		if s.cancel == nil {
			return
		}
		s.cancel()
		<-s.done
		if err := persistence.DeleteNodeStatus(ctx, s.o.DB, s.o.Node, nodeForget); err != nil {
			s.o.Log.Warn().Err(err).Msg("node status: delete own row")
		}
	})
}

// Last is the latest reading (zero before the first).
func (s *NodeStatus) Last() NodeSample { return *s.last.Load() }

func (s *NodeStatus) run(ctx context.Context) {
	defer close(s.done)
	t := time.NewTicker(s.o.Interval)
	defer t.Stop()
	failing := false
	for {
		err := s.beat(ctx)
		switch {
		case err != nil && ctx.Err() == nil && !failing:
			// Once per outage: the database being away is logged elsewhere.
			s.o.Log.Warn().Err(err).Msg("node status: heartbeat not written; retrying")
			failing = true
		case err == nil && failing:
			s.o.Log.Info().Msg("node status: heartbeat written again")
			failing = false
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// beat reads the figures, keeps them and writes this node's row.
func (s *NodeStatus) beat(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, sampleTimeout)
	defer cancel()
	prev := s.Last()
	sample := NodeSample{Figures: s.figures(ctx), At: time.Now(), Database: prev.Database}
	db, dbErr := persistence.ReadDatabaseFigures(ctx, s.o.DB)
	if dbErr == nil {
		sample.Database, sample.DatabaseOK = db, true
		f := &sample.Figures
		f.IndexLag = max(db.SearchOutboxMax-f.IndexApplied, 0)
		if f.IndexLag > 0 {
			if age, err := persistence.SearchOutboxAgeAfter(ctx, s.o.DB, f.IndexApplied); err == nil {
				f.IndexLagMs = age.Milliseconds()
			}
		}
	}
	s.last.Store(&sample)
	if dbErr != nil {
		return dbErr
	}
	b, err := json.Marshal(sample.Figures)
	if err != nil {
		return err
	}
	return persistence.UpsertNodeStatus(ctx, s.o.DB, &persistence.NodeStatus{Node: s.o.Node, Version: s.o.Version,
		StartedAt: s.started, Figures: b})
}

// figures reads this node's own parts.
func (s *NodeStatus) figures(ctx context.Context) NodeFigures {
	p := s.o.Probes
	f := NodeFigures{Hostname: s.host, HTTPAddr: s.o.HTTPAddr, Members: []string{}, Membership: "ok", Ready: "ok",
		Goroutines: runtime.NumGoroutine()}
	if p.Members != nil {
		f.Members = append(f.Members, p.Members()...)
	}
	if p.Membership != nil {
		if err := p.Membership(); err != nil {
			f.Membership = err.Error()
		}
	}
	if p.Ready != nil {
		if err := p.Ready(ctx); err != nil {
			f.Ready = err.Error()
		}
	}
	if p.Sockets != nil {
		if n, err := p.Sockets(); err == nil {
			f.Sockets = n
		}
	}
	if p.Queues != nil {
		f.WriterQueue, f.PendingRequests = p.Queues()
	}
	if p.IndexApplied != nil {
		f.IndexApplied = p.IndexApplied()
	}
	st := s.o.DB.Stats()
	f.Pool = PoolFigures{MaxOpen: st.MaxOpenConnections, Open: st.OpenConnections, InUse: st.InUse, Idle: st.Idle,
		WaitCount: st.WaitCount, WaitMs: st.WaitDuration.Milliseconds()}
	return f
}
