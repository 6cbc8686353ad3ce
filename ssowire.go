package main

import (
	"github.com/rs/zerolog"
	"github.com/uptrace/bun"

	"campus/app"
	"campus/config"
	"campus/sso"
)

// newSSO builds university sign-in from the configuration, or nil when
// none is configured. A SAML key pair or metadata file that cannot be read
// stops the start with the file's name.
func newSSO(cfg config.Config, db *bun.DB, accounts *app.Accounts, log zerolog.Logger) (*app.SSO, error) {
	c := cfg.SSO
	if !c.Enabled() {
		return nil, nil
	}
	roles := sso.Roles{Student: c.StudentValues, Faculty: c.FacultyValues}
	d := app.SSODeps{DB: db, Accounts: accounts, Origin: cfg.PublicOrigin, EmailDomains: c.EmailDomains,
		RateLimits: cfg.RateLimits, Log: log.With().Str("component", "sso").Logger()}
	if o := c.OIDC; o != nil {
		d.OIDCName = o.Name
		d.OIDC = sso.NewOIDC(sso.OIDCConfig{
			Issuer: o.Issuer, ClientID: o.ClientID, ClientSecret: string(o.ClientSecret),
			RedirectURL: cfg.PublicOrigin + app.OIDCCallbackPath, Scopes: o.Scopes,
			EmailClaim: o.EmailClaim, NameClaim: o.NameClaim, RoleClaim: o.RoleClaim,
			UniversityIDClaim: o.UniversityIDClaim, DepartmentClaim: o.DepartmentClaim,
			Roles: roles, ClockSkew: c.ClockSkew,
		})
	}
	if s := c.SAML; s != nil {
		d.SAMLName = s.Name
		sp, err := sso.NewSAML(sso.SAMLConfig{
			EntityID: s.EntityID, MetadataURL: cfg.PublicOrigin + config.SAMLMetadataPath,
			ACSURL:   cfg.PublicOrigin + app.SAMLACSPath,
			CertFile: s.CertFile, KeyFile: s.KeyFile,
			IDPMetadataURL: s.IDPMetadataURL, IDPMetadataFile: s.IDPMetadataFile,
			PrincipalAttr: s.PrincipalAttr, EmailAttr: s.EmailAttr, NameAttr: s.NameAttr, RoleAttr: s.RoleAttr,
			UniversityIDAttr: s.UniversityIDAttr, DepartmentAttr: s.DepartmentAttr,
			Roles: roles, ClockSkew: c.ClockSkew, Replay: app.ReplayCache(db),
		})
		if err != nil {
			return nil, err
		}
		d.SAML = sp
	}
	return app.NewSSO(d), nil
}

// ssoName is the university's name for the password screens' pointer to
// the sign-in to use instead.
func ssoName(c config.SSO) string {
	switch {
	case c.OIDC != nil:
		return c.OIDC.Name
	case c.SAML != nil:
		return c.SAML.Name
	}
	return ""
}
