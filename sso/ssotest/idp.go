package ssotest

import (
	"bytes"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/crewjam/saml"
	"github.com/crewjam/saml/logger"
	"github.com/crewjam/saml/samlidp"
	"golang.org/x/crypto/bcrypt"
)

// IdP is a running SAML identity provider (crewjam/saml's samlidp).
type IdP struct {
	// URL is its base (http://127.0.0.1:port); MetadataURL its metadata.
	URL, MetadataURL string

	srv    *http.Server
	idp    *samlidp.Server
	faults *assertionFaults
	attrs  *sessionAttrs
}

// IdPFault makes the IdP's next assertions misbehave.
type IdPFault int

// The faults.
const (
	IdPFaultNone IdPFault = iota
	// IdPFaultExpired issues assertions that expired ten minutes ago.
	IdPFaultExpired
	// IdPFaultAudience issues assertions for another service provider.
	IdPFaultAudience
)

// StartIdP starts a SAML IdP on addr (empty: 127.0.0.1:0) with people.
// People are signed in with Username and Password; the assertion carries
// uid, mail, cn (Name), eduPersonPrincipalName (Username@scope of the
// e-mail), eduPersonAffiliation, and universityId and ou when set.
func StartIdP(addr string, people []Person) (*IdP, error) {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("ssotest: listen: %w", err)
	}
	base, _ := url.Parse("http://" + ln.Addr().String())
	key, cert, err := KeyPair("Test SAML IdP")
	if err != nil {
		return nil, err
	}
	srv, err := samlidp.New(samlidp.Options{URL: *base, Key: key, Certificate: cert,
		Logger: logger.DefaultLogger, Store: &samlidp.MemoryStore{}})
	if err != nil {
		return nil, fmt.Errorf("ssotest: samlidp: %w", err)
	}
	f := &assertionFaults{}
	srv.IDP.AssertionMaker = f
	a := &sessionAttrs{inner: srv, extra: map[string]Person{}}
	srv.IDP.SessionProvider = a
	// A persistent NameID is not needed: eduPersonPrincipalName is the key.
	h := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = h.Serve(ln) }()
	p := &IdP{URL: base.String(), MetadataURL: base.String() + "/metadata", srv: h, idp: srv, faults: f, attrs: a}
	for _, person := range people {
		if err := p.AddPerson(person); err != nil {
			p.Close()
			return nil, err
		}
	}
	return p, nil
}

// Close stops the IdP.
func (p *IdP) Close() { _ = p.srv.Close() }

// SetFault makes the assertions from now on misbehave (IdPFaultNone: not).
func (p *IdP) SetFault(f IdPFault) {
	p.faults.mu.Lock()
	p.faults.fault = f
	p.faults.mu.Unlock()
}

// AddPerson adds an account to the IdP's store, as its admin API would
// but with the password hashed at bcrypt's lowest cost: the API hashes at
// the default cost, which for a hall of people (and each of their logins,
// under the race detector) takes minutes. The login page checks it alike.
func (p *IdP) AddPerson(person Person) error {
	groups := []string{}
	if person.Affiliation != "" {
		groups = append(groups, person.Affiliation)
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(person.Password), bcrypt.MinCost)
	if err != nil {
		return fmt.Errorf("ssotest: hash: %w", err)
	}
	u := samlidp.User{Name: person.Username, HashedPassword: hash, Email: person.Email, CommonName: person.Name, Groups: groups}
	if err := p.idp.Store.Put("/users/"+person.Username, &u); err != nil {
		return fmt.Errorf("ssotest: add %s: %w", person.Username, err)
	}
	p.attrs.mu.Lock()
	p.attrs.extra[person.Username] = person
	p.attrs.mu.Unlock()
	return nil
}

// RegisterSP tells the IdP about a service provider from its metadata (as
// an IdP admin uploads it).
func (p *IdP) RegisterSP(name string, metadata []byte) error {
	return p.put("/services/"+name, "application/samlmetadata+xml", metadata)
}

