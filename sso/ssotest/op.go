// Package ssotest runs real identity providers on loopback for tests and
// the end-to-end suite: an OpenID provider built from zitadel/oidc's
// example server (pkg/op) and a SAML IdP (crewjam/saml's samlidp). They
// speak the protocols over HTTP like any university's; the only additions
// are switches that make them misbehave on purpose (a foreign signing key,
// an expired or mis-addressed token, a stale nonce) and a key rotation.
package ssotest

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/zitadel/oidc/v3/example/server/exampleop"
	"github.com/zitadel/oidc/v3/example/server/storage"
	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"
	"golang.org/x/text/language"
)

// Person is an account at a test identity provider.
type Person struct {
	Username, Password string
	Email, Name        string
	// Affiliation is the role value ("student", "faculty", "staff", …).
	Affiliation  string
	UniversityID string
	Department   string
	// EmailUnverified makes the OP say email_verified=false.
	EmailUnverified bool
}

// Fault makes the OP misbehave on the next tokens it issues.
type Fault int

// The faults.
const (
	FaultNone Fault = iota
	// FaultForged signs ID tokens with a key the OP does not publish.
	FaultForged
	// FaultExpired issues ID tokens that expired an hour ago.
	FaultExpired
	// FaultAudience issues ID tokens for another client.
	FaultAudience
	// FaultStaleNonce puts the nonce of an earlier sign-in in the ID token.
	FaultStaleNonce
)

// OP is a running OpenID provider.
type OP struct {
	// Issuer is its issuer URL (http://127.0.0.1:port).
	Issuer       string
	ClientID     string
	ClientSecret string

	srv   *http.Server
	store *opStorage
}

// OPOptions configure StartOP.
type OPOptions struct {
	// Addr to listen on; empty is 127.0.0.1:0.
	Addr string
	// RedirectURIs and PostLogoutRedirectURIs of the one client.
	RedirectURIs, PostLogoutRedirectURIs []string
	People                               []Person
}

// StartOP starts an OpenID provider with one confidential web client
// ("campus", secret "campus-secret") and the given people.
func StartOP(o OPOptions) (*OP, error) {
	if o.Addr == "" {
		o.Addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return nil, fmt.Errorf("ssotest: listen: %w", err)
	}
	issuer := "http://" + ln.Addr().String()
	users := &userStore{byName: map[string]*storage.User{}, extra: map[string]Person{}}
	for _, p := range o.People {
		users.add(p)
	}
	client := storage.WebClient("campus", "campus-secret", o.RedirectURIs...)
	base := storage.NewStorageWithClients(users, map[string]*storage.Client{"campus": client})
	st := &opStorage{Storage: base, users: users, postLogout: o.PostLogoutRedirectURIs}
	if err := st.Rotate(); err != nil {
		return nil, err
	}
	// The example logs every request through slog's default logger.
	handler := exampleop.SetupServer(issuer, st, slog.New(slog.NewTextHandler(io.Discard, nil)), false)
	srv := &http.Server{Handler: withCancel(handler, st), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return &OP{Issuer: issuer, ClientID: "campus", ClientSecret: "campus-secret", srv: srv, store: st}, nil
}

// Close stops the OP.
func (p *OP) Close() { _ = p.srv.Close() }

// AddPerson adds an account.
func (p *OP) AddPerson(person Person) { p.store.users.add(person) }

// SetFault makes the tokens issued from now on misbehave (FaultNone: not).
func (p *OP) SetFault(f Fault) {
	p.store.mu.Lock()
	p.store.fault = f
	p.store.mu.Unlock()
}

// Rotate makes a new signing key, publishes it and signs with it; the
// old key is no longer published.
func (p *OP) Rotate() error { return p.store.Rotate() }

// KeyID is the id of the key tokens are signed with now.
func (p *OP) KeyID() string {
	p.store.mu.Lock()
	defer p.store.mu.Unlock()
	return p.store.key.id
}

// userStore is the example's UserStore with our people, and their
// attributes the example's User has no field for.
type userStore struct {
	mu     sync.Mutex
	byName map[string]*storage.User
	extra  map[string]Person // by user id
}

func (u *userStore) add(p Person) {
	u.mu.Lock()
	defer u.mu.Unlock()
	id := "sub-" + p.Username
	u.byName[p.Username] = &storage.User{ID: id, Username: p.Username, Password: p.Password, FirstName: p.Name,
		Email: p.Email, EmailVerified: !p.EmailUnverified, PreferredLanguage: language.English}
	u.extra[id] = p
}

func (u *userStore) GetUserByID(id string) *storage.User {
	u.mu.Lock()
	defer u.mu.Unlock()
	for _, v := range u.byName {
		if v.ID == id {
			return v
		}
	}
	return nil
}

func (u *userStore) GetUserByUsername(name string) *storage.User {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.byName[name]
}

func (u *userStore) ExampleClientID() string { return "service" }

func (u *userStore) person(id string) (Person, bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	p, ok := u.extra[id]
	return p, ok
}

type rsaKey struct {
	id  string
	key *rsa.PrivateKey
}

func (k rsaKey) SignatureAlgorithm() jose.SignatureAlgorithm { return jose.RS256 }
func (k rsaKey) Key() any                                    { return k.key }
func (k rsaKey) ID() string                                  { return k.id }

type publicKey struct{ rsaKey }

func (k publicKey) Algorithm() jose.SignatureAlgorithm { return jose.RS256 }
func (k publicKey) Use() string                        { return "sig" }
func (k publicKey) Key() any                           { return &k.key.PublicKey }

// opStorage is the example's storage with rotating keys, our claims and
// the faults.
type opStorage struct {
	*storage.Storage
	users      *userStore
	postLogout []string

	mu        sync.Mutex
	key       rsaKey
	rogue     rsaKey
	fault     Fault
	lastNonce string
	seq       int
}

func newKey(id string) (rsaKey, error) {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return rsaKey{}, fmt.Errorf("ssotest: key: %w", err)
	}
	return rsaKey{id: id, key: k}, nil
}

