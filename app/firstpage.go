package app

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/google/uuid"

	"campus/domain"
)

// The feed's first page in the document (issue 27, a first post at the
// network's floor). The bearer token lives in the client's localStorage, so
// the server cannot tell who asks for "/"; one more round trip for the feed
// after the document is too many on a slow phone. So beside the token, every
// sign-in sets an HttpOnly cookie holding a first-page pass, and the document
// of "/" carries the first page of the pass holder's feed, which the client
// paints before its code arrives.
//
// A pass is not a token: its own format, signed under a key of its own, so
// it never parses as one and no API call accepts it (they read only the
// Authorization header). It names the user and the token version of the
// token it was issued beside, and expires with that token: a logout, a
// password change or any other revocation ends it with the token.

// FirstPageCookie is the name of the cookie that holds the pass.
const FirstPageCookie = "campus_fp"

// passFormat opens every pass, so that a later format can be told apart.
const passFormat = 1

// passLen is a pass's bytes before base64: the format, the user (16), the
// token version (4), the expiry in Unix seconds (4) and the MAC (16).
const passLen = 1 + 16 + 4 + 4 + passMACLen

// passMACLen is how much of the HMAC-SHA256 a pass keeps: 128 bits.
const passMACLen = 16

// passKeyLabel derives the passes' key from the token key: a MAC made for
// one can never stand for the other.
const passKeyLabel = "campus first-page pass v1"

// IssuePass answers the first-page pass for the holder of token (one this
// node's Signer issued and that still verifies): the same user, token
// version and expiry.
func (s *Signer) IssuePass(token string) (string, time.Time, error) {
	c, err := s.Parse(token)
	if err != nil {
		return "", time.Time{}, err
	}
	id, err := uuid.Parse(c.Subject)
	if err != nil {
		return "", time.Time{}, errBadToken
	}
	if c.Version < 0 || c.Version > math.MaxUint32 || c.ExpiresAt == nil {
		return "", time.Time{}, errBadToken
	}
	exp := c.ExpiresAt.Time
	b := make([]byte, 0, passLen)
	b = append(b, passFormat)
	b = append(b, id[:]...)
	b = binary.BigEndian.AppendUint32(b, uint32(c.Version))
	b = binary.BigEndian.AppendUint32(b, uint32(exp.Unix()))
	b = append(b, s.passMAC(b)...)
	return base64.RawURLEncoding.EncodeToString(b), exp, nil
}

// passClaims are what a pass says.
type passClaims struct {
	user    uuid.UUID
	version int
}

// parsePass checks a pass's format, MAC and expiry.
func (s *Signer) parsePass(pass string) (passClaims, error) {
	if base64.RawURLEncoding.DecodedLen(len(pass)) != passLen {
		return passClaims{}, errBadToken
	}
	b, err := base64.RawURLEncoding.DecodeString(pass)
	if err != nil || len(b) != passLen || b[0] != passFormat {
		return passClaims{}, errBadToken
	}
	body, mac := b[:passLen-passMACLen], b[passLen-passMACLen:]
	if subtle.ConstantTimeCompare(mac, s.passMAC(body)) != 1 {
		return passClaims{}, errBadToken
	}
	var id uuid.UUID
	copy(id[:], body[1:17])
	ver := binary.BigEndian.Uint32(body[17:21])
	exp := time.Unix(int64(binary.BigEndian.Uint32(body[21:25])), 0)
	if !s.now().Before(exp) {
		return passClaims{}, errBadToken
	}
	return passClaims{user: id, version: int(ver)}, nil
}

// passMAC is the MAC of a pass's body.
func (s *Signer) passMAC(body []byte) []byte {
	m := hmac.New(sha256.New, s.passKey)
	m.Write(body)
	return m.Sum(nil)[:passMACLen]
}

// derivePassKey is the passes' key, derived from the token key.
func derivePassKey(key []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(passKeyLabel))
	return m.Sum(nil)
}

// FirstPagePass answers the first-page pass for the holder of token and
// when it expires (with the token). A token that does not verify gets none.
func (s *Sessions) FirstPagePass(token string) (string, time.Time, error) {
	pass, exp, err := s.signer.IssuePass(token)
	if errors.Is(err, errBadToken) {
		return "", time.Time{}, ErrBadToken
	}
	if err != nil {
		return "", time.Time{}, fmt.Errorf("app: first-page pass: %w", err)
	}
	return pass, exp, nil
}

// AuthenticateFirstPage checks a first-page pass as Authenticate checks a
// token — signature, expiry, and the user's current token version, so a
// revoked token's pass is refused too — and answers its holder, or
// ErrBadToken. The principal is good for reading the document's first page
// only: nothing else takes a pass.
func (s *Sessions) AuthenticateFirstPage(ctx context.Context, pass string) (Principal, error) {
	if pass == "" {
		return Principal{}, ErrBadToken
	}
	c, err := s.signer.parsePass(pass)
	if err != nil {
		return Principal{}, ErrBadToken
	}
	current, err := s.version(ctx, c.user)
	if errors.Is(err, domain.ErrNotFound) {
		return Principal{}, ErrBadToken
	}
	if err != nil {
		return Principal{}, err
	}
	if current != c.version {
		return Principal{}, ErrBadToken
	}
	return Principal{UserID: c.user, Version: c.version}, nil
}
