package sso

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"
)

// OIDCConfig is what the relying party needs.
type OIDCConfig struct {
	Issuer, ClientID, ClientSecret string
	// RedirectURL is our callback, registered at the provider.
	RedirectURL string
	Scopes      []string
	// The claim names of each attribute.
	EmailClaim, NameClaim, RoleClaim, UniversityIDClaim, DepartmentClaim string
	Roles                                                                Roles
	// ClockSkew is how far the provider's clock may be from ours.
	ClockSkew time.Duration
	// HTTPClient talks to the provider (discovery, token, keys, userinfo);
	// nil is a client with a 10 s timeout.
	HTTPClient *http.Client
	// Now is the clock (tests); nil is time.Now.
	Now func() time.Time
}

// OIDC is an OpenID Connect relying party for one provider, using the
// authorization code flow with PKCE, state and nonce. Discovery happens on
// first use and is retried after a failure, so a node starts while the
// provider is away. Safe for concurrent use.
type OIDC struct {
	cfg OIDCConfig

	mu       sync.Mutex
	provider *oidc.Provider
	verifier *oidc.IDTokenVerifier
	oauth    *oauth2.Config
	endSess  string
}

// NewOIDC makes a relying party; nothing is fetched yet.
func NewOIDC(cfg OIDCConfig) *OIDC {
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Timeout: 10 * time.Second}
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &OIDC{cfg: cfg}
}

// ProviderKey is the identity's provider name.
func (o *OIDC) ProviderKey() string { return "oidc:" + o.cfg.Issuer }

// ctx is the context of calls to the provider: parent's deadline and
// cancellation (not its values: see detach) and our HTTP client.
func (o *OIDC) ctx(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := detach(parent)
	return oidc.ClientContext(ctx, o.cfg.HTTPClient), cancel
}

// discover reads the provider's metadata once (again after a failure).
func (o *OIDC) discover(ctx context.Context) (*oidc.Provider, *oidc.IDTokenVerifier, *oauth2.Config, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.provider != nil {
		return o.provider, o.verifier, o.oauth, nil
	}
	dctx, cancel := o.ctx(ctx)
	defer cancel()
	p, err := oidc.NewProvider(dctx, o.cfg.Issuer)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%w: discovery: %v", ErrUnavailable, err)
	}
	var extra struct {
		EndSession string `json:"end_session_endpoint"`
	}
	_ = p.Claims(&extra) // optional: no RP-initiated logout without it
	o.provider = p
	// Expiry is checked by us, with the clock skew allowance; the keys come
	// from the provider's JWKS, fetched again when a token names a key we
	// do not have (rotation).
	o.verifier = p.VerifierContext(oidc.ClientContext(context.Background(), o.cfg.HTTPClient), &oidc.Config{ClientID: o.cfg.ClientID, SkipExpiryCheck: true, Now: o.cfg.Now})
	o.oauth = &oauth2.Config{
		ClientID: o.cfg.ClientID, ClientSecret: o.cfg.ClientSecret,
		Endpoint: p.Endpoint(), RedirectURL: o.cfg.RedirectURL, Scopes: o.cfg.Scopes,
	}
	o.endSess = extra.EndSession
	return p, o.verifier, o.oauth, nil
}

// AuthURL is where the browser goes to sign in: the code flow with the
// state, nonce and the PKCE challenge of verifier.
func (o *OIDC) AuthURL(ctx context.Context, state, nonce, verifier string) (string, error) {
	_, _, oc, err := o.discover(ctx)
	if err != nil {
		return "", err
	}
	return oc.AuthCodeURL(state, oidc.Nonce(nonce), oauth2.S256ChallengeOption(verifier)), nil
}

// CallbackError turns the error parameters of a callback into a refusal:
// access_denied (the person said no, or the provider refused them) is
// ErrCancelled, anything else ErrRefused.
func CallbackError(code, description string) error {
	if code == "access_denied" || code == "login_required" || code == "interaction_required" {
		return fmt.Errorf("%w: %s: %.200s", ErrCancelled, code, description)
	}
	return fmt.Errorf("%w: provider answered %.100s: %.200s", ErrRefused, code, description)
}