func (p *IdP) put(path, contentType string, body []byte) error {
	req, err := http.NewRequest(http.MethodPut, p.URL+path, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("ssotest: %w", err)
	}
	req.Header.Set("Content-Type", contentType)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("ssotest: PUT %s: %w", path, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		b, _ := io.ReadAll(resp.Body)
		return fmt.Errorf("ssotest: PUT %s: %s: %s", path, resp.Status, b)
	}
	return nil
}

// sessionAttrs is samlidp's session with the attributes its User has no
// field for (university ID, department).
type sessionAttrs struct {
	inner *samlidp.Server
	mu    sync.Mutex
	extra map[string]Person
}

func (a *sessionAttrs) GetSession(w http.ResponseWriter, r *http.Request, req *saml.IdpAuthnRequest) *saml.Session {
	s := a.inner.GetSession(w, r, req)
	if s == nil {
		return nil
	}
	a.mu.Lock()
	p, ok := a.extra[s.UserName]
	a.mu.Unlock()
	if !ok {
		return s
	}
	cp := *s
	cp.CustomAttributes = nil
	add := func(name, oid, v string) {
		if v != "" {
			cp.CustomAttributes = append(cp.CustomAttributes, saml.Attribute{FriendlyName: name, Name: oid,
				NameFormat: "urn:oasis:names:tc:SAML:2.0:attrname-format:uri",
				Values:     []saml.AttributeValue{{Type: "xs:string", Value: v}}})
		}
	}
	add("universityId", "universityId", p.UniversityID)
	add("ou", "urn:oid:2.5.4.11", p.Department)
	return &cp
}

// assertionFaults is the default assertion maker with the faults.
type assertionFaults struct {
	mu    sync.Mutex
	fault IdPFault
}

func (f *assertionFaults) MakeAssertion(req *saml.IdpAuthnRequest, session *saml.Session) error {
	if err := (saml.DefaultAssertionMaker{}).MakeAssertion(req, session); err != nil {
		return err
	}
	f.mu.Lock()
	fault := f.fault
	f.mu.Unlock()
	a := req.Assertion
	switch fault {
	case IdPFaultAudience:
		for i := range a.Conditions.AudienceRestrictions {
			a.Conditions.AudienceRestrictions[i].Audience.Value = "https://someone-else.example/saml"
		}
	case IdPFaultExpired:
		past := req.Now.Add(-10 * time.Minute)
		a.IssueInstant = past.Add(-time.Minute)
		a.Conditions.NotBefore = past.Add(-2 * time.Minute)
		a.Conditions.NotOnOrAfter = past
		if a.Subject != nil {
			for i := range a.Subject.SubjectConfirmations {
				if d := a.Subject.SubjectConfirmations[i].SubjectConfirmationData; d != nil {
					d.NotOnOrAfter = past
				}
			}
		}
	}
	return nil
}

// KeyPair makes an RSA key and a self-signed certificate for it.
func KeyPair(name string) (*rsa.PrivateKey, *x509.Certificate, error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, nil, fmt.Errorf("ssotest: key: %w", err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(10 * 365 * 24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, nil, fmt.Errorf("ssotest: certificate: %w", err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, nil, fmt.Errorf("ssotest: certificate: %w", err)
	}
	return key, cert, nil
}

// WriteKeyPair writes a new key pair as PEM files in dir and answers their
// paths (certificate, key): a service provider's CAMPUS_SAML_SP_CERT and _KEY.
func WriteKeyPair(dir, name string) (string, string, error) {
	key, cert, err := KeyPair(name)
	if err != nil {
		return "", "", err
	}
	certPath, keyPath := filepath.Join(dir, "sp.crt"), filepath.Join(dir, "sp.key")
	if err := os.WriteFile(certPath, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Raw}), 0o600); err != nil {
		return "", "", fmt.Errorf("ssotest: %w", err)
	}
	if err := os.WriteFile(keyPath, pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}), 0o600); err != nil {
		return "", "", fmt.Errorf("ssotest: %w", err)
	}
	return certPath, keyPath, nil
}
