package sso

import (
	"context"
	"crypto"
	"crypto/tls"
	"crypto/x509"
	"encoding/xml"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/crewjam/saml"
	"github.com/crewjam/saml/samlsp"
)

// SAMLConfig is what the service provider needs.
type SAMLConfig struct {
	// EntityID is ours; MetadataURL is where our metadata is served and
	// ACSURL where the identity provider posts its answers (HTTP-POST).
	EntityID, MetadataURL, ACSURL string
	// CertFile and KeyFile are our PEM certificate and RSA key.
	CertFile, KeyFile string
	// IDPMetadataURL or IDPMetadataFile is the identity provider's metadata.
	IDPMetadataURL, IDPMetadataFile string
	// The attributes of each value, by name or friendly name.
	PrincipalAttr, EmailAttr, NameAttr, RoleAttr, UniversityIDAttr, DepartmentAttr string
	Roles                                                                          Roles
	// ClockSkew is how far the provider's clock may be from ours.
	ClockSkew time.Duration
	// Replay records assertion ids: each is accepted once.
	Replay saml.AssertionReplayCache
	// HTTPClient fetches IDPMetadataURL; nil is a client with a 10 s timeout.
	HTTPClient *http.Client
}

// SAML is a SAML 2.0 service provider for one identity provider: requests
// by HTTP-Redirect, answers by HTTP-POST only, signed (the Response or the
// assertion, by a key in the provider's metadata), for our audience, to our
// ACS, in answer to a request we made, each assertion once. Metadata from a
// URL is fetched on first use and again after a failure, so a node starts
// while the provider is away. Safe for concurrent use.
type SAML struct {
	cfg  SAMLConfig
	key  crypto.Signer
	cert *x509.Certificate
	acs  url.URL

	mu sync.Mutex
	sp *saml.ServiceProvider
}

