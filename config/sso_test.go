package config

import (
	"strings"
	"testing"
)

func TestSSOConfig(t *testing.T) {
	oidc := map[string]string{
		"CAMPUS_PUBLIC_ORIGIN":      "https://campus.bwu.edu",
		"CAMPUS_OIDC_ISSUER":        "https://login.bwu.edu/realms/bwu",
		"CAMPUS_OIDC_NAME":          "Bluewater University",
		"CAMPUS_OIDC_CLIENT_ID":     "campus",
		"CAMPUS_OIDC_CLIENT_SECRET": "s3cret",
	}
	with := func(base map[string]string, kv ...string) map[string]string {
		m := map[string]string{}
		for k, v := range base {
			m[k] = v
		}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	tests := []struct {
		name    string
		env     map[string]string
		badVar  string // "" means valid
		inError string
	}{
		{"none", nil, "", ""},
		{"oidc", oidc, "", ""},
		{"oidc on loopback http", with(oidc, "CAMPUS_OIDC_ISSUER", "http://127.0.0.1:9998"), "", ""},
		{"oidc over plain http", with(oidc, "CAMPUS_OIDC_ISSUER", "http://login.bwu.edu"), "CAMPUS_OIDC_ISSUER", "https"},
		{"oidc without a name", with(oidc, "CAMPUS_OIDC_NAME", ""), "CAMPUS_OIDC_NAME", "required"},
		{"oidc without a secret", with(oidc, "CAMPUS_OIDC_CLIENT_SECRET", ""), "CAMPUS_OIDC_CLIENT_SECRET", "required"},
		{"oidc without an origin", with(oidc, "CAMPUS_PUBLIC_ORIGIN", ""), "CAMPUS_PUBLIC_ORIGIN", "identity provider"},
		{"a claim without oidc", map[string]string{"CAMPUS_OIDC_ROLE_CLAIM": "roles"}, "CAMPUS_OIDC_ROLE_CLAIM", "only used"},
		{"bad domains", with(oidc, "CAMPUS_SSO_EMAIL_DOMAINS", "bwu.edu,@x"), "CAMPUS_SSO_EMAIL_DOMAINS", "domains"},
		{"both metadata sources", with(oidc, "CAMPUS_SAML_IDP_METADATA_URL", "https://idp.bwu.edu/md", "CAMPUS_SAML_IDP_METADATA_FILE", "/md.xml"),
			"CAMPUS_SAML_IDP_METADATA_FILE", "not both"},
		{"saml without a key", with(oidc, "CAMPUS_SAML_IDP_METADATA_URL", "https://idp.bwu.edu/md", "CAMPUS_SAML_NAME", "BWU",
			"CAMPUS_SAML_SP_CERT", "/sp.crt"), "CAMPUS_SAML_SP_KEY", "required"},
		{"sso-only without sso", map[string]string{"CAMPUS_PASSWORD_SIGNUP": "off"}, "CAMPUS_PASSWORD_SIGNUP", "university sign-in"},
		{"password login off without sso", map[string]string{"CAMPUS_PASSWORD_LOGIN": "off"}, "CAMPUS_PASSWORD_LOGIN", "university sign-in"},
		{"sso-only", with(oidc, "CAMPUS_PASSWORD_SIGNUP", "off", "CAMPUS_PASSWORD_LOGIN", "off"), "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Load(func(k string) string { return tt.env[k] })
			if tt.badVar == "" {
				if err != nil {
					t.Fatalf("Load: %v", err)
				}
				return
			}
			var e *Error
			if err == nil || !IsError(err) {
				t.Fatalf("Load = %+v, %v; want an error naming %s", c.SSO, err, tt.badVar)
			}
			e = err.(*Error)
			if e.Var != tt.badVar || !strings.Contains(e.Reason, tt.inError) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error = %q, want one line naming %s (%q)", err, tt.badVar, tt.inError)
			}
			if strings.Contains(err.Error(), "s3cret") {
				t.Errorf("error shows the secret: %q", err)
			}
		})
	}
	c, err := Load(func(k string) string {
		return with(oidc, "CAMPUS_SAML_IDP_METADATA_URL", "https://idp.bwu.edu/md", "CAMPUS_SAML_NAME", "BWU (SAML)",
			"CAMPUS_SAML_SP_CERT", "/sp.crt", "CAMPUS_SAML_SP_KEY", "/sp.key")[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	if c.SSO.SAML.EntityID != "https://campus.bwu.edu"+SAMLMetadataPath || c.SSO.OIDC.Scopes[0] != "openid" || c.SSO.ClockSkew.Minutes() != 3 {
		t.Errorf("defaults: %+v %+v", c.SSO.SAML, c.SSO.OIDC)
	}
}
