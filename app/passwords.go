package app

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/crypto/argon2"
)

// Argon2id parameters (docs/architecture.md §10; OWASP's 19 MiB / t=2 / p=1 minimum).
const (
	argonMemoryKiB = 19 * 1024
	argonTime      = 2
	argonThreads   = 1
	argonKeyLen    = 32
	argonSaltLen   = 16
)

// Hasher hashes and checks passwords with argon2id. Each hash takes ~19 MiB,
// so a semaphore bounds how many run at once: a burst of logins queues
// instead of exhausting memory.
type Hasher struct {
	sem   chan struct{}
	dummy string
}

// NewHasher allows at most concurrency simultaneous hashes.
func NewHasher(concurrency int) *Hasher {
	if concurrency < 1 {
		concurrency = 1
	}
	h := &Hasher{sem: make(chan struct{}, concurrency)}
	// A real hash of a random password: checking unknown accounts against it
	// costs the same time as a real check, so timing does not enumerate.
	var pw [16]byte
	_, _ = rand.Read(pw[:])
	h.dummy = h.hashNow(string(pw[:]))
	return h
}

// Hash returns the PHC-style encoded argon2id hash of password.
func (h *Hasher) Hash(ctx context.Context, password string) (string, error) {
	if err := h.acquire(ctx); err != nil {
		return "", err
	}
	defer h.release()
	return h.hashNow(password), nil
}

func (h *Hasher) hashNow(password string) string {
	salt := make([]byte, argonSaltLen)
	_, _ = rand.Read(salt)
	key := argon2.IDKey([]byte(password), salt, argonTime, argonMemoryKiB, argonThreads, argonKeyLen)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemoryKiB, argonTime, argonThreads,
		base64.RawStdEncoding.EncodeToString(salt), base64.RawStdEncoding.EncodeToString(key))
}

// Verify reports whether password matches encoded. An empty encoded hash
// (unknown account) is checked against a dummy hash so it takes as long.
func (h *Hasher) Verify(ctx context.Context, encoded, password string) (bool, error) {
	if err := h.acquire(ctx); err != nil {
		return false, err
	}
	defer h.release()
	if encoded == "" {
		_, _ = verifyArgon(h.dummy, password)
		return false, nil
	}
	return verifyArgon(encoded, password)
}

func (h *Hasher) acquire(ctx context.Context) error {
	select {
	case h.sem <- struct{}{}:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("app: password hashing: %w", ctx.Err())
	}
}

func (h *Hasher) release() { <-h.sem }

var errBadHash = errors.New("app: malformed password hash")

func verifyArgon(encoded, password string) (bool, error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false, errBadHash
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false, errBadHash
	}
	var m uint32
	var t uint32
	var p uint8
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &p); err != nil || m > 1<<20 || t > 16 || p == 0 {
		return false, errBadHash
	}
	salt, err := base64.RawStdEncoding.DecodeString(parts[4])
	if err != nil {
		return false, errBadHash
	}
	want, err := base64.RawStdEncoding.DecodeString(parts[5])
	if err != nil || len(want) == 0 {
		return false, errBadHash
	}
	got := argon2.IDKey([]byte(password), salt, t, m, p, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}
