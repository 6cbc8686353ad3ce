package config

import (
	"net/url"
	"strings"
	"time"
)

// SSO is university sign-in: an OpenID Connect provider, a SAML 2.0
// identity provider, both or neither (README, "University sign-in").
type SSO struct {
	// OIDC is set when CAMPUS_OIDC_ISSUER is.
	OIDC *OIDC
	// SAML is set when CAMPUS_SAML_IDP_METADATA_URL or _FILE is.
	SAML *SAML
	// EmailDomains are the e-mail domains a university sign-in may bring
	// (CAMPUS_SSO_EMAIL_DOMAINS, comma-separated, e.g. "bwu.edu,staff.bwu.edu";
	// a subdomain of one is allowed too). Empty allows any.
	EmailDomains []string
	// StudentValues and FacultyValues are the role claim's or
	// eduPersonAffiliation's values that make a student or a faculty member
	// (CAMPUS_SSO_STUDENT_VALUES, default "student";
	// CAMPUS_SSO_FACULTY_VALUES, default "faculty,staff,employee"). A scoped
	// value (student@bwu.edu) counts by the part before the @; faculty wins
	// when both match.
	StudentValues, FacultyValues []string
	// ClockSkew is how far the identity provider's clock may be from ours
	// (CAMPUS_SSO_CLOCK_SKEW, default 3m).
	ClockSkew time.Duration
}

// Enabled reports whether any university sign-in is configured.
func (s SSO) Enabled() bool { return s.OIDC != nil || s.SAML != nil }

// OIDC is the OpenID Connect relying party's settings.
type OIDC struct {
	// Name is the university's name on the button, "Sign in with <Name>"
	// (CAMPUS_OIDC_NAME, required).
	Name string
	// Issuer is the provider's issuer URL; discovery reads
	// Issuer/.well-known/openid-configuration (CAMPUS_OIDC_ISSUER). https,
	// or http on a loopback address (tests).
	Issuer string
	// ClientID and ClientSecret are Campus's registration at the provider
	// (CAMPUS_OIDC_CLIENT_ID, CAMPUS_OIDC_CLIENT_SECRET).
	ClientID     string
	ClientSecret Secret
	// Scopes asked for (CAMPUS_OIDC_SCOPES, space- or comma-separated,
	// default "openid email profile"; openid is always added).
	Scopes []string
	// The claims that carry each attribute: EmailClaim (CAMPUS_OIDC_EMAIL_CLAIM,
	// default email), NameClaim (CAMPUS_OIDC_NAME_CLAIM, default name),
	// RoleClaim (CAMPUS_OIDC_ROLE_CLAIM, default eduperson_affiliation),
	// UniversityIDClaim (CAMPUS_OIDC_UNIVERSITY_ID_CLAIM, default
	// university_id) and DepartmentClaim (CAMPUS_OIDC_DEPARTMENT_CLAIM,
	// default department).
	EmailClaim, NameClaim, RoleClaim, UniversityIDClaim, DepartmentClaim string
}

// SAML is the SAML 2.0 service provider's settings.
type SAML struct {
	// Name is the university's name on the button (CAMPUS_SAML_NAME, required).
	Name string
	// IDPMetadataURL or IDPMetadataFile is where the identity provider's
	// metadata is (CAMPUS_SAML_IDP_METADATA_URL, CAMPUS_SAML_IDP_METADATA_FILE;
	// exactly one).
	IDPMetadataURL, IDPMetadataFile string
	// CertFile and KeyFile are the service provider's PEM certificate and
	// RSA key, published in our metadata and used to sign requests
	// (CAMPUS_SAML_SP_CERT, CAMPUS_SAML_SP_KEY; both required).
	CertFile, KeyFile string
	// EntityID is our entity ID (CAMPUS_SAML_ENTITY_ID, default the
	// metadata URL, CAMPUS_PUBLIC_ORIGIN/api/auth/sso/saml/metadata).
	EntityID string
	// The attributes that carry each value (names or urn:oid: names):
	// PrincipalAttr (CAMPUS_SAML_PRINCIPAL_ATTR, default
	// eduPersonPrincipalName; the NameID when absent), EmailAttr
	// (CAMPUS_SAML_EMAIL_ATTR, default mail), NameAttr
	// (CAMPUS_SAML_NAME_ATTR, default displayName), RoleAttr
	// (CAMPUS_SAML_ROLE_ATTR, default eduPersonAffiliation),
	// UniversityIDAttr (CAMPUS_SAML_UNIVERSITY_ID_ATTR, default
	// universityId) and DepartmentAttr (CAMPUS_SAML_DEPARTMENT_ATTR,
	// default ou).
	PrincipalAttr, EmailAttr, NameAttr, RoleAttr, UniversityIDAttr, DepartmentAttr string
}

