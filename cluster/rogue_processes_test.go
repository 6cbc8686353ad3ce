package cluster_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	protocluster "github.com/asynkron/protoactor-go/cluster"
	"github.com/google/uuid"

	"campus/actors"
	"campus/cluster"
	"campus/cluster/clustertest"
	"campus/persistence/testdb"
	"campus/testlog"
)

// TestRogueMember runs two real `campus serve` nodes found through etcd,
// remoting over mutual TLS, and a rogue that has read the cluster's CA
// certificate (it is not secret) and reached etcd, but holds only a
// self-signed certificate naming the cluster. The rogue registers as a
// member and sends a like to a post's grain the way a node would: the
// nodes refuse its certificate, the like count does not move, and the
// rogue learns no topology. The same request from a member holding the
// cluster's certificate (the control) does get the like in.
func TestRogueMember(t *testing.T) {
	endpoint := cluster.StartEtcd(t)
	bin := buildCampus(t)
	dbURL := testdb.NewURL(t)
	db := openDB(t, dbURL)
	a := startNode(t, bin, 0, dbURL, "CAMPUS_CLUSTER_PROVIDER=etcd", "CAMPUS_ETCD_ENDPOINTS="+endpoint)
	b := startNode(t, bin, 1, dbURL, "CAMPUS_CLUSTER_PROVIDER=etcd", "CAMPUS_ETCD_ENDPOINTS="+endpoint)
	a.waitMembers(t, 2, 60*time.Second)
	b.waitMembers(t, 2, 60*time.Second)

	newUser, login := userMaker(t, db)
	author := newUser("Rogue Target")
	status, env := a.call(t, "POST", "/api/posts", login(a, author), map[string]any{"content": "like me", "visibility": "public"})
	if status != 201 {
		t.Fatalf("create post: %d %v", status, env)
	}
	post := data(env)["post"].(map[string]any)["id"].(string)
	liker := newUser("Rogue Liker")
	likes := func() (count, rows int) {
		t.Helper()
		if err := db.QueryRowContext(context.Background(),
			`SELECT likes_count, (SELECT count(*) FROM post_likes WHERE post_id = p.id) FROM posts p WHERE id = ?`,
			post).Scan(&count, &rows); err != nil {
			t.Fatal(err)
		}
		return count, rows
	}

	// The cluster's files as every node has them, and the rogue's: the
	// cluster CA beside its own self-signed certificate (so that it
	// trusts the nodes and shows them its own).
	clusterDir := t.TempDir()
	clusterFiles := tlsFiles(clustertest.TLSEnv(t, clusterDir))
	rogueFiles := selfSignedFiles(t, clusterFiles.CA)

	// member joins the cluster in this process with files and sends one
	// like for liker to the post's grain, as a node's like call would.
	member := func(t *testing.T, files cluster.TLSFiles) (*cluster.Node, error) {
		t.Helper()
		c, err := cluster.LoadTLS(files, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		n, err := cluster.Start(context.Background(), cluster.Options{Addr: "127.0.0.1:0", Provider: cluster.ProviderEtcd,
			EtcdEndpoints: []string{endpoint}, Log: testlog.New(t), TLS: c})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(n.Stop)
		a.waitMembers(t, 3, 30*time.Second) // etcd lists it: the nodes take it for one of them
		_, err = n.Cluster.Request(post, actors.PostKind,
			&actors.LikeRequest{UserId: liker.ID.String(), Op: actors.LikeOp_LIKE_OP_LIKE, RequestId: uuid.NewString()},
			protocluster.WithTimeout(3*time.Second), protocluster.WithRetryCount(2))
		return n, err
	}

	t.Run("a self-signed member gets nothing in and learns nothing", func(t *testing.T) {
		refused := a.metric(t, "campus_cluster_refused_connections_total") + b.metric(t, "campus_cluster_refused_connections_total")
		rogue, err := member(t, rogueFiles)
		if err == nil {
			t.Fatal("the rogue's like was answered")
		}
		// Refused by the node that owns the post's grain, at the handshake,
		// before it read anything the rogue sent: the like cannot still
		// be on its way.
		deadline := time.Now().Add(30 * time.Second)
		for a.metric(t, "campus_cluster_refused_connections_total")+b.metric(t, "campus_cluster_refused_connections_total") == refused {
			if time.Now().After(deadline) {
				t.Fatal("no node counted a refused connection")
			}
			time.Sleep(100 * time.Millisecond)
		}
		if count, rows := likes(); count != 0 || rows != 0 {
			t.Fatalf("likes_count %d, rows %d after the rogue's like: want 0", count, rows)
		}
		s, err := rogue.Cluster.Gossip.GetState(protocluster.TopologyKey)
		if err != nil {
			t.Fatal(err)
		}
		for id := range s {
			if id != rogue.System.ID {
				t.Fatalf("the rogue learned member %s's topology by gossip", id)
			}
		}
		rogue.Stop()
		a.waitMembers(t, 2, 30*time.Second)
	})

	t.Run("control: a member with the cluster's certificate gets the like in", func(t *testing.T) {
		if _, err := member(t, clusterFiles); err != nil {
			t.Fatal(err)
		}
		// The grain answered once it had the like; its batch reaches the
		// database right after.
		deadline := time.Now().Add(10 * time.Second)
		for {
			count, rows := likes()
			if count == 1 && rows == 1 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("likes_count %d, rows %d after the member's like: want 1", count, rows)
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
}

// tlsFiles reads the CAMPUS_CLUSTER_TLS_* settings back into files.
func tlsFiles(env []string) cluster.TLSFiles {
	var f cluster.TLSFiles
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "CAMPUS_CLUSTER_TLS_CA":
			f.CA = v
		case "CAMPUS_CLUSTER_TLS_CERT":
			f.Cert = v
		case "CAMPUS_CLUSTER_TLS_KEY":
			f.Key = v
		}
	}
	return f
}

// selfSignedFiles makes a certificate that signs itself and names the
// cluster, and a CA file that trusts it and the cluster's CA in clusterCA.
func selfSignedFiles(t *testing.T, clusterCA string) cluster.TLSFiles {
	t.Helper()
	dir := t.TempDir()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "campus node"},
		DNSNames:              []string{cluster.ServerName},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	ca, err := os.ReadFile(clusterCA)
	if err != nil {
		t.Fatal(err)
	}
	f := cluster.TLSFiles{CA: filepath.Join(dir, "ca.pem"), Cert: filepath.Join(dir, "tls.crt"), Key: filepath.Join(dir, "tls.key")}
	for p, b := range map[string][]byte{f.CA: append(ca, certPEM...), f.Cert: certPEM,
		f.Key: pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER})} {
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return f
}
