package cluster

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"os"
	"path/filepath"
	"time"
)

// The files `campus cluster certs DIR` writes, and their names in the
// Kubernetes Secret (deploy/kubernetes): ca.pem is the CA's certificate,
// which every node trusts; ca-key.pem signs node certificates and belongs
// on no node; tls.crt and tls.key are the node certificate every node
// presents.
const (
	CAFile    = "ca.pem"
	CAKeyFile = "ca-key.pem"
	CertFile  = "tls.crt"
	KeyFile   = "tls.key"
)

// How long what WriteCerts makes is valid. A node certificate is renewed by
// running it again (the CA is kept); the CA's lifetime is the rotation
// nobody should need often.
const (
	CAValidity   = 10 * 365 * 24 * time.Hour
	CertValidity = 2 * 365 * 24 * time.Hour
)

// Certs says what WriteCerts did.
type Certs struct {
	// NewCA is false when dir already held a CA, which signed the new node
	// certificate.
	NewCA bool
	// CAName is the CA certificate's common name; NotAfter is when the new
	// node certificate expires.
	CAName   string
	NotAfter time.Time
}

// WriteCerts makes dir hold a cluster CA and one node certificate it signed,
// for all nodes to share (ECDSA P-256, named ServerName, for both server and
// client authentication). When dir already holds ca.pem and ca-key.pem that
// CA is kept and only the node certificate is made anew: that is how one is
// renewed. Keys are written 0600, certificates 0644, each file replaced
// whole (a node reading it never sees half of one).
func WriteCerts(dir string, now time.Time) (Certs, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return Certs{}, fmt.Errorf("cluster: certs: %w", err)
	}
	caCert, caKey, err := readCA(dir)
	res := Certs{}
	switch {
	case errors.Is(err, errNoCA):
		caCert, caKey, err = newCA(now)
		if err != nil {
			return Certs{}, err
		}
		res.NewCA = true
	case err != nil:
		return Certs{}, err
	}
	res.CAName = caCert.Subject.CommonName

	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return Certs{}, fmt.Errorf("cluster: certs: node key: %w", err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: "campus node"},
		DNSNames:     []string{ServerName},
		// An hour back: a node whose clock runs a little behind the
		// machine that made the certificate must still accept it.
		NotBefore:   now.Add(-time.Hour),
		NotAfter:    now.Add(CertValidity),
		KeyUsage:    x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
	}
	if tmpl.NotAfter.After(caCert.NotAfter) {
		tmpl.NotAfter = caCert.NotAfter
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, caCert, &key.PublicKey, caKey)
	if err != nil {
		return Certs{}, fmt.Errorf("cluster: certs: sign the node certificate: %w", err)
	}
	res.NotAfter = tmpl.NotAfter
	keyPEM, err := pkcs8PEM(key)
	if err != nil {
		return Certs{}, err
	}
	files := []struct {
		name string
		data []byte
		mode os.FileMode
	}{
		{KeyFile, keyPEM, 0o600},
		{CertFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644},
	}
	if res.NewCA {
		caKeyPEM, err := pkcs8PEM(caKey)
		if err != nil {
			return Certs{}, err
		}
		// The CA's key first: a CA certificate without it could sign nothing.
		files = append([]struct {
			name string
			data []byte
			mode os.FileMode
		}{
			{CAKeyFile, caKeyPEM, 0o600},
			{CAFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caCert.Raw}), 0o644},
		}, files...)
	}
	for _, f := range files {
		if err := writeFile(filepath.Join(dir, f.name), f.data, f.mode); err != nil {
			return Certs{}, err
		}
	}
	return res, nil
}

// newCA makes a self-signed CA that may sign node certificates only.
func newCA(now time.Time) (*x509.Certificate, crypto.Signer, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, fmt.Errorf("cluster: certs: CA key: %w", err)
	}
	id := make([]byte, 4)
	_, _ = rand.Read(id)
	tmpl := &x509.Certificate{
		SerialNumber: serial(),
		// A random suffix tells one CA from the next (after a rotation).
		Subject:               pkix.Name{CommonName: "Campus cluster CA " + hex.EncodeToString(id)},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(CAValidity),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLenZero:        true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, nil, fmt.Errorf("cluster: certs: make the CA: %w", err)
	}
	c, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, nil, fmt.Errorf("cluster: certs: make the CA: %w", err)
	}
	return c, key, nil
}