// SAMLMetadataPath is where the service provider's metadata is served.
const SAMLMetadataPath = "/api/auth/sso/saml/metadata"

func (r *reader) sso(c *Config) {
	s := SSO{
		EmailDomains:  r.domains("CAMPUS_SSO_EMAIL_DOMAINS"),
		StudentValues: r.list("CAMPUS_SSO_STUDENT_VALUES", "student"),
		FacultyValues: r.list("CAMPUS_SSO_FACULTY_VALUES", "faculty,staff,employee"),
		ClockSkew:     r.duration("CAMPUS_SSO_CLOCK_SKEW", 3*time.Minute),
	}
	if issuer, ok := r.raw("CAMPUS_OIDC_ISSUER"); ok {
		o := &OIDC{
			Name:              r.need("CAMPUS_OIDC_NAME", "CAMPUS_OIDC_ISSUER"),
			Issuer:            r.issuer("CAMPUS_OIDC_ISSUER", issuer),
			ClientID:          r.need("CAMPUS_OIDC_CLIENT_ID", "CAMPUS_OIDC_ISSUER"),
			ClientSecret:      Secret(r.need("CAMPUS_OIDC_CLIENT_SECRET", "CAMPUS_OIDC_ISSUER")),
			Scopes:            r.scopes("CAMPUS_OIDC_SCOPES"),
			EmailClaim:        r.str("CAMPUS_OIDC_EMAIL_CLAIM", "email"),
			NameClaim:         r.str("CAMPUS_OIDC_NAME_CLAIM", "name"),
			RoleClaim:         r.str("CAMPUS_OIDC_ROLE_CLAIM", "eduperson_affiliation"),
			UniversityIDClaim: r.str("CAMPUS_OIDC_UNIVERSITY_ID_CLAIM", "university_id"),
			DepartmentClaim:   r.str("CAMPUS_OIDC_DEPARTMENT_CLAIM", "department"),
		}
		s.OIDC = o
	} else {
		r.unused("CAMPUS_OIDC_ISSUER", "CAMPUS_OIDC_NAME", "CAMPUS_OIDC_CLIENT_ID", "CAMPUS_OIDC_CLIENT_SECRET", "CAMPUS_OIDC_SCOPES",
			"CAMPUS_OIDC_EMAIL_CLAIM", "CAMPUS_OIDC_NAME_CLAIM", "CAMPUS_OIDC_ROLE_CLAIM", "CAMPUS_OIDC_UNIVERSITY_ID_CLAIM",
			"CAMPUS_OIDC_DEPARTMENT_CLAIM")
	}
	mdURL, hasURL := r.raw("CAMPUS_SAML_IDP_METADATA_URL")
	mdFile, hasFile := r.raw("CAMPUS_SAML_IDP_METADATA_FILE")
	switch {
	case hasURL && hasFile:
		r.fail("CAMPUS_SAML_IDP_METADATA_FILE", mdFile, "set CAMPUS_SAML_IDP_METADATA_URL or CAMPUS_SAML_IDP_METADATA_FILE, not both")
	case hasURL || hasFile:
		by := "CAMPUS_SAML_IDP_METADATA_FILE"
		if hasURL {
			by = "CAMPUS_SAML_IDP_METADATA_URL"
			if u, err := url.Parse(mdURL); err != nil || !(u.Scheme == "https" || u.Scheme == "http" && isLoopback(u.Hostname())) || u.Host == "" {
				r.fail("CAMPUS_SAML_IDP_METADATA_URL", mdURL, "want an https URL (http only on a loopback address)")
			}
		}
		sm := &SAML{
			Name:             r.need("CAMPUS_SAML_NAME", by),
			IDPMetadataURL:   mdURL,
			IDPMetadataFile:  mdFile,
			CertFile:         r.need("CAMPUS_SAML_SP_CERT", by),
			KeyFile:          r.need("CAMPUS_SAML_SP_KEY", by),
			EntityID:         r.str("CAMPUS_SAML_ENTITY_ID", ""),
			PrincipalAttr:    r.str("CAMPUS_SAML_PRINCIPAL_ATTR", "eduPersonPrincipalName"),
			EmailAttr:        r.str("CAMPUS_SAML_EMAIL_ATTR", "mail"),
			NameAttr:         r.str("CAMPUS_SAML_NAME_ATTR", "displayName"),
			RoleAttr:         r.str("CAMPUS_SAML_ROLE_ATTR", "eduPersonAffiliation"),
			UniversityIDAttr: r.str("CAMPUS_SAML_UNIVERSITY_ID_ATTR", "universityId"),
			DepartmentAttr:   r.str("CAMPUS_SAML_DEPARTMENT_ATTR", "ou"),
		}
		s.SAML = sm
	default:
		r.unused("CAMPUS_SAML_IDP_METADATA_URL", "CAMPUS_SAML_NAME", "CAMPUS_SAML_SP_CERT", "CAMPUS_SAML_SP_KEY",
			"CAMPUS_SAML_ENTITY_ID", "CAMPUS_SAML_PRINCIPAL_ATTR", "CAMPUS_SAML_EMAIL_ATTR", "CAMPUS_SAML_NAME_ATTR",
			"CAMPUS_SAML_ROLE_ATTR", "CAMPUS_SAML_UNIVERSITY_ID_ATTR", "CAMPUS_SAML_DEPARTMENT_ATTR")
	}
	if r.err != nil {
		return
	}
	if s.Enabled() && c.PublicOrigin == "" {
		// The redirect URI and the SAML ACS URL are registered at the
		// identity provider: they cannot follow whatever Host a request has.
		r.fail("CAMPUS_PUBLIC_ORIGIN", "", "university sign-in needs the origin the identity provider sends people back to, e.g. https://campus.example.edu")
		return
	}
	if s.SAML != nil && s.SAML.EntityID == "" {
		s.SAML.EntityID = c.PublicOrigin + SAMLMetadataPath
	}
	if !s.Enabled() {
		if !c.PasswordSignup {
			r.fail("CAMPUS_PASSWORD_SIGNUP", "off", "nobody could make an account: configure a university sign-in (CAMPUS_OIDC_ISSUER or CAMPUS_SAML_IDP_METADATA_URL) first")
		} else if !c.PasswordLogin {
			r.fail("CAMPUS_PASSWORD_LOGIN", "off", "nobody could sign in: configure a university sign-in (CAMPUS_OIDC_ISSUER or CAMPUS_SAML_IDP_METADATA_URL) first")
		}
	}
	c.SSO = s
}