// NewSAML loads our key pair (and the provider's metadata when it is a
// file); an error names the file that is wrong.
func NewSAML(cfg SAMLConfig) (*SAML, error) {
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Timeout: 10 * time.Second}
	}
	pair, err := tls.LoadX509KeyPair(cfg.CertFile, cfg.KeyFile)
	if err != nil {
		return nil, fmt.Errorf("sso: SAML key pair %s, %s: %w", cfg.CertFile, cfg.KeyFile, err)
	}
	key, ok := pair.PrivateKey.(crypto.Signer)
	if !ok {
		return nil, fmt.Errorf("sso: SAML key %s cannot sign", cfg.KeyFile)
	}
	cert, err := x509.ParseCertificate(pair.Certificate[0])
	if err != nil {
		return nil, fmt.Errorf("sso: SAML certificate %s: %w", cfg.CertFile, err)
	}
	acs, err := url.Parse(cfg.ACSURL)
	if err != nil {
		return nil, fmt.Errorf("sso: SAML ACS URL: %w", err)
	}
	if cfg.ClockSkew > 0 {
		// The library's allowance is a package setting; there is one
		// identity provider per process.
		saml.MaxClockSkew = cfg.ClockSkew
	}
	s := &SAML{cfg: cfg, key: key, cert: cert, acs: *acs}
	if cfg.IDPMetadataFile != "" {
		if _, err := s.provider(context.Background()); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// ProviderKey is the identity's provider name, "saml:" + the identity
// provider's entity ID, or "" before its metadata was read.
func (s *SAML) ProviderKey(ctx context.Context) string {
	sp, err := s.provider(ctx)
	if err != nil {
		return ""
	}
	return "saml:" + sp.IDPMetadata.EntityID
}

func (s *SAML) provider(ctx context.Context) (*saml.ServiceProvider, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sp != nil {
		return s.sp, nil
	}
	var md *saml.EntityDescriptor
	var err error
	if s.cfg.IDPMetadataFile != "" {
		var raw []byte
		if raw, err = os.ReadFile(s.cfg.IDPMetadataFile); err == nil {
			md, err = samlsp.ParseMetadata(raw)
		}
		if err != nil {
			return nil, fmt.Errorf("sso: SAML identity provider metadata %s: %w", s.cfg.IDPMetadataFile, err)
		}
	} else {
		u, perr := url.Parse(s.cfg.IDPMetadataURL)
		if perr != nil {
			return nil, fmt.Errorf("sso: SAML metadata URL: %w", perr)
		}
		fctx, cancel := detach(ctx)
		md, err = samlsp.FetchMetadata(fctx, s.cfg.HTTPClient, *u)
		cancel()
		if err != nil {
			return nil, fmt.Errorf("%w: SAML identity provider metadata: %v", ErrUnavailable, err)
		}
	}
	mdURL, _ := url.Parse(s.cfg.MetadataURL)
	s.sp = &saml.ServiceProvider{
		EntityID:    s.cfg.EntityID,
		Key:         s.key,
		Certificate: s.cert,
		MetadataURL: *mdURL,
		AcsURL:      s.acs,
		IDPMetadata: md,
		// Only answers to our own requests (no IdP-initiated sign-in: an
		// unsolicited assertion could be planted in someone's browser).
		AllowIDPInitiated:                false,
		AssertionConsumerServiceBindings: []string{saml.HTTPPostBinding},
		AuthnNameIDFormat:                saml.PersistentNameIDFormat,
		// Requests go unsigned (AuthnRequestsSigned="false" in our
		// metadata): nothing in a request needs protecting — the answer is
		// what is checked — and IdPs that re-post the request from their
		// login page (samlidp does) would drop a Redirect signature.
		RejectSHA1Signatures:  true,
		ReplayCache:           s.cfg.Replay,
		MetadataValidDuration: 7 * 24 * time.Hour,
	}
	return s.sp, nil
}

// Metadata is our metadata XML, for the identity provider's admin.
func (s *SAML) Metadata(ctx context.Context) ([]byte, error) {
	sp, err := s.provider(ctx)
	if err != nil {
		return nil, err
	}
	b, err := xml.MarshalIndent(sp.Metadata(), "", "  ")
	if err != nil {
		return nil, fmt.Errorf("sso: SAML metadata: %w", err)
	}
	return append([]byte(xml.Header), b...), nil
}

// AuthURL is where the browser goes to sign in (HTTP-Redirect binding,
// unsigned) and the request's id, which the answer must be in response to.
func (s *SAML) AuthURL(ctx context.Context, relayState string) (string, string, error) {
	sp, err := s.provider(ctx)
	if err != nil {
		return "", "", err
	}
	loc := sp.GetSSOBindingLocation(saml.HTTPRedirectBinding)
	if loc == "" {
		return "", "", fmt.Errorf("%w: the identity provider has no HTTP-Redirect sign-in endpoint", ErrUnavailable)
	}
	req, err := sp.MakeAuthenticationRequest(loc, saml.HTTPRedirectBinding, saml.HTTPPostBinding)
	if err != nil {
		return "", "", fmt.Errorf("sso: SAML request: %w", err)
	}
	u, err := req.Redirect(relayState, sp)
	if err != nil {
		return "", "", fmt.Errorf("sso: SAML request: %w", err)
	}
	return u.String(), req.ID, nil
}

// Finish checks the posted answer (the form's SAMLResponse) to the request
// requestID and reads the identity from its assertion.
func (s *SAML) Finish(ctx context.Context, form url.Values, requestID string) (Identity, error) {
	sp, err := s.provider(ctx)
	if err != nil {
		return Identity{}, err
	}
	if form.Get("SAMLart") != "" {
		return Identity{}, fmt.Errorf("%w: artifact binding not accepted", ErrRefused)
	}
	if form.Get("SAMLResponse") == "" {
		return Identity{}, fmt.Errorf("%w: no SAMLResponse", ErrRefused)
	}
	// The library reads a net/http request: the form as posted, at our
	// configured ACS URL (the Destination it must name).
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.acs.String(), strings.NewReader(form.Encode()))
	if err != nil {
		return Identity{}, fmt.Errorf("sso: SAML request: %w", err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if err := req.ParseForm(); err != nil {
		return Identity{}, fmt.Errorf("%w: form: %v", ErrRefused, err)
	}
	a, err := sp.ParseResponse(req, []string{requestID})
	if err != nil {
		var ire *saml.InvalidResponseError
		if errors.As(err, &ire) && ire.PrivateErr != nil {
			err = ire.PrivateErr
		}
		var bad saml.ErrBadStatus
		if errors.As(err, &bad) && strings.HasSuffix(bad.Status, ":AuthnFailed") {
			return Identity{}, fmt.Errorf("%w: %v", ErrCancelled, err)
		}
		return Identity{}, fmt.Errorf("%w: %v", ErrRefused, err)
	}
	return s.identity(sp, a)
}

// attrAliases are the urn:oid names of the usual academic attributes, so a
// friendly name in the configuration matches either form.
var attrAliases = map[string]string{
	"edupersonprincipalname":     "urn:oid:1.3.6.1.4.1.5923.1.1.1.6",
	"edupersonaffiliation":       "urn:oid:1.3.6.1.4.1.5923.1.1.1.1",
	"edupersonscopedaffiliation": "urn:oid:1.3.6.1.4.1.5923.1.1.1.9",
	"mail":                       "urn:oid:0.9.2342.19200300.100.1.3",
	"displayname":                "urn:oid:2.16.840.1.113730.3.1.241",
	"cn":                         "urn:oid:2.5.4.3",
	"ou":                         "urn:oid:2.5.4.11",
	"uid":                        "urn:oid:0.9.2342.19200300.100.1.1",
}

func (s *SAML) identity(sp *saml.ServiceProvider, a *saml.Assertion) (Identity, error) {
	values := func(name string) []string {
		if name == "" {
			return nil
		}
		oid := attrAliases[strings.ToLower(name)]
		var out []string
		for _, st := range a.AttributeStatements {
			for _, at := range st.Attributes {
				if at.Name == name || at.FriendlyName == name || (oid != "" && at.Name == oid) {
					for _, v := range at.Values {
						out = append(out, v.Value)
					}
				}
			}
		}
		return out
	}
	subject := first(values(s.cfg.PrincipalAttr))
	if subject == "" && a.Subject != nil && a.Subject.NameID != nil &&
		a.Subject.NameID.Format != string(saml.TransientNameIDFormat) {
		subject = a.Subject.NameID.Value
	}
	if subject == "" {
		return Identity{}, fmt.Errorf("%w: no %s and no persistent NameID", ErrRefused, s.cfg.PrincipalAttr)
	}
	name := first(values(s.cfg.NameAttr))
	if name == "" {
		name = first(values("cn"))
	}
	return Identity{
		Provider: "saml:" + sp.IDPMetadata.EntityID, Subject: subject, Protocol: "saml",
		Email:        first(values(s.cfg.EmailAttr)),
		Name:         name,
		Role:         s.cfg.Roles.Of(values(s.cfg.RoleAttr)),
		UniversityID: first(values(s.cfg.UniversityIDAttr)),
		Department:   first(values(s.cfg.DepartmentAttr)),
	}, nil
}
