package httpapi

import (
	"bytes"
	"io"
	"strconv"
	"strings"

	"github.com/google/uuid"
	"github.com/valyala/fasthttp"

	"campus/app"
	"campus/domain"
)

// messageRoutes are the conversations and messages calls (issue 29; the
// README's API list and docs/protocol.md).
func (s *Server) messageRoutes() {
	a := s.deps.Messages
	if a == nil {
		return
	}
	r := s.router
	conv := func(ctx *fasthttp.RequestCtx) (uuid.UUID, error) {
		return pathID(ctx, "id", domain.MsgConversationNotFound)
	}
	r.GET("/api/conversations", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		limit, cursor := pageQuery(ctx)
		return a.List(requestContext(ctx), p, limit, cursor)
	}))
	r.POST("/api/conversations", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		var in domain.ConversationInput
		if err := decodeJSON(ctx, &in); err != nil {
			return nil, err
		}
		v, isNew, err := a.Create(requestContext(ctx), p, in)
		if err == nil && isNew {
			created(ctx)
		}
		return v, err
	}))
	r.GET("/api/conversations/{id}", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, err := conv(ctx)
		if err != nil {
			return nil, err
		}
		return a.Get(requestContext(ctx), p, id)
	}))
	r.PATCH("/api/conversations/{id}", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, err := conv(ctx)
		if err != nil {
			return nil, err
		}
		var in domain.ConversationPatch
		if err := decodeJSON(ctx, &in); err != nil {
			return nil, err
		}
		return a.Update(requestContext(ctx), p, id, in)
	}))
	r.POST("/api/conversations/{id}/members", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, err := conv(ctx)
		if err != nil {
			return nil, err
		}
		var in struct {
			UserIDs []string `json:"userIds"`
		}
		if err := decodeJSON(ctx, &in); err != nil {
			return nil, err
		}
		return a.AddMembers(requestContext(ctx), p, id, in.UserIDs)
	}))
	r.DELETE("/api/conversations/{id}/members/{userId}", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, err := conv(ctx)
		if err != nil {
			return nil, err
		}
		user, err := pathID(ctx, "userId", domain.MsgNotAMember)
		if err != nil {
			return nil, err
		}
		return a.RemoveMember(requestContext(ctx), p, id, user)
	}))
	r.GET("/api/conversations/{id}/messages", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, err := conv(ctx)
		if err != nil {
			return nil, err
		}
		args := ctx.QueryArgs()
		before, err := seqQuery(args.Peek("beforeSeq"), "beforeSeq", 0)
		if err != nil {
			return nil, err
		}
		after, err := seqQuery(args.Peek("afterSeq"), "afterSeq", -1)
		if err != nil {
			return nil, err
		}
		return a.Messages(requestContext(ctx), p, id, before, after, args.GetUintOrZero("limit"))
	}))
	r.POST("/api/conversations/{id}/messages", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, err := conv(ctx)
		if err != nil {
			return nil, err
		}
		in, images, closeAll, err := messageForm(ctx)
		defer closeAll()
		if err != nil {
			return nil, err
		}
		v, isNew, err := a.Send(requestContext(ctx), p, id, in, images)
		if err == nil && isNew {
			created(ctx)
		}
		return v, err
	}))
	r.PATCH("/api/conversations/{id}/messages/{seq}", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, seq, err := convSeq(ctx)
		if err != nil {
			return nil, err
		}
		var in domain.MessageEditInput
		if err := decodeJSON(ctx, &in); err != nil {
			return nil, err
		}
		return a.Edit(requestContext(ctx), p, id, seq, in)
	}))
	r.DELETE("/api/conversations/{id}/messages/{seq}", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, seq, err := convSeq(ctx)
		if err != nil {
			return nil, err
		}
		return a.Unsend(requestContext(ctx), p, id, seq)
	}))
	r.PUT("/api/conversations/{id}/messages/{seq}/reaction", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, seq, err := convSeq(ctx)
		if err != nil {
			return nil, err
		}
		var in domain.ReactionInput
		if err := decodeJSON(ctx, &in); err != nil {
			return nil, err
		}
		return a.React(requestContext(ctx), p, id, seq, in)
	}))
	r.DELETE("/api/conversations/{id}/messages/{seq}/reaction", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, seq, err := convSeq(ctx)
		if err != nil {
			return nil, err
		}
		return a.Unreact(requestContext(ctx), p, id, seq)
	}))
	r.POST("/api/conversations/{id}/messages/{seq}/report", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, seq, err := convSeq(ctx)
		if err != nil {
			return nil, err
		}
		var in domain.MessageReportInput
		if err := decodeJSON(ctx, &in); err != nil {
			return nil, err
		}
		res, err := a.Report(requestContext(ctx), p, id, seq, in)
		if err != nil {
			return nil, err
		}
		return map[string]string{"message": res.Message}, nil
	}))
	r.POST("/api/conversations/{id}/read", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, err := conv(ctx)
		if err != nil {
			return nil, err
		}
		var in domain.ReadInput
		if err := decodeJSON(ctx, &in); err != nil {
			return nil, err
		}
		return a.Read(requestContext(ctx), p, id, in)
	}))
	r.GET("/api/users/me/message-settings", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		return a.Settings(requestContext(ctx), p)
	}))
	r.PUT("/api/users/me/message-settings", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		var in domain.MessageSettingsInput
		if err := decodeJSON(ctx, &in); err != nil {
			return nil, err
		}
		return a.SetSettings(requestContext(ctx), p, in)
	}))
}

