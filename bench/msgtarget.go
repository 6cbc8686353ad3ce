package main

import (
	"context"
	"time"
)

// msgTarget is a messaging server the messages scenario drives through one
// load generator: Campus itself, or a peer (Dendrite) built by the bench.
// People and conversations are indices so that the same workload, the same
// random draws and the same consistency check run against every target.
//
// Conversation c < len(direct) is direct[c]; c >= len(direct) is
// groups[c-len(direct)].
type msgTarget interface {
	// name is the target's name in the report ("Campus", "Dendrite v0.13.8").
	name() string
	// setup makes the people (0..people-1) and the conversations, each
	// person able to send in each conversation they are in. Not timed.
	setup(ctx context.Context, people int, direct [][2]int, groups [][]int) error
	// listen opens person p's live connection (a websocket, a /sync loop)
	// and calls deliver for every message that reaches it, in the order it
	// arrives, from one goroutine per person. It returns once the
	// connection is open and keeps delivering until ctx ends.
	listen(ctx context.Context, p int, deliver func(msgDelivery)) error
	// send sends body from person p into conversation c under clientID
	// (a retry with the same clientID must join the original) and returns
	// once the server acknowledged it.
	send(ctx context.Context, p, c int, clientID, body string) (msgAck, error)
	// stored lists conversation c's stored messages in the server's order,
	// for the consistency check. Not timed.
	stored(ctx context.Context, c int) ([]msgStored, error)
	// close stops whatever the target started.
	close()
}

// msgDelivery is one message arriving on a person's live connection.
type msgDelivery struct {
	conv     int
	clientID string
	seq      int64 // the server's order key where it has one (Campus: the gapless seq), else 0
	at       time.Time
}

// msgAck is a server's acknowledgement of one send.
type msgAck struct {
	seq int64 // as msgDelivery.seq
	at  time.Time
}

// msgStored is one message as the server stores it.
type msgStored struct {
	clientID string
	seq      int64
}
