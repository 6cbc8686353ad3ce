// Package realtime is the websocket end to end (docs/architecture.md §4.3, docs/protocol.md §2): the
// connection detached from the HTTP server, the reader, the writer with its
// bounded send queue, the session actor that owns a socket's state, the
// client frames (watch, unwatch, test, resume) and the wire encoding of the server's
// frames. httpapi keeps the route and the handshake (upgrade, token check)
// and hands the upgraded connection to Sockets.Serve. The node's hub
// (hub.go) is here too: it gets every node's live events (actors.Live
// broadcasts them to each member's hub by name) and delivers them to the
// session actors. Event names and frame encoding are package protocol.
//
// Concurrency rules, per type:
//   - Sockets and Hub: safe for concurrent use once built; Hub only sends
//     messages to the hub actor.
//   - hubActor: its fields are touched only inside Receive; a block's post
//     lookup runs off it and reports back with a message.
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