func (s *opStorage) Rotate() error {
	s.mu.Lock()
	s.seq++
	seq := s.seq
	s.mu.Unlock()
	k, err := newKey(fmt.Sprintf("key-%d", seq))
	if err != nil {
		return err
	}
	rogue, err := newKey(fmt.Sprintf("key-%d", seq)) // same kid, other key: a forgery
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.key, s.rogue = k, rogue
	s.mu.Unlock()
	return nil
}

func (s *opStorage) SigningKey(context.Context) (op.SigningKey, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fault == FaultForged {
		return s.rogue, nil
	}
	return s.key, nil
}

func (s *opStorage) SignatureAlgorithms(context.Context) ([]jose.SignatureAlgorithm, error) {
	return []jose.SignatureAlgorithm{jose.RS256}, nil
}

func (s *opStorage) KeySet(context.Context) ([]op.Key, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return []op.Key{publicKey{s.key}}, nil
}

func (s *opStorage) GetClientByClientID(ctx context.Context, id string) (op.Client, error) {
	c, err := s.Storage.GetClientByClientID(ctx, id)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return &client{Client: c, fault: s.fault, postLogout: s.postLogout}, nil
}

// client puts the userinfo claims in the ID token (as Entra, Google and
// Keycloak do) and applies the expiry fault.
type client struct {
	op.Client
	fault      Fault
	postLogout []string
}

func (c *client) IDTokenUserinfoClaimsAssertion() bool { return true }
func (c *client) PostLogoutRedirectURIs() []string     { return c.postLogout }
func (c *client) IDTokenLifetime() time.Duration {
	if c.fault == FaultExpired {
		return -time.Hour
	}
	return 5 * time.Minute
}

func (s *opStorage) AuthRequestByCode(ctx context.Context, code string) (op.AuthRequest, error) {
	r, err := s.Storage.AuthRequestByCode(ctx, code)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	prev := s.lastNonce
	s.lastNonce = r.GetNonce()
	switch s.fault {
	case FaultAudience:
		return &request{AuthRequest: r, audience: []string{"someone-else"}, client: "someone-else"}, nil
	case FaultStaleNonce:
		return &request{AuthRequest: r, nonce: prev}, nil
	}
	return r, nil
}

type request struct {
	op.AuthRequest
	audience []string
	nonce    string
	// client, when set, is the client id the token is made out to: the OP
	// checks the code's client first (the first call), then mints the
	// token for this one (aud and azp), as a token meant for another
	// application would be.
	client string
	calls  int
}

func (r *request) GetClientID() string {
	r.calls++
	if r.client != "" && r.calls > 1 {
		return r.client
	}
	return r.AuthRequest.GetClientID()
}

func (r *request) GetAudience() []string {
	if r.audience != nil {
		return r.audience
	}
	return r.AuthRequest.GetAudience()
}

func (r *request) GetNonce() string {
	if r.audience == nil {
		return r.nonce
	}
	return r.AuthRequest.GetNonce()
}

// SetUserinfoFromRequest adds the academic claims to the standard ones.
func (s *opStorage) SetUserinfoFromRequest(ctx context.Context, ui *oidc.UserInfo, t op.IDTokenRequest, scopes []string) error {
	if err := s.Storage.SetUserinfoFromRequest(ctx, ui, t, scopes); err != nil {
		return err
	}
	s.claims(ui, t.GetSubject())
	return nil
}

// SetUserinfoFromToken is the userinfo endpoint's answer.
func (s *opStorage) SetUserinfoFromToken(ctx context.Context, ui *oidc.UserInfo, tokenID, subject, origin string) error {
	if err := s.Storage.SetUserinfoFromToken(ctx, ui, tokenID, subject, origin); err != nil {
		return err
	}
	s.claims(ui, ui.Subject)
	return nil
}

func (s *opStorage) claims(ui *oidc.UserInfo, sub string) {
	p, ok := s.users.person(sub)
	if !ok {
		return
	}
	ui.Name = p.Name
	if p.EmailUnverified {
		ui.AppendClaims("email_verified", false)
	}
	if p.Affiliation != "" {
		ui.AppendClaims("eduperson_affiliation", []string{p.Affiliation})
	}
	if p.UniversityID != "" {
		ui.AppendClaims("university_id", p.UniversityID)
	}
	if p.Department != "" {
		ui.AppendClaims("department", p.Department)
	}
}
