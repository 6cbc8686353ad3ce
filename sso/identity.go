// Package sso is the protocol side of university sign-in: an OpenID Connect
// relying party (coreos/go-oidc, x/oauth2) and a SAML 2.0 service provider
// (crewjam/saml). It turns a provider's answer into an Identity and says
// nothing about accounts: app decides what an Identity may do. It is
// net/http-shaped, like the libraries it wraps; httpapi adapts at the edge.
package sso

import (
	"errors"
	"strings"
)

// The refusals a protocol step ends in. Each is wrapped with the detail
// that is logged; the person is shown only which of these it was.
var (
	// ErrRefused: the answer failed a check (signature, issuer, audience,
	// expiry, nonce, replay, destination, …).
	ErrRefused = errors.New("sso: sign-in refused")
	// ErrCancelled: the person cancelled at the identity provider, or it
	// declined to sign them in (access_denied).
	ErrCancelled = errors.New("sso: sign-in cancelled")
	// ErrUnavailable: the identity provider could not be reached or
	// answered nonsense.
	ErrUnavailable = errors.New("sso: identity provider unavailable")
)

// Identity is who the identity provider says signed in.
type Identity struct {
	// Provider names the identity provider ("oidc:" + issuer or "saml:" +
	// entity ID); with Subject it is the identity's key.
	Provider string `json:"provider"`
	// Subject is the provider's stable identifier of the person (OIDC sub;
	// SAML eduPersonPrincipalName, else the NameID).
	Subject string `json:"subject"`
	// Protocol is "oidc" or "saml".
	Protocol string `json:"protocol"`
	Email    string `json:"email"`
	// EmailUnverified is set when the provider said in so many words that
	// the address is not verified (OIDC email_verified=false).
	EmailUnverified bool   `json:"emailUnverified,omitempty"`
	Name            string `json:"name"`
	// Role is "student", "faculty" or "" (none of the configured values).
	Role         string `json:"role"`
	UniversityID string `json:"universityId"`
	Department   string `json:"department"`
}

// Roles maps affiliation values to a role.
type Roles struct {
	Student, Faculty []string
}

// Of is the role the values name: faculty if any is a faculty value, else
// student if any is a student value, else "". A scoped value
// (staff@bwu.edu) counts by its part before the @; case is ignored.
func (r Roles) Of(values []string) string {
	role := ""
	for _, v := range values {
		v = strings.ToLower(strings.TrimSpace(v))
		if i := strings.IndexByte(v, '@'); i > 0 {
			v = v[:i]
		}
		for _, f := range r.Faculty {
			if v == f {
				return "faculty"
			}
		}
		for _, s := range r.Student {
			if v == s {
				role = "student"
			}
		}
	}
	return role
}

// first is the first non-empty value, trimmed.
func first(values []string) string {
	for _, v := range values {
		if v = strings.TrimSpace(v); v != "" {
			return v
		}
	}
	return ""
}
