package cluster

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	protocluster "github.com/asynkron/protoactor-go/cluster"
	"github.com/asynkron/protoactor-go/remote"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"campus/testlog"
)

// makeCerts runs WriteCerts into a new directory and answers it.
func makeCerts(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if _, err := WriteCerts(dir, time.Now()); err != nil {
		t.Fatal(err)
	}
	return dir
}

func filesIn(dir string) TLSFiles {
	return TLSFiles{CA: filepath.Join(dir, CAFile), Cert: filepath.Join(dir, CertFile), Key: filepath.Join(dir, KeyFile)}
}

func loadTLS(t *testing.T, dir string) *TLS {
	t.Helper()
	c, err := LoadTLS(filesIn(dir), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// counterKind is a grain kind for these tests: a grain counts the "hit"
// messages it receives and answers "count" with "<hits>@<its node's
// address>". received counts every message any of the node's counter
// grains received.
func counterKind(received *atomic.Int64) *protocluster.Kind {
	return protocluster.NewKind("counter", actor.PropsFromProducer(func() actor.Actor {
		hits := 0
		return actor.ReceiveFunc(func(ctx actor.Context) {
			m, ok := ctx.Message().(*wrapperspb.StringValue)
			if !ok {
				return
			}
			received.Add(1)
			switch m.Value {
			case "hit":
				hits++
			case "count":
				ctx.Respond(wrapperspb.String(fmt.Sprintf("%d@%s", hits, ctx.ActorSystem().Address())))
			}
		})
	}))
}

// count asks grain id, through n, its count and where it lives.
func count(t *testing.T, n *Node, id string) string {
	t.Helper()
	res, err := n.Cluster.Request(id, "counter", wrapperspb.String("count"))
	if err != nil {
		t.Fatalf("count of %s through %s: %v", id, n.Address(), err)
	}
	return res.(*wrapperspb.StringValue).Value
}

// TestMutualTLSCluster runs three members in this process over a real etcd:
// A and B hold certificates of the cluster's CA, R one of another CA with
// the right name (a rogue that got itself registered in etcd). A grain call
// from A crosses to B; gossip carries A's state to B; R receives no message
// at all and learns nothing of the cluster by remoting, because A and B
// refuse it in both directions.
func TestMutualTLSCluster(t *testing.T) {
	endpoint, _ := startEtcd(t)
	clusterTLS := loadTLS(t, makeCerts(t))
	rogueTLS := loadTLS(t, makeCerts(t))
	type member struct {
		*Node
		received *atomic.Int64
	}
	start := func(c *TLS) member {
		received := new(atomic.Int64)
		n, err := Start(context.Background(), Options{Name: "tls-test", Addr: "127.0.0.1:0", Provider: ProviderEtcd,
			EtcdEndpoints: []string{endpoint}, Kinds: []*protocluster.Kind{counterKind(received)}, Log: testlog.New(t), TLS: c})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(n.Stop)
		return member{n, received}
	}
	a, b := start(clusterTLS), start(clusterTLS)
	waitFor(t, "A and B see each other", 30*time.Second, func() bool {
		return a.Ready() == nil && b.Ready() == nil && a.Members() == 2 && b.Members() == 2
	})

	t.Run("a grain call crosses from A to B", func(t *testing.T) {
		for i := range 50 {
			id := fmt.Sprintf("g%d", i)
			if got := count(t, a.Node, id); got == "0@"+b.Address() {
				return
			}
		}
		t.Fatal("none of 50 grains lives on B")
	})
	t.Run("gossip reaches B", func(t *testing.T) {
		waitFor(t, "A's topology in B's gossip state", 30*time.Second, func() bool {
			s, err := b.Cluster.Gossip.GetState(protocluster.TopologyKey)
			return err == nil && s[a.System.ID] != nil
		})
	})
	if n := a.RefusedConnections() + b.RefusedConnections(); n != 0 {
		t.Fatalf("members of one CA refused %d connections between them", n)
	}

	t.Run("a member of another CA gets nothing", func(t *testing.T) {
		r := start(rogueTLS)
		// R is registered: A and B list it, place grains on it and gossip
		// to it — and refuse its certificate each time they dial it.
		waitFor(t, "A and B list R and have tried to reach it", 30*time.Second, func() bool {
			return a.Members() == 3 && b.Members() == 3 && a.guard.out.Load() > 0 && b.guard.out.Load() > 0
		})
		// Grains of A and B answer; those disthash places on R do not
		// (A refuses R's certificate before it sends anything).
		answered, failed := 0, 0
		for i := range 20 {
			res, err := a.Cluster.Request(fmt.Sprintf("r%d", i), "counter", wrapperspb.String("count"),
				protocluster.WithRetryCount(1), protocluster.WithTimeout(time.Second))
			if err != nil {
				failed++
				continue
			}
			s := res.(*wrapperspb.StringValue).Value
			if s != "0@"+a.Address() && s != "0@"+b.Address() {
				t.Fatalf("grain r%d answered %s, not from A or B", i, s)
			}
			answered++
		}
		if answered == 0 || failed == 0 {
			t.Fatalf("%d grains answered, %d failed: want both (grains on A or B, and on R)", answered, failed)
		}
		// And R, dialling them, is refused by them.
		waitFor(t, "A or B refused R's dial", 30*time.Second, func() bool {
			return a.guard.in.Load()+b.guard.in.Load() > 0
		})
		if got := r.received.Load(); got != 0 {
			t.Fatalf("R's grains received %d messages", got)
		}
		s, err := r.Cluster.Gossip.GetState(protocluster.TopologyKey)
		if err != nil {
			t.Fatal(err)
		}
		for id := range s {
			if id != r.System.ID {
				t.Fatalf("R learned member %s's topology by gossip", id)
			}
		}
		if got := a.guard.in.Load() + a.guard.out.Load(); a.RefusedConnections() != got {
			t.Fatalf("RefusedConnections %d, want in + out = %d", a.RefusedConnections(), got)
		}
	})
}

// TestRogueRemotingClient dials a member's remoting port as an attacker
// would, with gRPC and protoactor's own wire messages: a connect request,
// then a message batch for a grain. Against a node without TLS that works
// (the control: the rogue learns the node's member ID and its message
// reaches the grain); against a node with mutual TLS every variant of rogue
// is refused at the handshake, learns nothing and delivers nothing.
func TestRogueRemotingClient(t *testing.T) {
	clusterDir := makeCerts(t)
	start := func(c *TLS) (*Node, *atomic.Int64) {
		received := new(atomic.Int64)
		n, err := Start(context.Background(), Options{Name: "rogue-test", Addr: "127.0.0.1:0",
			Kinds: []*protocluster.Kind{counterKind(received)}, Log: testlog.New(t), TLS: c})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(n.Stop)
		waitFor(t, "ready", 10*time.Second, func() bool { return n.Ready() == nil })
		return n, received
	}
	// grain activates grain "g" on n and answers its PID.
	grain := func(n *Node) *actor.PID {
		if got := count(t, n, "g"); got != "0@"+n.Address() {
			t.Fatalf("count %q", got)
		}
		pid := n.Cluster.Get("g", "counter")
		if pid == nil {
			t.Fatal("no PID for g")
		}
		return pid
	}

	t.Run("control: a node without TLS lets the rogue in", func(t *testing.T) {
		n, _ := start(nil)
		cr, err := rogueSend(n.Address(), insecure.NewCredentials(), grain(n))
		if err != nil {
			t.Fatal(err)
		}
		if cr.MemberId != n.System.ID {
			t.Fatalf("connect response names %q, want the member ID %q", cr.MemberId, n.System.ID)
		}
		waitFor(t, "the rogue's hit counted", 10*time.Second, func() bool { return count(t, n, "g") == "1@"+n.Address() })
	})

	n, received := start(loadTLS(t, clusterDir))
	pid := grain(n)
	before := received.Load()

	self := selfSigned(t)
	other := loadTLS(t, makeCerts(t)).cert
	wrongName := signedByClusterCA(t, clusterDir, "not-"+ServerName)
	// The rogue presents its certificate whatever CAs the node asks for (Go's
	// client would otherwise send none that the node's CA did not sign).
	rogueTLS := func(certs ...tls.Certificate) credentials.TransportCredentials {
		return credentials.NewTLS(&tls.Config{InsecureSkipVerify: true,
			GetClientCertificate: func(*tls.CertificateRequestInfo) (*tls.Certificate, error) {
				if len(certs) == 0 {
					return &tls.Certificate{}, nil
				}
				return &certs[0], nil
			}})
	}
	rogues := []struct {
		name  string
		creds credentials.TransportCredentials
	}{
		{"plaintext", insecure.NewCredentials()},
		{"TLS without a certificate", rogueTLS()},
		{"a self-signed certificate", rogueTLS(self)},
		{"a certificate of another cluster CA", rogueTLS(other)},
		{"a certificate of the cluster CA for another name", rogueTLS(wrongName)},
	}
	for _, r := range rogues {
		t.Run(r.name, func(t *testing.T) {
			refused := n.guard.in.Load()
			cr, err := rogueSend(n.Address(), r.creds, pid)
			if err == nil || cr != nil {
				t.Fatalf("the rogue got in: connect response %v, error %v", cr, err)
			}
			t.Logf("the rogue's error: %v", err)
			// The node counts after its alert went out, so the rogue may
			// hear of its refusal first.
			waitFor(t, "the node counts the refusal", 10*time.Second, func() bool { return n.guard.in.Load() > refused })
		})
	}
	// Nothing got past a handshake, so nothing can still be on its way.
	if got := count(t, n, "g"); got != "0@"+n.Address() {
		t.Fatalf("the grain counted a rogue's hit: %s", got)
	}
	if got := received.Load() - before; got != 1 { // the count just asked
		t.Fatalf("the grain received %d messages, want only the count asked", got)
	}
}

// rogueSend speaks protoactor's remoting protocol to addr as a stranger:
// it opens the Receive stream, sends a connect request and, once answered,
// a batch with one "hit" for target. It answers the node's connect
// response, or the error that stopped it first.
func rogueSend(addr string, creds credentials.TransportCredentials, target *actor.PID) (*remote.ConnectResponse, error) {
	conn, err := grpc.Dial(addr, grpc.WithTransportCredentials(creds))
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	stream, err := remote.NewRemotingClient(conn).Receive(ctx)
	if err != nil {
		return nil, err
	}
	err = stream.Send(&remote.RemoteMessage{MessageType: &remote.RemoteMessage_ConnectRequest{
		ConnectRequest: &remote.ConnectRequest{ConnectionType: &remote.ConnectRequest_ServerConnection{
			ServerConnection: &remote.ServerConnection{SystemId: "rogue", Address: "127.0.0.1:1"}}}}})
	if err != nil {
		return nil, err
	}
	msg, err := stream.Recv()
	if err != nil {
		return nil, err
	}
	cr := msg.GetConnectResponse()
	if cr == nil {
		return nil, fmt.Errorf("answer %v, not a connect response", msg)
	}
	data, typeName, err := remote.Serialize(wrapperspb.String("hit"), 0)
	if err != nil {
		return nil, err
	}
	err = stream.Send(&remote.RemoteMessage{MessageType: &remote.RemoteMessage_MessageBatch{MessageBatch: &remote.MessageBatch{
		TypeNames: []string{typeName},
		Targets:   []*actor.PID{target},
		Envelopes: []*remote.MessageEnvelope{{TypeId: 0, MessageData: data, Target: 0, SerializerId: 0}},
	}}})
	if err != nil {
		return nil, err
	}
	// The node ends the stream once it has read everything before the
	// close, the batch included.
	if err := stream.CloseSend(); err != nil {
		return nil, err
	}
	if _, err := stream.Recv(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("the node did not end the stream: %v", err)
	}
	return cr, nil
}

// selfSigned is a certificate that signs itself and names ServerName.
func selfSigned(t *testing.T) tls.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := nodeTemplate(ServerName)
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

// signedByClusterCA is a node certificate from dir's CA for name.
func signedByClusterCA(t *testing.T, dir, name string) tls.Certificate {
	t.Helper()
	ca, caKey, err := readCA(dir)
	if err != nil {
		t.Fatal(err)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.CreateCertificate(rand.Reader, nodeTemplate(name), ca, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

func nodeTemplate(name string) *x509.Certificate {
	return &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: name},
		DNSNames:     []string{name},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
	}
}

// writePEM writes der as a PEM block of type typ into a new file in dir.
func writePEM(t *testing.T, dir, name, typ string, der []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestWriteCerts(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "certs")
	now := time.Now()
	first, err := WriteCerts(dir, now)
	if err != nil {
		t.Fatal(err)
	}
	if !first.NewCA || !strings.HasPrefix(first.CAName, "Campus cluster CA ") {
		t.Fatalf("first run: %+v", first)
	}
	modes := map[string]os.FileMode{CAFile: 0o644, CAKeyFile: 0o600, CertFile: 0o644, KeyFile: 0o600}
	for name, want := range modes {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s mode %v, want %v", name, fi.Mode().Perm(), want)
		}
	}
	if fi, err := os.Stat(dir); err != nil {
		t.Fatal(err)
	} else if fi.Mode().Perm() != 0o700 {
		t.Errorf("dir mode %v, want 0700", fi.Mode().Perm())
	}
	c := loadTLS(t, dir)
	if d := c.NotAfter.Sub(now); d < CertValidity-time.Minute || d > CertValidity+time.Minute {
		t.Errorf("node certificate valid for %s, want %s", d, CertValidity)
	}

	// A second run keeps the CA and renews the node certificate: nodes
	// still holding the old one and nodes with the new one trust each other.
	caBefore, _ := os.ReadFile(filepath.Join(dir, CAFile))
	oldCert, _ := os.ReadFile(filepath.Join(dir, CertFile))
	second, err := WriteCerts(dir, now.Add(24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	caAfter, _ := os.ReadFile(filepath.Join(dir, CAFile))
	newCert, _ := os.ReadFile(filepath.Join(dir, CertFile))
	if second.NewCA || second.CAName != first.CAName || string(caAfter) != string(caBefore) {
		t.Fatalf("second run replaced the CA: %+v", second)
	}
	if string(newCert) == string(oldCert) || !second.NotAfter.After(first.NotAfter) {
		t.Fatal("second run did not renew the node certificate")
	}
	leftovers, _ := filepath.Glob(filepath.Join(dir, ".tmp-*"))
	if len(leftovers) != 0 {
		t.Fatalf("temporary files left: %v", leftovers)
	}

	t.Run("a CA without its key is refused", func(t *testing.T) {
		d := t.TempDir()
		if err := os.WriteFile(filepath.Join(d, CAFile), caBefore, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := WriteCerts(d, now); err == nil || !strings.Contains(err.Error(), CAKeyFile) {
			t.Fatalf("want an error naming %s, got %v", CAKeyFile, err)
		}
	})
}

func TestLoadTLSRejects(t *testing.T) {
	good := makeCerts(t)
	other := makeCerts(t)
	tmp := t.TempDir()
	ca, caKey, err := readCA(good)
	if err != nil {
		t.Fatal(err)
	}
	// sign writes a certificate from good's CA, edited by edit, with good's
	// node key.
	nodeKeyPEM, _ := os.ReadFile(filepath.Join(good, KeyFile))
	b, _ := pem.Decode(nodeKeyPEM)
	nodeKey, err := parseKey(b.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	sign := func(name string, edit func(*x509.Certificate)) string {
		tmpl := nodeTemplate(ServerName)
		edit(tmpl)
		der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, nodeKey.Public(), caKey)
		if err != nil {
			t.Fatal(err)
		}
		return writePEM(t, tmp, name, "CERTIFICATE", der)
	}
	expired := sign("expired.crt", func(c *x509.Certificate) {
		c.NotBefore, c.NotAfter = time.Now().Add(-48*time.Hour), time.Now().Add(-24*time.Hour)
	})
	noName := sign("noname.crt", func(c *x509.Certificate) { c.DNSNames = []string{"campus-node-1"} })
	serverOnly := sign("server.crt", func(c *x509.Certificate) { c.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth} })
	notCA := filepath.Join(good, CertFile) // a node certificate where the CA should be

	g := filesIn(good)
	tests := []struct {
		name string
		f    TLSFiles
		want string // in the error
	}{
		{"no CA file", TLSFiles{CA: filepath.Join(tmp, "none.pem"), Cert: g.Cert, Key: g.Key}, "none.pem"},
		{"CA file holds no certificate", TLSFiles{CA: g.Key, Cert: g.Cert, Key: g.Key}, "no PEM certificate"},
		{"CA file holds a node certificate", TLSFiles{CA: notCA, Cert: g.Cert, Key: g.Key}, "not a CA"},
		{"key of another certificate", TLSFiles{CA: g.CA, Cert: g.Cert, Key: filepath.Join(other, KeyFile)}, "does not match"},
		{"certificate of another CA", TLSFiles{CA: g.CA, Cert: filepath.Join(other, CertFile), Key: filepath.Join(other, KeyFile)}, "unknown authority"},
		{"expired", TLSFiles{CA: g.CA, Cert: expired, Key: g.Key}, "expired"},
		{"without the cluster name", TLSFiles{CA: g.CA, Cert: noName, Key: g.Key}, "valid for campus-node-1"},
		{"server authentication only", TLSFiles{CA: g.CA, Cert: serverOnly, Key: g.Key}, "key usage"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadTLS(tt.f, time.Now())
			if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("want one line mentioning %q, got %v", tt.want, err)
			}
		})
	}

	t.Run("a bundle of the old and the new CA trusts both", func(t *testing.T) {
		a, _ := os.ReadFile(filepath.Join(good, CAFile))
		o, _ := os.ReadFile(filepath.Join(other, CAFile))
		bundle := filepath.Join(tmp, "bundle.pem")
		if err := os.WriteFile(bundle, append(a, o...), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, d := range []string{good, other} {
			if _, err := LoadTLS(TLSFiles{CA: bundle, Cert: filepath.Join(d, CertFile), Key: filepath.Join(d, KeyFile)}, time.Now()); err != nil {
				t.Fatal(err)
			}
		}
	})
}
