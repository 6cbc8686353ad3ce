package app

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// TokenTTL is how long a sign-in lasts.
const TokenTTL = 30 * 24 * time.Hour

// Claims are what a Campus token carries: the user and the user's token
// version at issue time. Bumping users.token_version revokes every older
// token at once (logout, password change, reset, e-mail change, deletion).
type Claims struct {
	Version int `json:"ver"`
	// Via is the protocol of a university sign-in ("oidc", "saml"), empty
	// for a password or code: logout ends the identity provider's session
	// only for a sign-in that came from it.
	Via string `json:"via,omitempty"`
	jwt.RegisteredClaims
}

// Signer issues and parses HS256 tokens. Only HS256 is accepted when parsing
// (an algorithm allow-list: no "none", no key confusion).
//
// Parsing is on every authenticated request, and decoding plus verifying a
// JWT (base64, JSON, HMAC) was a seventh of the server's CPU under a like
// storm, so a token that verified is remembered: the same string again costs
// one map lookup and an expiry check. Only tokens that passed every check are
// kept, keyed by the whole token, so nothing unverified is ever believed.
// Safe for concurrent use.
type Signer struct {
	key    []byte
	issuer string
	now    func() time.Time

	mu       sync.RWMutex
	verified map[string]Claims

	// passKey signs first-page passes (firstpage.go), derived from key.
	passKey []byte
}

// maxVerified bounds the verified-token cache (a few hundred bytes each);
// when full it starts over rather than track recency.
const maxVerified = 65_536

// NewSigner signs with key (at least 32 bytes).
func NewSigner(key []byte, issuer string) (*Signer, error) {
	if len(key) < 32 {
		return nil, errors.New("app: token key must be at least 32 bytes")
	}
	return &Signer{key: key, issuer: issuer, now: time.Now, passKey: derivePassKey(key)}, nil
}

// Issue returns a token for userID at token version ver.
func (s *Signer) Issue(userID string, ver int) (string, error) {
	return s.IssueVia(userID, ver, "")
}

// IssueVia is Issue for a sign-in through via (a university sign-in's protocol).
func (s *Signer) IssueVia(userID string, ver int, via string) (string, error) {
	now := s.now()
	c := Claims{
		Version: ver,
		Via:     via,
		RegisteredClaims: jwt.RegisteredClaims{
			Subject:   userID,
			Issuer:    s.issuer,
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(now.Add(TokenTTL)),
		},
	}
	tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(s.key)
	if err != nil {
		return "", fmt.Errorf("app: sign token: %w", err)
	}
	return tok, nil
}

// errBadToken is deliberately vague: the caller answers 401 either way.
var errBadToken = errors.New("app: invalid token")

// Parse checks the signature, algorithm, issuer and expiry and returns the
// claims. It does not check the token version: that needs the user's row.
func (s *Signer) Parse(token string) (Claims, error) {
	s.mu.RLock()
	c, ok := s.verified[token]
	s.mu.RUnlock()
	if ok && c.ExpiresAt != nil && s.now().Before(c.ExpiresAt.Time) {
		return c, nil
	}
	c, err := s.parse(token)
	if err != nil {
		if ok { // expired since it was cached
			s.mu.Lock()
			delete(s.verified, token)
			s.mu.Unlock()
		}
		return Claims{}, err
	}
	s.mu.Lock()
	if s.verified == nil || len(s.verified) >= maxVerified {
		s.verified = make(map[string]Claims)
	}
	s.verified[token] = c
	s.mu.Unlock()
	return c, nil
}

// parse is Parse without the cache.
func (s *Signer) parse(token string) (Claims, error) {
	var c Claims
	_, err := jwt.ParseWithClaims(token, &c, func(*jwt.Token) (any, error) { return s.key, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithIssuer(s.issuer),
		jwt.WithExpirationRequired(),
		jwt.WithTimeFunc(s.now),
	)
	if err != nil || c.Subject == "" {
		return Claims{}, errBadToken
	}
	return c, nil
}
