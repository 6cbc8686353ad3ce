package httpapi

import (
	"bytes"
	"io"
	"mime/multipart"

	"github.com/google/uuid"
	"github.com/valyala/fasthttp"

	"campus/app"
	"campus/domain"
)

// Upload limits of POST /posts (docs/architecture.md §10): three images of 5 MB and the
// form around them. The server-wide body cap is the same size, so this is
// what a too-big upload meets first; JSON routes have their own 64 KiB.
const maxPostUpload = maxRequestBody

// postRoutes are the post, comment and like calls of docs/product.md §7.5.
func (s *Server) postRoutes() {
	a := s.deps.Posts
	if a == nil {
		return
	}
	r := s.router
	r.POST("/api/posts", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		in, images, closeAll, err := postForm(ctx)
		defer closeAll()
		if err != nil {
			return nil, err
		}
		res, err := a.Create(requestContext(ctx), p, in, images)
		if err == nil {
			created(ctx)
		}
		return res, err
	}))
	r.GET("/api/posts/feed", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		limit, cursor := pageQuery(ctx)
		return a.Feed(requestContext(ctx), p, limit, cursor)
	}))
	r.GET("/api/posts/user/{id}", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, err := pathID(ctx, "id", "User not found")
		if err != nil {
			return nil, err
		}
		limit, cursor := pageQuery(ctx)
		return a.UserPosts(requestContext(ctx), p, id, limit, cursor)
	}))
	r.GET("/api/posts/{id}", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, err := pathID(ctx, "id", domain.MsgPostNotFound)
		if err != nil {
			return nil, err
		}
		return a.Get(requestContext(ctx), p, id)
	}))
	r.PUT("/api/posts/{id}", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, err := pathID(ctx, "id", domain.MsgPostNotFound)
		if err != nil {
			return nil, err
		}
		var in domain.PostEditInput
		if err := decodeJSON(ctx, &in); err != nil {
			return nil, err
		}
		return a.Update(requestContext(ctx), p, id, in)
	}))
	r.DELETE("/api/posts/{id}", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, err := pathID(ctx, "id", domain.MsgPostNotFound)
		if err != nil {
			return nil, err
		}
		return a.Delete(requestContext(ctx), p, id)
	}))
	r.GET("/api/posts/{id}/comments", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, err := pathID(ctx, "id", domain.MsgPostNotFound)
		if err != nil {
			return nil, err
		}
		limit, cursor := pageQuery(ctx)
		return a.Comments(requestContext(ctx), p, id, limit, cursor)
	}))
	r.POST("/api/posts/{id}/comments", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, err := pathID(ctx, "id", domain.MsgPostNotFound)
		if err != nil {
			return nil, err
		}
		var in domain.CommentInput
		if err := decodeJSON(ctx, &in); err != nil {
			return nil, err
		}
		res, err := a.AddComment(requestContext(ctx), p, id, in)
		if err == nil {
			created(ctx)
		}
		return res, err
	}))
	r.DELETE("/api/posts/{id}/comments/{cid}", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, err := pathID(ctx, "id", domain.MsgPostNotFound)
		if err != nil {
			return nil, err
		}
		cid, err := pathID(ctx, "cid", domain.MsgCommentGone)
		if err != nil {
			return nil, err
		}
		return a.DeleteComment(requestContext(ctx), p, id, cid)
	}))
	like := func(action domain.LikeAction) fasthttp.RequestHandler {
		return s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
			id, err := pathID(ctx, "id", domain.MsgPostNotFound)
			if err != nil {
				return nil, err
			}
			// The request id is the client's X-Request-Id when it sent one,
			// the same on each of its retries: a retry joins the original.
			return a.Like(requestContext(ctx), p, id, action, requestID(ctx))
		})
	}
	r.POST("/api/posts/{id}/like", like(domain.Like))
	r.DELETE("/api/posts/{id}/like", like(domain.Unlike))
	r.PATCH("/api/posts/{id}/like", like(domain.ToggleLike))
	s.bookmarkRoutes()
}