// issuer is an OpenID issuer URL: https, or http on loopback (a test
// provider); no query or fragment. Discovery appends the well-known path.
func (r *reader) issuer(name, v string) string {
	u, err := url.Parse(v)
	if err != nil || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil ||
		!(u.Scheme == "https" || u.Scheme == "http" && isLoopback(u.Hostname())) {
		r.fail(name, v, "want the provider's https issuer URL, e.g. https://login.microsoftonline.com/TENANT/v2.0")
		return ""
	}
	return v
}

// unused fails when a setting of a protocol that is not configured is set:
// a typo in the variable that turns it on would otherwise pass silently.
func (r *reader) unused(on string, names ...string) {
	for _, n := range names {
		if v, ok := r.raw(n); ok {
			r.fail(n, v, "only used with "+on+" set")
			return
		}
	}
}

func (r *reader) list(name, def string) []string {
	v := r.str(name, def)
	var out []string
	for _, p := range strings.Split(v, ",") {
		if p = strings.ToLower(strings.TrimSpace(p)); p != "" {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		r.fail(name, v, "want a comma-separated list of values")
	}
	return out
}

func (r *reader) scopes(name string) []string {
	v := r.str(name, "openid email profile")
	out := []string{"openid"}
	for _, p := range strings.FieldsFunc(v, func(c rune) bool { return c == ' ' || c == ',' }) {
		if p != "openid" {
			out = append(out, p)
		}
	}
	return out
}

func (r *reader) domains(name string) []string {
	v, ok := r.raw(name)
	if !ok {
		return nil
	}
	var out []string
	for _, p := range strings.Split(v, ",") {
		p = strings.ToLower(strings.TrimSpace(p))
		if p == "" {
			continue
		}
		if strings.ContainsAny(p, "@/: ") || !strings.Contains(p, ".") {
			r.fail(name, v, "want comma-separated domains such as bwu.edu")
			return nil
		}
		out = append(out, strings.TrimPrefix(p, "."))
	}
	return out
}

// need returns variable name, which the setting of by needs; like required,
// no value ever reaches the error.
func (r *reader) need(name, by string) string {
	v, ok := r.raw(name)
	if !ok {
		r.fail(name, "", "required when "+by+" is set")
		return ""
	}
	return v
}
