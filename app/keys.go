package app

import (
	"context"
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
	return Keys{Token: derive(master, "token"), Code: derive(master, "code")}, nil
}

func derive(master []byte, label string) []byte {
	m := hmac.New(sha256.New, master)
	m.Write([]byte("campus/" + label))
	return m.Sum(nil)
}