// bookmarkRoutes are saving posts (private to the reader) and reposting
// them: PUT/DELETE /posts/{id}/bookmark, GET /me/bookmarks, POST/DELETE
// /posts/{id}/repost. Each is idempotent.
func (s *Server) bookmarkRoutes() {
	a, r := s.deps.Posts, s.router
	onPost := func(do func(ctx *fasthttp.RequestCtx, p app.Principal, id uuid.UUID) (any, error)) fasthttp.RequestHandler {
		return s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
			id, err := pathID(ctx, "id", domain.MsgPostNotFound)
			if err != nil {
				return nil, err
			}
			return do(ctx, p, id)
		})
	}
	r.PUT("/api/posts/{id}/bookmark", onPost(func(ctx *fasthttp.RequestCtx, p app.Principal, id uuid.UUID) (any, error) {
		return a.Save(requestContext(ctx), p, id)
	}))
	r.DELETE("/api/posts/{id}/bookmark", onPost(func(ctx *fasthttp.RequestCtx, p app.Principal, id uuid.UUID) (any, error) {
		return a.Unsave(requestContext(ctx), p, id)
	}))
	r.GET("/api/me/bookmarks", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		limit, cursor := pageQuery(ctx)
		return a.Saved(requestContext(ctx), p, limit, cursor)
	}))
	r.POST("/api/posts/{id}/repost", onPost(func(ctx *fasthttp.RequestCtx, p app.Principal, id uuid.UUID) (any, error) {
		var in domain.RepostInput
		if err := decodeJSON(ctx, &in); err != nil {
			return nil, err
		}
		return a.Repost(requestContext(ctx), p, id, in)
	}))
	r.DELETE("/api/posts/{id}/repost", onPost(func(ctx *fasthttp.RequestCtx, p app.Principal, id uuid.UUID) (any, error) {
		return a.Unrepost(requestContext(ctx), p, id)
	}))
}

// postForm reads a new post: JSON {content, visibility}, or multipart with
// the fields content and visibility, up to three files in images (docs/product.md
// §7.5) and their descriptions in imageAlts, once per image in order. The returned closer releases the opened files.
func postForm(ctx *fasthttp.RequestCtx) (domain.PostInput, []io.Reader, func(), error) {
	var in domain.PostInput
	noop := func() {}
	ct := bytes.ToLower(ctx.Request.Header.ContentType())
	if !bytes.HasPrefix(ct, []byte("multipart/form-data")) {
		return in, nil, noop, decodeJSON(ctx, &in)
	}
	if len(ctx.PostBody()) > maxPostUpload {
		return in, nil, noop, errBodyTooLarge
	}
	form, err := ctx.MultipartForm()
	if err != nil {
		return in, nil, noop, domain.Invalid("Malformed upload")
	}
	if in.Content, err = formText(form, "content"); err != nil {
		return in, nil, noop, err
	}
	if in.Visibility, err = formText(form, "visibility"); err != nil {
		return in, nil, noop, err
	}
	if in.GroupID, err = formText(form, "groupId"); err != nil {
		return in, nil, noop, err
	}
	// One description per image, in the images' order (domain checks them).
	in.ImageAlts = form.Value["imageAlts"]
	for _, alt := range in.ImageAlts {
		if !domain.ValidText(alt) {
			return in, nil, noop, domain.InvalidText("imageAlts")
		}
	}
	images, closeAll, err := formFiles(form, "images")
	if err != nil {
		return in, nil, noop, err
	}
	return in, images, closeAll, nil
}

// formFiles opens the files of a multipart field, in order; the closer
// releases them.
func formFiles(form *multipart.Form, field string) ([]io.Reader, func(), error) {
	headers := form.File[field]
	var files []multipart.File
	closeAll := func() {
		for _, f := range files {
			_ = f.Close()
		}
	}
	images := make([]io.Reader, 0, len(headers))
	for _, h := range headers {
		f, err := h.Open()
		if err != nil {
			closeAll()
			return nil, func() {}, domain.Invalid("Malformed upload")
		}
		files = append(files, f)
		images = append(images, f)
	}
	return images, closeAll, nil
}

// formText is the first value of a multipart text field, refused as
// decodeJSON refuses a JSON string when it cannot be stored as text.
func formText(form *multipart.Form, field string) (string, error) {
	vs := form.Value[field]
	if len(vs) == 0 {
		return "", nil
	}
	if !domain.ValidText(vs[0]) {
		return "", domain.InvalidText(field)
	}
	return vs[0], nil
}
