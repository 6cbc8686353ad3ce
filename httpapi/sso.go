package httpapi

import (
	"net/url"
	"strings"

	"github.com/valyala/fasthttp"

	"campus/app"
	"campus/config"
	"campus/domain"
)

// ssoRoutes are university sign-in (docs/architecture.md §10.1; the calls
// are docs/protocol.md §4). The protocol callbacks answer redirects
// to the client's /sso/callback page, not JSON: the browser arrives there
// from the identity provider.
func (s *Server) ssoRoutes() {
	a := s.deps.SSO
	if a == nil {
		return
	}
	r := s.router
	r.POST("/api/auth/sso/start", s.public(func(ctx *fasthttp.RequestCtx) (any, error) {
		var in app.SSOStartInput
		if err := decodeJSON(ctx, &in); err != nil {
			return nil, err
		}
		var p *app.Principal
		if in.Link {
			pr, err := s.principal(ctx, bearer(ctx))
			if err != nil {
				return nil, err
			}
			p = &pr
		}
		res, binding, err := a.Start(requestContext(ctx), in, p, bindingCookie(ctx), s.clientIP(ctx).String())
		if err == nil {
			s.setBindingCookie(ctx, binding)
		}
		return res, err
	}))
	r.GET(app.OIDCCallbackPath, func(ctx *fasthttp.RequestCtx) {
		q := ctx.QueryArgs()
		to := a.OIDCCallback(requestContext(ctx), app.OIDCCallbackInput{
			State: string(q.Peek("state")), Code: string(q.Peek("code")),
			Error: string(q.Peek("error")), ErrorDescription: string(q.Peek("error_description")),
		}, s.clientIP(ctx).String())
		ssoRedirect(ctx, to)
	})
	r.POST(app.SAMLACSPath, func(ctx *fasthttp.RequestCtx) {
		form, err := url.ParseQuery(string(ctx.PostBody()))
		if err != nil || !strings.HasPrefix(string(ctx.Request.Header.ContentType()), "application/x-www-form-urlencoded") {
			writeError(ctx, domain.Invalid("Malformed request"))
			return
		}
		ssoRedirect(ctx, a.SAMLACS(requestContext(ctx), form, s.clientIP(ctx).String()))
	})
	r.GET(config.SAMLMetadataPath, func(ctx *fasthttp.RequestCtx) {
		b, err := a.SAMLMetadata(requestContext(ctx))
		if err != nil {
			writeError(ctx, err)
			return
		}
		ctx.SetContentType("application/samlmetadata+xml")
		ctx.Response.Header.Set("Cache-Control", "public, max-age=3600")
		ctx.SetBody(b)
	})
	r.POST("/api/auth/sso/exchange", s.public(func(ctx *fasthttp.RequestCtx) (any, error) {
		var in app.SSOTicketInput
		if err := decodeJSON(ctx, &in); err != nil {
			return nil, err
		}
		res, err := a.Exchange(requestContext(ctx), in, bindingCookie(ctx), s.clientIP(ctx).String())
		if err == nil {
			s.signedIn(ctx, res.Token)
		}
		return res, err
	}))
	r.POST("/api/auth/sso/link/send-code", s.public(func(ctx *fasthttp.RequestCtx) (any, error) {
		var in app.SSOTicketInput
		if err := decodeJSON(ctx, &in); err != nil {
			return nil, err
		}
		return a.LinkSendCode(requestContext(ctx), in, bindingCookie(ctx))
	}))
	r.POST("/api/auth/sso/link", s.public(func(ctx *fasthttp.RequestCtx) (any, error) {
		var in app.SSOLinkInput
		if err := decodeJSON(ctx, &in); err != nil {
			return nil, err
		}
		res, err := a.Link(requestContext(ctx), in, bindingCookie(ctx))
		if err == nil {
			s.signedIn(ctx, res.Token)
		}
		return res, err
	}))
	r.GET("/api/users/me/sign-ins", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		return a.SignIns(requestContext(ctx), p)
	}))
	r.DELETE("/api/users/me/sign-ins/{id}", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, _ := ctx.UserValue("id").(string)
		return a.RemoveSignIn(requestContext(ctx), p, id)
	}))
}

func bindingCookie(ctx *fasthttp.RequestCtx) string {
	return string(ctx.Request.Header.Cookie(app.BindingCookie))
}

// setBindingCookie sets the cookie that ties a sign-in to this browser:
// HttpOnly, only sent to the sign-in calls, SameSite=Lax (same-origin
// calls carry it; other sites' requests do not), Secure on https.
func (s *Server) setBindingCookie(ctx *fasthttp.RequestCtx, value string) {
	c := fasthttp.AcquireCookie()
	defer fasthttp.ReleaseCookie(c)
	c.SetKey(app.BindingCookie)
	c.SetValue(value)
	c.SetPath(app.BindingCookiePath)
	c.SetMaxAge(int(app.BindingCookieMaxAge.Seconds()))
	c.SetHTTPOnly(true)
	c.SetSameSite(fasthttp.CookieSameSiteLaxMode)
	c.SetSecure(strings.HasPrefix(s.deps.Config.PublicOrigin, "https://"))
	ctx.Response.Header.SetCookie(c)
}

// ssoRedirect sends the browser on to the client page with 303 (a POST
// from the identity provider becomes a GET), never cached, and without a
// Referer that could carry the provider's answer.
func ssoRedirect(ctx *fasthttp.RequestCtx, to string) {
	ctx.Response.Header.Set("Cache-Control", "no-store")
	ctx.Response.Header.Set("Referrer-Policy", "no-referrer")
	ctx.Response.Header.Set("Location", to)
	ctx.SetStatusCode(fasthttp.StatusSeeOther)
}