// Finish redeems code (with the PKCE verifier), checks the ID token —
// signature by a key of the provider's, issuer, audience, expiry and
// issue time within the clock skew, the nonce of this flow, the access
// token's hash — and reads the identity from its claims and, when the
// provider has one, the userinfo endpoint (for the same subject).
func (o *OIDC) Finish(ctx context.Context, code, verifier, nonce string) (Identity, error) {
	p, v, oc, err := o.discover(ctx)
	if err != nil {
		return Identity{}, err
	}
	ctx, cancel := o.ctx(ctx)
	defer cancel()
	tok, err := oc.Exchange(ctx, code, oauth2.VerifierOption(verifier))
	if err != nil {
		var re *oauth2.RetrieveError
		if errors.As(err, &re) {
			// invalid_grant: a code used twice, expired, or not ours.
			return Identity{}, fmt.Errorf("%w: token endpoint: %s", ErrRefused, re.ErrorCode)
		}
		return Identity{}, fmt.Errorf("%w: token endpoint: %v", ErrUnavailable, err)
	}
	raw, _ := tok.Extra("id_token").(string)
	if raw == "" {
		return Identity{}, fmt.Errorf("%w: no id_token in the token answer", ErrRefused)
	}
	idt, err := v.Verify(ctx, raw)
	if err != nil {
		return Identity{}, fmt.Errorf("%w: id token: %v", ErrRefused, err)
	}
	now := o.cfg.Now()
	if idt.Expiry.IsZero() || !now.Before(idt.Expiry.Add(o.cfg.ClockSkew)) {
		return Identity{}, fmt.Errorf("%w: id token expired at %s", ErrRefused, idt.Expiry.UTC().Format(time.RFC3339))
	}
	if idt.IssuedAt.After(now.Add(o.cfg.ClockSkew)) {
		return Identity{}, fmt.Errorf("%w: id token issued in the future (%s)", ErrRefused, idt.IssuedAt.UTC().Format(time.RFC3339))
	}
	if nonce == "" || subtle.ConstantTimeCompare([]byte(idt.Nonce), []byte(nonce)) != 1 {
		return Identity{}, fmt.Errorf("%w: id token nonce is not this sign-in's", ErrRefused)
	}
	if idt.AccessTokenHash != "" {
		if err := idt.VerifyAccessToken(tok.AccessToken); err != nil {
			return Identity{}, fmt.Errorf("%w: access token hash: %v", ErrRefused, err)
		}
	}
	claims := map[string]any{}
	if err := idt.Claims(&claims); err != nil {
		return Identity{}, fmt.Errorf("%w: id token claims: %v", ErrRefused, err)
	}
	if p.UserInfoEndpoint() != "" {
		ui, err := p.UserInfo(ctx, oauth2.StaticTokenSource(tok))
		if err != nil {
			return Identity{}, fmt.Errorf("%w: userinfo: %v", ErrUnavailable, err)
		}
		if ui.Subject != idt.Subject {
			return Identity{}, fmt.Errorf("%w: userinfo is for another subject", ErrRefused)
		}
		extra := map[string]any{}
		if err := ui.Claims(&extra); err == nil {
			for k, val := range extra {
				if _, ok := claims[k]; !ok { // the signed token wins
					claims[k] = val
				}
			}
		}
	}
	return o.identity(idt.Subject, claims), nil
}

func (o *OIDC) identity(sub string, claims map[string]any) Identity {
	id := Identity{
		Provider: o.ProviderKey(), Subject: sub, Protocol: "oidc",
		Email:        first(strs(claims[o.cfg.EmailClaim])),
		Name:         first(strs(claims[o.cfg.NameClaim])),
		Role:         o.cfg.Roles.Of(strs(claims[o.cfg.RoleClaim])),
		UniversityID: first(strs(claims[o.cfg.UniversityIDClaim])),
		Department:   first(strs(claims[o.cfg.DepartmentClaim])),
	}
	if v, ok := claims["email_verified"].(bool); ok && !v {
		id.EmailUnverified = true
	}
	return id
}

// strs reads a claim that is a string or a list of strings.
func strs(v any) []string {
	switch t := v.(type) {
	case string:
		return []string{t}
	case []any:
		out := make([]string, 0, len(t))
		for _, e := range t {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// LogoutURL is the provider's end_session_endpoint with our client id and
// where to come back to (RP-initiated logout), or "" when the provider
// offers none or has not been discovered.
func (o *OIDC) LogoutURL(ctx context.Context, postLogout string) string {
	if _, _, _, err := o.discover(ctx); err != nil {
		return ""
	}
	o.mu.Lock()
	end := o.endSess
	o.mu.Unlock()
	if end == "" {
		return ""
	}
	u, err := url.Parse(end)
	if err != nil {
		return ""
	}
	q := u.Query()
	q.Set("client_id", o.cfg.ClientID)
	q.Set("post_logout_redirect_uri", postLogout)
	u.RawQuery = q.Encode()
	return u.String()
}
