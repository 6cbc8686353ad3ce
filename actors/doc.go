// Package actors is the live state of a node (docs/architecture.md §4): the post grain,
// the user grain, the node-wide writer and count batcher, the Live client
// the app calls them through, and the protobuf messages they exchange with
// each other and with every node's hub. The hub and the websocket sessions
// it delivers to are package realtime; the frames' names and encoding are
// package protocol.
//
// Grains are caches and serializers, never the truth: every write they make
// is correct even if a twin activation of the same grain runs beside it
// (rows are inserted with ON CONFLICT DO NOTHING, counters move by the rows
// actually inserted or deleted, and callers see the counts Postgres
// returned). Live events reach every node's hub by a cluster broadcast and
// each hub delivers to its local sockets, so no grain keeps socket lists.
//
// Concurrency rules, per type:
//   - postGrain, userGrain: their fields are touched only inside Receive,
//     which protoactor runs on one goroutine at a time. Database writes run
//     in a goroutine that owns a copy of the batch and reports back with a
//     message to the actor itself.
//   - Live: safe for concurrent use once Start has returned; it only sends
//     messages (its count batcher and writer have mutexes of their own).
package actors
