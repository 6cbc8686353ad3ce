// Package realtime is the websocket end to end (docs/architecture.md §4.3, docs/protocol.md §2): the
// connection detached from the HTTP server, the reader, the writer with its
// bounded send queue, the session actor that owns a socket's state, the
// client frames (watch, unwatch, test, resume) and the wire encoding of the server's
// frames. httpapi keeps the route and the handshake (upgrade, token check)
// and hands the upgraded connection to Sockets.Serve; the node's hub
// (package actors) delivers live events to the session actors.
//
// Concurrency rules, per type:
//   - Sockets: safe for concurrent use once built.
//   - session (one actor per socket): its fields are touched only inside
//     Receive, which runs on the sender's goroutine and never blocks: it
//     reads a readable socket (reported by the node's epoll poller) and
//     writes without waiting. Goroutines work for it only while needed and
//     talk to it by messages: a writer that owns the bytes the kernel did
//     not take at once, a token re-check, a resume's replay query; and,
//     where there is no poller, a reader per socket. The only state shared with those is the closing
//     flag (atomic) and the connection's deadlines, safe from any goroutine.
//   - poller: safe for concurrent use; one goroutine for the process.
package realtime
