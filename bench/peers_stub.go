package main

import "context"

// peerTargets are the messages scenario's peers. Stub for building the
// Dendrite target alone; the scenario's branch defines it.
var peerTargets []func(ctx context.Context, b *bench) (msgTarget, error)