// errNoCA means a directory holds neither ca.pem nor ca-key.pem.
var errNoCA = errors.New("cluster: certs: no CA")

// readCA loads dir's CA, errNoCA when there is none. Of the certificates in
// ca.pem the one ca-key.pem belongs to signs.
func readCA(dir string) (*x509.Certificate, crypto.Signer, error) {
	certPEM, certErr := os.ReadFile(filepath.Join(dir, CAFile))
	keyPEM, keyErr := os.ReadFile(filepath.Join(dir, CAKeyFile))
	switch {
	case errors.Is(certErr, fs.ErrNotExist) && errors.Is(keyErr, fs.ErrNotExist):
		return nil, nil, errNoCA
	// %v, not %w: a missing half of a CA is not "no CA".
	case certErr != nil:
		return nil, nil, fmt.Errorf("cluster: certs: %s beside %s: %v", CAFile, CAKeyFile, certErr)
	case keyErr != nil:
		return nil, nil, fmt.Errorf("cluster: certs: %s (the key of %s, needed to sign): %v", CAKeyFile, CAFile, keyErr)
	}
	b, _ := pem.Decode(keyPEM)
	if b == nil {
		return nil, nil, fmt.Errorf("cluster: certs: %s holds no PEM key", filepath.Join(dir, CAKeyFile))
	}
	key, err := parseKey(b.Bytes)
	if err != nil {
		return nil, nil, fmt.Errorf("cluster: certs: %s: %w", filepath.Join(dir, CAKeyFile), err)
	}
	pub, err := x509.MarshalPKIXPublicKey(key.Public())
	if err != nil {
		return nil, nil, fmt.Errorf("cluster: certs: %s: %w", filepath.Join(dir, CAKeyFile), err)
	}
	for rest := certPEM; ; {
		var b *pem.Block
		if b, rest = pem.Decode(rest); b == nil {
			break
		}
		c, err := x509.ParseCertificate(b.Bytes)
		if err != nil {
			return nil, nil, fmt.Errorf("cluster: certs: %s: %w", filepath.Join(dir, CAFile), err)
		}
		if c.IsCA && bytes.Equal(c.RawSubjectPublicKeyInfo, pub) {
			return c, key, nil
		}
	}
	return nil, nil, fmt.Errorf("cluster: certs: no CA certificate in %s belongs to the key in %s",
		filepath.Join(dir, CAFile), filepath.Join(dir, CAKeyFile))
}

// parseKey reads a PKCS #8 key, or the SEC 1 EC key older openssl writes.
func parseKey(der []byte) (crypto.Signer, error) {
	if k, err := x509.ParsePKCS8PrivateKey(der); err == nil {
		if s, ok := k.(crypto.Signer); ok {
			return s, nil
		}
		return nil, errors.New("the key cannot sign")
	}
	k, err := x509.ParseECPrivateKey(der)
	if err != nil {
		return nil, errors.New("not a PKCS #8 or EC private key")
	}
	return k, nil
}

func pkcs8PEM(key crypto.Signer) ([]byte, error) {
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, fmt.Errorf("cluster: certs: encode a key: %w", err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), nil
}

// serial is a random 128-bit certificate serial number.
func serial() *big.Int {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		panic(err) // crypto/rand does not fail on Linux
	}
	return n.Add(n, big.NewInt(1))
}

// writeFile replaces path with data, mode set before any byte is written.
func writeFile(path string, data []byte, mode os.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-"+filepath.Base(path)+"-*")
	if err != nil {
		return fmt.Errorf("cluster: certs: %w", err)
	}
	tmp := f.Name()
	defer os.Remove(tmp) // a no-op after the rename
	if err := f.Chmod(mode); err != nil {
		f.Close()
		return fmt.Errorf("cluster: certs: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("cluster: certs: write %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("cluster: certs: write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("cluster: certs: write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("cluster: certs: %w", err)
	}
	return nil
}