// convSeq parses the conversation id and the message seq of a path; a
// malformed one answers 404, as nothing can have it.
func convSeq(ctx *fasthttp.RequestCtx) (uuid.UUID, int64, error) {
	id, err := pathID(ctx, "id", domain.MsgConversationNotFound)
	if err != nil {
		return uuid.Nil, 0, err
	}
	raw, _ := ctx.UserValue("seq").(string)
	seq, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || seq < 1 {
		return uuid.Nil, 0, domain.NotFound(domain.MsgMessageNotFound)
	}
	return id, seq, nil
}

// seqQuery reads an optional seq of the query string: def when absent, a
// 400 naming field when it is not a whole number >= 0.
func seqQuery(raw []byte, field string, def int64) (int64, error) {
	if len(raw) == 0 {
		return def, nil
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil || n < 0 {
		return 0, domain.InvalidField(field, domain.MsgBadSeq)
	}
	return n, nil
}

// messageForm reads a send: JSON {clientId, body, replyToSeq}, or multipart
// with those fields, up to four files in images[] (or images) and their
// descriptions in imageAlts, once per image in order. The returned closer
// releases the opened files.
func messageForm(ctx *fasthttp.RequestCtx) (domain.MessageInput, []io.Reader, func(), error) {
	var in domain.MessageInput
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
	if in.ClientID, err = formText(form, "clientId"); err != nil {
		return in, nil, noop, err
	}
	if in.Body, err = formText(form, "body"); err != nil {
		return in, nil, noop, err
	}
	reply, err := formText(form, "replyToSeq")
	if err != nil {
		return in, nil, noop, err
	}
	if reply = strings.TrimSpace(reply); reply != "" {
		n, err := strconv.ParseInt(reply, 10, 64)
		if err != nil {
			return in, nil, noop, domain.InvalidField("replyToSeq", domain.MsgBadReplyTo)
		}
		in.ReplyToSeq = &n
	}
	in.ImageAlts = form.Value["imageAlts"]
	for _, alt := range in.ImageAlts {
		if !domain.ValidText(alt) {
			return in, nil, noop, domain.InvalidText("imageAlts")
		}
	}
	field := "images[]"
	if len(form.File[field]) == 0 {
		field = "images"
	}
	if n := len(form.File[field]); n > domain.MaxMessageImages {
		// Refused before any file is read.
		return in, nil, noop, domain.InvalidField("images", domain.MsgTooManyMessageImages)
	}
	images, closeAll, err := formFiles(form, field)
	if err != nil {
		return in, nil, noop, err
	}
	return in, images, closeAll, nil
}
