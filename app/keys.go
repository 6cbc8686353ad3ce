package app

import (
	"context"
	"crypto/ecdh"
	"crypto/hmac"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/uptrace/bun"

	"campus/persistence"
)

// Keys are the node's secrets, derived from one master secret.
type Keys struct {
	Token []byte // signs JWTs
	Code  []byte // keys stored code hashes
	// VAPID identifies this server to Web Push services (RFC 8292): the
	// same P-256 key on every node, since browsers subscribe with its
	// public half and any node may send.
	VAPID *ecdh.PrivateKey
}

// LoadKeys reads the master secret from path, or — on a node's first start —
// takes the cluster-wide one from Postgres (creating it if this is the first
// node) and stores it at path (0600). Nodes sharing a database therefore
// share tokens: a token issued by one node is valid on every other.
func LoadKeys(ctx context.Context, db bun.IDB, path string) (Keys, error) {
	master, err := os.ReadFile(path)
	switch {
	case err == nil && len(master) >= 32:
	case err == nil:
		return Keys{}, fmt.Errorf("app: secret %s is shorter than 32 bytes", path)
	case errors.Is(err, fs.ErrNotExist):
		master, err = persistence.Secret(ctx, db, "master")
		if err != nil {
			return Keys{}, err
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o711); err != nil {
			return Keys{}, fmt.Errorf("app: secret dir: %w", err)
		}
		if err := os.WriteFile(path, master, 0o600); err != nil {
			return Keys{}, fmt.Errorf("app: write secret: %w", err)
		}
	default:
		return Keys{}, fmt.Errorf("app: read secret: %w", err)
	}
	vapid, err := deriveP256(master, "vapid")
	if err != nil {
		return Keys{}, err
	}
	return Keys{Token: derive(master, "token"), Code: derive(master, "code"), VAPID: vapid}, nil
}

// deriveP256 makes a P-256 private key from the master secret: the first
// derived 32-byte string that is a valid scalar (one in 2^32 is not, so a
// second try is already rare). Deriving rather than storing a second
// secret keeps the node's secrets in one file and the key stable for as
// long as the master secret is.
func deriveP256(master []byte, label string) (*ecdh.PrivateKey, error) {
	for i := range 8 {
		k, err := ecdh.P256().NewPrivateKey(derive(master, fmt.Sprintf("%s/%d", label, i)))
		if err == nil {
			return k, nil
		}
	}
	return nil, errors.New("app: no valid P-256 key derived from the secret")
}

func derive(master []byte, label string) []byte {
	m := hmac.New(sha256.New, master)
	m.Write([]byte("campus/" + label))
	return m.Sum(nil)
}
