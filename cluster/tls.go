package cluster

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"

	"campus/rawio"
)

// ServerName is the name every node certificate carries (a DNS subject
// alternative name) and every node checks in the certificate of the peer it
// dials and of the peer that dials it. Nodes dial each other by IP address,
// and those change (a pod's IP at every start), so the certificate names the
// cluster membership rather than a host: a node is anyone holding a
// certificate from the cluster's CA with this name. That makes the CA the
// whole trust decision: it must serve this cluster only.
const ServerName = "campus-cluster"

// TLSFiles names the PEM files of a node's remoting TLS.
type TLSFiles struct {
	// CA holds the cluster CA's certificate; several concatenated are all
	// trusted (while a new CA is rolled out).
	CA string
	// Cert is this node's certificate (intermediates may follow it); Key is
	// its private key.
	Cert, Key string
}

// TLS is a node's loaded remoting credentials: its certificate and the CAs
// it trusts. Build it with LoadTLS; a nil *TLS means plaintext remoting.
type TLS struct {
	cert tls.Certificate
	cas  *x509.CertPool
	// NotAfter is when this node's certificate expires.
	NotAfter time.Time
}

// LoadTLS reads and checks a node's TLS files: the CA file must hold CA
// certificates, the key must match the certificate, and the certificate
// must chain to one of the CAs, name ServerName, allow both server and
// client authentication and be valid at now. Every failure names the file.
func LoadTLS(f TLSFiles, now time.Time) (*TLS, error) {
	raw, err := os.ReadFile(f.CA)
	if err != nil {
		return nil, fmt.Errorf("cluster: TLS CA: %w", err)
	}
	cas, err := parseCAs(raw)
	if err != nil {
		return nil, fmt.Errorf("cluster: TLS CA %s: %w", f.CA, err)
	}
	cert, err := tls.LoadX509KeyPair(f.Cert, f.Key)
	if err != nil {
		return nil, fmt.Errorf("cluster: TLS certificate %s and key %s: %w", f.Cert, f.Key, err)
	}
	leaf := cert.Leaf
	if leaf == nil {
		if leaf, err = x509.ParseCertificate(cert.Certificate[0]); err != nil {
			return nil, fmt.Errorf("cluster: TLS certificate %s: %w", f.Cert, err)
		}
	}
	inter := x509.NewCertPool()
	for _, der := range cert.Certificate[1:] {
		c, err := x509.ParseCertificate(der)
		if err != nil {
			return nil, fmt.Errorf("cluster: TLS certificate %s: %w", f.Cert, err)
		}
		inter.AddCert(c)
	}
	for _, use := range []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth} {
		_, err := leaf.Verify(x509.VerifyOptions{Roots: cas, Intermediates: inter, DNSName: ServerName,
			CurrentTime: now, KeyUsages: []x509.ExtKeyUsage{use}})
		if err != nil {
			return nil, fmt.Errorf("cluster: TLS certificate %s (against the CA in %s; it must name %q and allow serverAuth and clientAuth): %w",
				f.Cert, f.CA, ServerName, err)
		}
	}
	return &TLS{cert: cert, cas: cas, NotAfter: leaf.NotAfter}, nil
}

// parseCAs reads every certificate of a PEM bundle; each must be a CA.
func parseCAs(raw []byte) (*x509.CertPool, error) {
	pool := x509.NewCertPool()
	n := 0
	for {
		var b *pem.Block
		b, raw = pem.Decode(raw)
		if b == nil {
			break
		}
		if b.Type != "CERTIFICATE" {
			continue
		}
		c, err := x509.ParseCertificate(b.Bytes)
		if err != nil {
			return nil, err
		}
		if !c.IsCA || !c.BasicConstraintsValid {
			return nil, fmt.Errorf("%q is not a CA certificate", c.Subject.CommonName)
		}
		pool.AddCert(c)
		n++
	}
	if n == 0 {
		return nil, errors.New("no PEM certificate in it")
	}
	return pool, nil
}

