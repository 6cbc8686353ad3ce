package app

import (
	"errors"
	"fmt"
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
	jwt.RegisteredClaims
}

// Signer issues and parses HS256 tokens. Only HS256 is accepted when parsing
// (an algorithm allow-list: no "none", no key confusion).
type Signer struct {
	key    []byte
	issuer string
	now    func() time.Time
}

// NewSigner signs with key (at least 32 bytes).
func NewSigner(key []byte, issuer string) (*Signer, error) {
	if len(key) < 32 {
		return nil, errors.New("app: token key must be at least 32 bytes")
	}
	return &Signer{key: key, issuer: issuer, now: time.Now}, nil
}

// Issue returns a token for userID at token version ver.
func (s *Signer) Issue(userID string, ver int) (string, error) {
	now := s.now()
	c := Claims{
		Version: ver,
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
