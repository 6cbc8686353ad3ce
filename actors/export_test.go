package actors

import (
	"context"

	"github.com/asynkron/protoactor-go/cluster"
)

// WriterQueued is how many post batches wait for the node's writer (tests
// use it to know that batches of several posts will share a transaction).
// Read through Stats, so those tests hold its WriterQueue (the metrics'
// and the system page's queue depth) to the writer's queue.
func (l *Live) WriterQueued() int { return l.Stats().WriterQueue }

// Pending is how many post grain requests the node accepted and has not
// answered yet (Stats' Pending).
func (l *Live) Pending() int64 { return l.Stats().Pending }

// MayWrite answers whether the post grains of the member c may write now.
func (l *Live) MayWrite(ctx context.Context, c *cluster.Cluster) error { return l.mayWrite(ctx, c) }

// DropPushes makes this node's conversation grains answer their senders
// and push nothing, as a node killed between the answer and the push.
func (l *Live) DropPushes(drop bool) { l.dropPushes.Store(drop) }

// Repairing is how many repairs after lost members run on this node.
func (l *Live) Repairing() int64 { return l.repairing.Load() }
