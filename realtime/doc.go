// Package realtime is the websocket end to end (DESIGN §4.3, §6): the
// connection detached from the HTTP server, the reader, the writer with its
// bounded send queue, the session actor that owns a socket's state, the
// client frames (watch, unwatch, test) and the wire encoding of the server's
// frames. httpapi keeps the route and the handshake (upgrade, token check)
// and hands the upgraded connection to Sockets.Serve; the node's hub
// (package actors) delivers live events to the session actors.
//
// Concurrency rules, per type:
//   - Sockets: safe for concurrent use once built.
//   - session (one actor per socket): its fields are touched only inside
//     Receive. Two goroutines work for it and talk to it by messages: the
//     reader (owns reading and the read deadline) and, while a batch is
//     being written, one writer goroutine that owns that batch. The only
//     state they share is the closing flag (atomic) and the connection's
//     deadlines, which are safe to set from any goroutine.
package realtime
