package cluster

import (
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/keepalive"
)

// How remoting notices a connection that went silent (README, Network
// faults).
//
// On a network a peer that is cut off does not refuse: its packets vanish.
// With grpc's defaults a remoting connection then holds what it sent for as
// long as TCP retransmits it (its backoff grows past 10 s after 15 s of
// silence), and after the network heals the connection stays quiet until
// the next retransmission: likes kept failing 13–16 s after the heal. So:
//
//   - data left unacknowledged for liveTimeout ends the connection (grpc
//     sets TCP_USER_TIMEOUT to the keepalive timeout), and a connection that
//     received nothing for pingAfter is pinged and ended when the ping is not
//     answered within liveTimeout; protoactor then drops the endpoint and
//     dials afresh for the next message;
//   - a dial gives up after connectTimeout instead of riding TCP's SYN
//     backoff (a minute and more), and tries again at most connectBackoffMax
//     later, so a dial made during the fault succeeds soon after the heal.
//
// A paused peer's kernel still acknowledges what arrives until its buffers
// fill, and a busy one answers a ping within liveTimeout: neither ends a
// connection for a mere stall of a few seconds. Who is a member is the
// provider's and the membership check's business, never these timeouts'.
const (
	pingAfter         = 10 * time.Second // grpc's minimum for a client
	liveTimeout       = 5 * time.Second
	connectTimeout    = 3 * time.Second
	connectBackoffMax = 2 * time.Second
)

// liveServerOptions are the keepalive options of a remoting server: it
// pings an idle dialler, and lets diallers ping it as often as they do.
func liveServerOptions() []grpc.ServerOption {
	return []grpc.ServerOption{
		grpc.KeepaliveParams(keepalive.ServerParameters{Time: pingAfter, Timeout: liveTimeout}),
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: pingAfter / 2, PermitWithoutStream: true}),
	}
}

// liveDialOptions are the keepalive and connect options of a remoting
// dialler.
func liveDialOptions() []grpc.DialOption {
	return []grpc.DialOption{
		grpc.WithKeepaliveParams(keepalive.ClientParameters{Time: pingAfter, Timeout: liveTimeout, PermitWithoutStream: true}),
		grpc.WithConnectParams(grpc.ConnectParams{
			Backoff:           backoff.Config{BaseDelay: 250 * time.Millisecond, Multiplier: 1.6, Jitter: 0.2, MaxDelay: connectBackoffMax},
			MinConnectTimeout: connectTimeout,
		}),
	}
}

// remoting is the grpc configuration of a member's remoting: mutual TLS
// when t is set (tls.go), plaintext otherwise, with the liveness options
// above in both.
func remoting(t *TLS, g *guard) ([]grpc.ServerOption, []grpc.DialOption) {
	server, dial := []grpc.ServerOption(nil), []grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}
	if t != nil {
		server, dial = remotingOptions(t, g)
	}
	return append(server, liveServerOptions()...), append(dial, liveDialOptions()...)
}
