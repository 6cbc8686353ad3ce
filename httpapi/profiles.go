package httpapi

import (
	"bytes"
	"errors"
	"io"

	"github.com/valyala/fasthttp"

	"campus/app"
	"campus/domain"
)

const msgUserNotFound = "User not found"

// profileRoutes are both profile families over the same data: docs/product.md §7.2
// (/users, besides GET /users/me and search) and §7.3 (/profile).
func (s *Server) profileRoutes() {
	a := s.deps.Profiles
	if a == nil {
		return
	}
	r := s.router

	r.PATCH("/api/users/me", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		var in domain.ProfileInput
		if err := decodeJSON(ctx, &in); err != nil {
			return nil, err
		}
		return a.UpdateMe(requestContext(ctx), p, in)
	}))
	r.GET("/api/users/{id}", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, err := pathID(ctx, "id", msgUserNotFound)
		if err != nil {
			return nil, err
		}
		return a.User(requestContext(ctx), p, id)
	}))
	r.POST("/api/users/avatar", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		return withImage(ctx, "avatar", func(f io.Reader) (any, error) { return a.UploadAvatar(requestContext(ctx), p, f) })
	}))
	r.POST("/api/users/cover-photo", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		return withImage(ctx, "coverPhoto", func(f io.Reader) (any, error) { return a.UploadCover(requestContext(ctx), p, f) })
	}))

	r.GET("/api/profile/me", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		return a.Me(requestContext(ctx), p)
	}))
	r.GET("/api/profile/{id}", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, err := pathID(ctx, "id", msgUserNotFound)
		if err != nil {
			return nil, err
		}
		return a.Profile(requestContext(ctx), p, id)
	}))
	r.PATCH("/api/profile", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		var in domain.ProfileInput
		if err := decodeJSON(ctx, &in); err != nil {
			return nil, err
		}
		return a.UpdateProfile(requestContext(ctx), p, in)
	}))
	r.POST("/api/profile/avatar", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		return withImage(ctx, "avatar", func(f io.Reader) (any, error) { return a.UploadAvatar(requestContext(ctx), p, f) })
	}))
	r.POST("/api/profile/cover", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		return withImage(ctx, "coverPhoto", func(f io.Reader) (any, error) { return a.UploadCover(requestContext(ctx), p, f) })
	}))
	// The PUT calls replace one section. Education comes as the block itself
	// or wrapped in {education}; experience as a list or {experience};
	// skills as {skills} (or a bare list).
	r.PUT("/api/profile/education", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		var in domain.ProfileInput
		if err := decodeJSON(ctx, &in); err != nil {
			return nil, err
		}
		if in.Education == nil {
			var e domain.EducationInput
			if err := decodeJSON(ctx, &e); err != nil {
				return nil, err
			}
			in.Education = &e
		}
		return a.UpdateSection(requestContext(ctx), p, domain.SectionEducation, in)
	}))
	r.PUT("/api/profile/experience", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		var in domain.ProfileInput
		if err := decodeSection(ctx, &in, &in.Experience); err != nil {
			return nil, err
		}
		return a.UpdateSection(requestContext(ctx), p, domain.SectionExperience, in)
	}))
	r.PUT("/api/profile/skills", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		var in domain.ProfileInput
		if err := decodeSection(ctx, &in, &in.Skills); err != nil {
			return nil, err
		}
		return a.UpdateSection(requestContext(ctx), p, domain.SectionSkills, in)
	}))
	r.POST("/api/profile/setup", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		var in domain.ProfileSetupInput
		if err := decodeJSON(ctx, &in); err != nil {
			return nil, err
		}
		return a.Setup(requestContext(ctx), p, in)
	}))
	r.POST("/api/profile/{id}/like", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, err := pathID(ctx, "id", msgUserNotFound)
		if err != nil {
			return nil, err
		}
		return a.Like(requestContext(ctx), p, id)
	}))
	r.POST("/api/profile/{id}/unlike", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, err := pathID(ctx, "id", msgUserNotFound)
		if err != nil {
			return nil, err
		}
		return a.Unlike(requestContext(ctx), p, id)
	}))
}

// decodeSection reads a body that is either an object holding the section
// (decoded into in) or the section's bare JSON array (decoded into list).
func decodeSection[T any](ctx *fasthttp.RequestCtx, in *domain.ProfileInput, list **[]T) error {
	if body := bytes.TrimSpace(ctx.PostBody()); len(body) > 0 && body[0] == '[' {
		var items []T
		if err := decodeJSON(ctx, &items); err != nil {
			return err
		}
		*list = &items
		return nil
	}
	return decodeJSON(ctx, in)
}

// withImage hands the first file of the multipart field to fn; fn gets a
// nil reader when the request carries none, and the app answers which
// field was missing. Only the first selected file counts (docs/product.md §5).
func withImage(ctx *fasthttp.RequestCtx, field string, fn func(io.Reader) (any, error)) (any, error) {
	if !bytes.HasPrefix(bytes.ToLower(ctx.Request.Header.ContentType()), []byte("multipart/form-data")) {
		return fn(nil)
	}
	fh, err := ctx.FormFile(field)
	if errors.Is(err, fasthttp.ErrMissingFile) {
		return fn(nil)
	}
	if err != nil {
		return nil, domain.InvalidField(field, "The upload could not be read. Please try again.")
	}
	f, err := fh.Open()
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // read-only: nothing to lose
	return fn(f)
}
