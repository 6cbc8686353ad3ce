package httpapi

import (
	"github.com/valyala/fasthttp"

	"campus/app"
	"campus/domain"
)

// accountRoutes are docs/product.md §7.1 (auth), the OTP calls of §7.2 and /users/me.
func (s *Server) accountRoutes() {
	a := s.deps.Accounts
	if a == nil {
		return
	}
	r := s.router
	r.POST("/api/auth/signup", s.public(func(ctx *fasthttp.RequestCtx) (any, error) {
		var in domain.SignupInput
		if err := decodeJSON(ctx, &in); err != nil {
			return nil, err
		}
		res, err := a.Signup(requestContext(ctx), in, s.clientIP(ctx).String())
		if err == nil {
			created(ctx)
		}
		return res, err
	}))
	r.POST("/api/auth/verify-otp", s.public(func(ctx *fasthttp.RequestCtx) (any, error) {
		var in domain.VerifyInput
		if err := decodeJSON(ctx, &in); err != nil {
			return nil, err
		}
		res, err := a.VerifySignup(requestContext(ctx), in)
		if err == nil {
			s.signedIn(ctx, res.Token)
		}
		return res, err
	}))
	r.POST("/api/auth/resend-otp", s.public(func(ctx *fasthttp.RequestCtx) (any, error) {
		var in domain.ResendInput
		if err := decodeJSON(ctx, &in); err != nil {
			return nil, err
		}
		return a.Resend(requestContext(ctx), in, s.clientIP(ctx).String())
	}))
	r.POST("/api/auth/login", s.public(func(ctx *fasthttp.RequestCtx) (any, error) {
		var in domain.LoginInput
		if err := decodeJSON(ctx, &in); err != nil {
			return nil, err
		}
		res, err := a.Login(requestContext(ctx), in, s.clientIP(ctx).String())
		if err == nil {
			s.signedIn(ctx, res.Token)
		}
		return res, err
	}))
	r.POST("/api/auth/forgot-password", s.public(func(ctx *fasthttp.RequestCtx) (any, error) {
		var in domain.ForgotInput
		if err := decodeJSON(ctx, &in); err != nil {
			return nil, err
		}
		return a.ForgotPassword(requestContext(ctx), in, s.clientIP(ctx).String())
	}))
	r.POST("/api/auth/reset-password", s.public(func(ctx *fasthttp.RequestCtx) (any, error) {
		var in domain.ResetInput
		if err := decodeJSON(ctx, &in); err != nil {
			return nil, err
		}
		return a.ResetPassword(requestContext(ctx), in)
	}))
	logout := s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		return a.Logout(requestContext(ctx), p)
	})
	r.POST("/api/auth/logout", func(ctx *fasthttp.RequestCtx) {
		// Whatever becomes of the token (already revoked, the server
		// away mid-call): the browser signing out drops the cookie.
		s.clearFirstPageCookie(ctx)
		logout(ctx)
	})
	r.GET("/api/users/me", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		return a.Me(requestContext(ctx), p)
	}))
	r.POST("/api/users/send-email-change-otp", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		var in domain.EmailChangeInput
		if err := decodeJSON(ctx, &in); err != nil {
			return nil, err
		}
		return a.SendEmailChange(requestContext(ctx), p, in)
	}))
	r.POST("/api/users/verify-email-change-otp", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		var in domain.EmailChangeVerifyInput
		if err := decodeJSON(ctx, &in); err != nil {
			return nil, err
		}
		res, err := a.VerifyEmailChange(requestContext(ctx), p, in)
		if err == nil {
			s.signedIn(ctx, res.Token)
		}
		return res, err
	}))
	r.POST("/api/users/send-password-change-otp", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		var in domain.PasswordChangeInput
		if err := decodeJSON(ctx, &in); err != nil {
			return nil, err
		}
		return a.SendPasswordChange(requestContext(ctx), p, in)
	}))
	r.POST("/api/users/verify-password-change-otp", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		var in domain.PasswordChangeVerifyInput
		if err := decodeJSON(ctx, &in); err != nil {
			return nil, err
		}
		res, err := a.VerifyPasswordChange(requestContext(ctx), p, in)
		if err == nil {
			s.signedIn(ctx, res.Token)
		}
		return res, err
	}))
	r.POST("/api/users/send-delete-account-otp", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		return a.SendDeleteAccount(requestContext(ctx), p)
	}))
	r.POST("/api/users/verify-delete-account-otp", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		var in domain.DeleteAccountVerifyInput
		if err := decodeJSON(ctx, &in); err != nil {
			return nil, err
		}
		res, err := a.VerifyDeleteAccount(requestContext(ctx), p, in)
		if err == nil {
			s.clearFirstPageCookie(ctx)
		}
		return res, err
	}))
}
