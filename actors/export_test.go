package actors

// WriterQueued is how many post batches wait for the node's writer (tests
// use it to know that batches of several posts will share a transaction).
func (l *Live) WriterQueued() int {
	l.writer.mu.Lock()
	defer l.writer.mu.Unlock()
	return len(l.writer.queue)
}

// Pending is how many post grain requests the node accepted and has not
// answered yet.
func (l *Live) Pending() int64 { return l.pending.Load() }
