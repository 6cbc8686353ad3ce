package actors

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/cluster"
	"github.com/uptrace/bun"

	"campus/persistence"
)

// writer is the node-wide committer of the post grains' (and the
// conversation grains') batches (docs/architecture.md
// §4.5, shared commits across posts): every grain hands it its ready batch,
// and it writes the batches handed in meanwhile, of many posts, in one
// transaction. At a campus event hundreds of posts are warm at once; one
// transaction each paid a commit (a WAL flush) per post per round, the naive
// design one level up.
//
// Each grain still has at most one batch in flight, so the order of one
// post's requests is the grain's; the writer only decides which batches
// share a commit. A batch's result goes back through its done func once the
// transaction holding it committed or failed.
//
// Up to parallel transactions run at once, each taking everything queued
// (up to the per-transaction caps), first come first served. Goroutines are
// started as work arrives and end when the queue is empty, so an idle node
// runs none.
type writer struct {
	db       bun.IDB
	timeout  time.Duration
	parallel int
	// maxPosts and maxOps cap one transaction: a transaction that grew
	// without bound would hold its rows' locks, and its callers' answers,
	// for as long as it takes to write everything queued.
	maxPosts, maxOps int

	mu      sync.Mutex
	queue   []*writeJob
	running int

	// txs counts the transactions run.
	txs atomic.Int64

	// confirm answers whether the grains of a cluster member may write
	// now (Live.mayWrite); nil lets every job write. Asked before each
	// transaction, once per member among its jobs.
	confirm func(context.Context, *cluster.Cluster) error
}

// writeJob is one grain's batch and how its result gets back to the grain:
// a post grain's (batch, done) or a conversation grain's (messages,
// messagesDone).
type writeJob struct {
	batch persistence.PostBatch
	done  func(persistence.PostBatchResult, error)
	// messages, when set, is a conversation grain's sends instead.
	messages     *persistence.MessageBatch
	messagesDone func(persistence.MessageBatchResult, error)
	// member is the cluster member the grain runs in.
	member *cluster.Cluster
}

// fail answers the job's grain that its batch was not written.
func (j *writeJob) fail(err error) {
	if j.messages != nil {
		j.messagesDone(persistence.MessageBatchResult{}, err)
		return
	}
	j.done(persistence.PostBatchResult{}, err)
}

// errFenced fails the batches of a member that may not write: the cluster
// dropped it, a rejoin replaced it, or after a stall its membership could
// not be confirmed in time. Nothing of them was written; the requests are
// answered "unavailable, retry".
var errFenced = errors.New("actors: this member may not write now")

func (j *writeJob) size() int {
	if j.messages != nil {
		return len(j.messages.Sends)
	}
	return len(j.batch.Likes) + len(j.batch.Comments) + len(j.batch.Removals)
}

func newWriter(db bun.IDB, timeout time.Duration, parallel, maxPosts, maxOps int) *writer {
	return &writer{db: db, timeout: timeout, parallel: parallel, maxPosts: maxPosts, maxOps: maxOps}
}

// queued is how many batches wait for a transaction.
func (w *writer) queued() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.queue)
}

// submit queues j for the next transaction. It never blocks: the grains
// bound what they hand in (Config.MaxQueue, MaxPending).
func (w *writer) submit(j *writeJob) {
	w.mu.Lock()
	w.queue = append(w.queue, j)
	start := w.running < w.parallel
	if start {
		w.running++
	}
	w.mu.Unlock()
	if start {
		go w.run()
	}
}

// run writes transactions until the queue is empty.
func (w *writer) run() {
	for {
		jobs := w.take()
		if jobs == nil {
			return
		}
		w.commit(jobs)
	}
}

// take removes the next transaction's jobs from the queue, oldest first,
// or ends this goroutine's turn (nil) when there are none.
func (w *writer) take() []*writeJob {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.queue) == 0 {
		w.running--
		return nil
	}
	n, ops := 0, 0
	for n < len(w.queue) && n < w.maxPosts {
		s := w.queue[n].size()
		if n > 0 && ops+s > w.maxOps {
			break
		}
		ops += s
		n++
	}
	jobs := w.queue[:n:n]
	w.queue = append([]*writeJob(nil), w.queue[n:]...)
	return jobs
}

func (w *writer) commit(jobs []*writeJob) {
	ctx, cancel := context.WithTimeout(context.Background(), w.timeout)
	defer cancel()
	if jobs = w.fence(ctx, jobs); len(jobs) == 0 {
		return
	}
	// Posts' batches share one transaction, conversations' another: the
	// two write different tables and lock different rows.
	var posts, convs []*writeJob
	for _, j := range jobs {
		if j.messages != nil {
			convs = append(convs, j)
		} else {
			posts = append(posts, j)
		}
	}
	if len(posts) > 0 {
		bs := make([]persistence.PostBatch, len(posts))
		for i, j := range posts {
			bs[i] = j.batch
		}
		res, errs := persistence.ApplyPostBatches(ctx, w.db, bs)
		w.txs.Add(1)
		for i, j := range posts {
			j.done(res[i], errs[i])
		}
	}
	if len(convs) > 0 {
		bs := make([]persistence.MessageBatch, len(convs))
		for i, j := range convs {
			bs[i] = *j.messages
		}
		res, errs := persistence.ApplyMessageBatches(ctx, w.db, bs)
		w.txs.Add(1)
		for i, j := range convs {
			j.messagesDone(res[i], errs[i])
		}
	}
}

// fence fails the jobs whose member may not write now (confirm) and answers
// the others. It runs right before the transaction: a process stopped with
// batches queued (or requests in its sockets' buffers) resumes with them,
// and must not commit them before it knows its grains are still its own.
func (w *writer) fence(ctx context.Context, jobs []*writeJob) []*writeJob {
	if w.confirm == nil {
		return jobs
	}
	verdicts := make(map[*cluster.Cluster]error, 1)
	ok := jobs[:0:0]
	for _, j := range jobs {
		err, seen := verdicts[j.member]
		if !seen {
			err = w.confirm(ctx, j.member)
			verdicts[j.member] = err
		}
		if err != nil {
			j.fail(fmt.Errorf("%w: %w", errFenced, err))
			continue
		}
		ok = append(ok, j)
	}
	return ok
}
