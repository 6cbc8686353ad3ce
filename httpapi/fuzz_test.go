package httpapi

import (
	"errors"
	"testing"

	"github.com/valyala/fasthttp"

	"campus/domain"
)

// bodyDecoders decode a body into each account request type and validate
// it, as the handlers do. Later areas append theirs.
var bodyDecoders = map[string]func(*fasthttp.RequestCtx) error{
	"signup": func(c *fasthttp.RequestCtx) error {
		var in domain.SignupInput
		if err := decodeJSON(c, &in); err != nil {
			return err
		}
		_, err := in.Validate()
		return err
	},
	"login": func(c *fasthttp.RequestCtx) error {
		var in domain.LoginInput
		if err := decodeJSON(c, &in); err != nil {
			return err
		}
		_, err := in.Validate()
		return err
	},
	"verify": func(c *fasthttp.RequestCtx) error {
		var in domain.VerifyInput
		if err := decodeJSON(c, &in); err != nil {
			return err
		}
		_, err := in.Validate()
		return err
	},
	"resend": func(c *fasthttp.RequestCtx) error {
		var in domain.ResendInput
		if err := decodeJSON(c, &in); err != nil {
			return err
		}
		_, err := in.Validate()
		return err
	},
	"forgot": func(c *fasthttp.RequestCtx) error {
		var in domain.ForgotInput
		if err := decodeJSON(c, &in); err != nil {
			return err
		}
		_, err := in.Validate()
		return err
	},
	"reset": func(c *fasthttp.RequestCtx) error {
		var in domain.ResetInput
		if err := decodeJSON(c, &in); err != nil {
			return err
		}
		_, err := in.Validate()
		return err
	},
	"email change": func(c *fasthttp.RequestCtx) error {
		var in domain.EmailChangeVerifyInput
		if err := decodeJSON(c, &in); err != nil {
			return err
		}
		_, err := in.Validate("current@uni.edu")
		return err
	},
	"password change": func(c *fasthttp.RequestCtx) error {
		var in domain.PasswordChangeVerifyInput
		if err := decodeJSON(c, &in); err != nil {
			return err
		}
		_, err := in.Validate()
		return err
	},
	"password change send": func(c *fasthttp.RequestCtx) error {
		var in domain.PasswordChangeInput
		if err := decodeJSON(c, &in); err != nil {
			return err
		}
		return in.Validate()
	},
	"delete": func(c *fasthttp.RequestCtx) error {
		var in domain.DeleteAccountVerifyInput
		if err := decodeJSON(c, &in); err != nil {
			return err
		}
		_, err := in.Validate()
		return err
	},
}

// FuzzRequestBodies feeds arbitrary bytes to every request body decoder:
// none may panic, and every rejection must be a user-facing *domain.Error
// (so it is answered 4xx with a clear message, never a 500).
func FuzzRequestBodies(f *testing.F) {
	for _, seed := range []string{
		`{}`, `{"name":"A","email":"a@b.co","password":"Str0ng!pass","role":"student","collegeId":"AAA/BBB/20/1"}`,
		`{"email":"a@b.co","otp":"123456","newPassword":"x","confirmPassword":null}`, `[]`, `null`, `"x"`,
		`{"role":7}`, `{"email":"` + "\xff\xfe" + `"}`, `{"a":[[[[[[[[]]]]]]]]}`, `{"otp":"１２３４５６"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		for name, decode := range bodyDecoders {
			var ctx fasthttp.RequestCtx
			ctx.Request.SetBody(body)
			ctx.Request.Header.SetContentType("application/json")
			err := decode(&ctx)
			var de *domain.Error
			if err != nil && !errors.As(err, &de) {
				t.Fatalf("%s: non-user error %T %v for %q", name, err, err, body)
			}
		}
	})
}