// serverConfig is the remoting server's side: TLS 1.3 only, and the client
// must present a certificate from the cluster CA that names ServerName
// (the CA check alone would admit any client certificate it ever signed).
func (t *TLS) serverConfig() *tls.Config {
	return &tls.Config{
		MinVersion:   tls.VersionTLS13,
		Certificates: []tls.Certificate{t.cert},
		ClientAuth:   tls.RequireAndVerifyClientCert,
		ClientCAs:    t.cas,
		VerifyConnection: func(cs tls.ConnectionState) error {
			if len(cs.PeerCertificates) == 0 {
				return errors.New("no client certificate")
			}
			return cs.PeerCertificates[0].VerifyHostname(ServerName)
		},
	}
}

// clientConfig is the dialling side: it presents this node's certificate
// and accepts only a server whose certificate chains to the cluster CA and
// names ServerName, whatever address it was dialled at.
func (t *TLS) clientConfig() *tls.Config {
	return &tls.Config{
		MinVersion:   tls.VersionTLS13,
		Certificates: []tls.Certificate{t.cert},
		RootCAs:      t.cas,
		ServerName:   ServerName,
	}
}

// handshakeTimeout bounds a remoting connection's TLS handshake, so a
// connection that never completes one does not hold a server goroutine for
// grpc's default two minutes.
const handshakeTimeout = 10 * time.Second

// remotingOptions are the grpc options of a node's remoting server and
// dialer with t; refused counts and logs the handshakes that fail.
func remotingOptions(t *TLS, g *guard) ([]grpc.ServerOption, []grpc.DialOption) {
	server := &countingCreds{TransportCredentials: credentials.NewTLS(t.serverConfig()), g: g}
	client := &countingCreds{TransportCredentials: credentials.NewTLS(t.clientConfig()), g: g}
	return []grpc.ServerOption{grpc.Creds(server), grpc.ConnectionTimeout(handshakeTimeout)},
		[]grpc.DialOption{grpc.WithTransportCredentials(client)}
}

// guard counts the remoting connections refused for want of a valid
// cluster certificate, and logs them (sampled: whoever knocks repeatedly
// must not flood the log).
type guard struct {
	// in counts the connections refused to peers that dialled this node,
	// out those this node dialled and refused.
	in, out atomic.Uint64
	log     zerolog.Logger
}

func newGuard(log zerolog.Logger) *guard {
	return &guard{log: log.Sample(&zerolog.BurstSampler{Burst: 5, Period: time.Minute})}
}

func (g *guard) refuse(direction, peer string, err error) {
	if direction == "incoming" {
		g.in.Add(1)
	} else {
		g.out.Add(1)
	}
	g.log.Warn().Err(err).Str("direction", direction).Str("peer", peer).
		Msg("cluster: refused a remoting connection: no valid cluster certificate")
}

// countingCreds are TLS transport credentials that report failed handshakes
// to a guard. Under TLS the connection reads and writes with raw system
// calls (rawio.Conn): every message between members is a write and a read,
// and through the scheduler's syscall path each woke the runtime's monitor
// thread after an idle moment; in a CPU profile of the cluster's steady
// phase that monitor was 16 % of the nodes' time, the thread handoffs
// beside it as much again.
type countingCreds struct {
	credentials.TransportCredentials
	g *guard
}

func (c *countingCreds) ServerHandshake(conn net.Conn) (net.Conn, credentials.AuthInfo, error) {
	conn = rawio.Conn(conn)
	out, info, err := c.TransportCredentials.ServerHandshake(conn)
	// A connection closed before it said anything is a port check (a TCP
	// probe, a scan), not someone who tried to talk.
	if err != nil && !errors.Is(err, io.EOF) {
		c.g.refuse("incoming", conn.RemoteAddr().String(), err)
	}
	return out, info, err
}

// ClientHandshake's authority is ServerName, the same for every peer, so
// the peer is logged by its address.
func (c *countingCreds) ClientHandshake(ctx context.Context, authority string, conn net.Conn) (net.Conn, credentials.AuthInfo, error) {
	conn = rawio.Conn(conn)
	out, info, err := c.TransportCredentials.ClientHandshake(ctx, authority, conn)
	// A member that shows no valid certificate gets nothing: not even the
	// first message, which gRPC sends only after the handshake.
	if err != nil && ctx.Err() == nil && !errors.Is(err, io.EOF) {
		c.g.refuse("outgoing", conn.RemoteAddr().String(), err)
	}
	return out, info, err
}

func (c *countingCreds) Clone() credentials.TransportCredentials {
	return &countingCreds{TransportCredentials: c.TransportCredentials.Clone(), g: c.g}
}
