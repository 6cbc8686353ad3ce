package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/valyala/fasthttp"

	"campus/app"
	"campus/domain"
)

// Limits on JSON request bodies (docs/architecture.md §10): size per route and nesting depth.
const (
	maxJSONBody  = 64 << 10
	maxJSONDepth = 32
)

type successBody struct {
	Status string `json:"status"`
	Data   any    `json:"data"`
}

type errorBody struct {
	Status     string              `json:"status"`
	Message    string              `json:"message"`
	Errors     []domain.FieldError `json:"errors,omitempty"`
	RetryAfter int                 `json:"retryAfter,omitempty"`
}

// jsonAppender is a value that encodes itself, exactly as json.Marshal
// would but without reflection (app.PostPage: the feed).
type jsonAppender interface {
	AppendJSON(b []byte) []byte
}

// jsonBufs are the buffers appended answers are built in.
var jsonBufs = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

// writeData answers the success envelope with the status already set on ctx
// (200 unless the handler chose another).
func writeData(ctx *fasthttp.RequestCtx, data any) {
	if data == nil {
		data = struct{}{}
	}
	if a, ok := data.(jsonAppender); ok {
		bp := jsonBufs.Get().(*[]byte)
		b := append((*bp)[:0], `{"status":"success","data":`...)
		b = append(a.AppendJSON(b), '}')
		ctx.SetContentType("application/json; charset=utf-8")
		// The response takes the buffer (no copy of a page of JSON) and
		// hands back its previous one, which goes to the pool instead.
		old := ctx.Response.SwapBody(b)
		if cap(old) >= 4<<10 && cap(old) <= 256<<10 {
			*bp = old[:0]
			jsonBufs.Put(bp)
		}
		return
	}
	writeJSON(ctx, successBody{Status: "success", Data: data})
}

func writeJSON(ctx *fasthttp.RequestCtx, v any) {
	buf, err := json.Marshal(v)
	if err != nil {
		// Our own types always marshal; reaching here is a programming error.
		ctx.SetStatusCode(fasthttp.StatusInternalServerError)
		buf = []byte(`{"status":"error","message":"Internal server error"}`)
	}
	ctx.SetContentType("application/json; charset=utf-8")
	ctx.SetBody(buf)
}

// statusOf is the one place that maps error kinds to HTTP statuses.
var statusOf = map[domain.Kind]int{
	domain.KindInvalid:      fasthttp.StatusBadRequest,
	domain.KindUnauthorized: fasthttp.StatusUnauthorized,
	domain.KindForbidden:    fasthttp.StatusForbidden,
	domain.KindNotFound:     fasthttp.StatusNotFound,
	domain.KindConflict:     fasthttp.StatusConflict,
	domain.KindTooLarge:     fasthttp.StatusRequestEntityTooLarge,
	domain.KindUnsupported:  fasthttp.StatusUnsupportedMediaType,
	domain.KindTooMany:      fasthttp.StatusTooManyRequests,
	domain.KindUnavailable:  fasthttp.StatusServiceUnavailable,
}

// writeError answers the error envelope. A *domain.Error's message is safe to
// show; anything else is logged by the caller's access log and answered with
// a generic 500 so internals never leak.
func writeError(ctx *fasthttp.RequestCtx, err error) {
	var de *domain.Error
	if !errors.As(err, &de) && transient(err) {
		// A deadline that ran out or a request the node shed did nothing
		// that needs undoing: the caller may send it again (docs/protocol.md §1.4).
		de = domain.Unavailable("", 1)
	}
	if de != nil {
		status, ok := statusOf[de.Kind]
		if !ok {
			status = fasthttp.StatusInternalServerError
		}
		msg := de.Message
		if msg == "" {
			msg = fasthttp.StatusMessage(status)
		}
		if de.RetryAfter > 0 {
			ctx.Response.Header.Set("Retry-After", strconv.Itoa(de.RetryAfter))
		}
		ctx.SetStatusCode(status)
		writeJSON(ctx, errorBody{Status: "error", Message: msg, Errors: de.Fields, RetryAfter: de.RetryAfter})
		return
	}
	ctx.SetUserValue(ctxKeyInternalErr, err)
	ctx.SetStatusCode(fasthttp.StatusInternalServerError)
	writeJSON(ctx, errorBody{Status: "error", Message: "Internal server error"})
}

// transient reports whether err is an overload, a timeout or a dependency
// briefly out of reach (the database restarting: app.IsUnavailable) that
// the caller can retry rather than a fault: 503 + Retry-After, never 500.
func transient(err error) bool {
	return errors.Is(err, context.DeadlineExceeded) || app.IsUnavailable(err)
}

var (
	errBodyTooLarge = domain.TooLarge("Request body is too large")
	errBadJSON      = domain.Invalid("Invalid JSON body")
	errTooDeep      = domain.Invalid("JSON body is nested too deeply")
	errNotJSON      = domain.Unsupported("Content-Type must be application/json")
)

// decodeJSON reads the request body into v, enforcing the JSON body limit and
// depth limit. An empty body decodes as {} so calls without payload work.
func decodeJSON(ctx *fasthttp.RequestCtx, v any) error {
	body := ctx.PostBody()
	if len(body) > maxJSONBody {
		return errBodyTooLarge
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil
	}
	// Any declared type is read as JSON (curl's default form type included),
	// except multipart, which only upload routes take.
	if bytes.HasPrefix(bytes.ToLower(ctx.Request.Header.ContentType()), []byte("multipart/")) {
		return errNotJSON
	}
	if jsonDepth(body) > maxJSONDepth {
		return errTooDeep
	}
	// Checked on the raw body, before any handler sees a string: the
	// decoder turns \u0000 into a NUL that Postgres refuses, and quietly
	// replaces bytes that are not UTF-8.
	if field, bad := badJSONText(body); bad {
		return domain.InvalidText(field)
	}
	if err := json.Unmarshal(body, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return domain.InvalidField(te.Field, "Invalid value for "+te.Field)
		}
		return errBadJSON
	}
	return nil
}

// badJSONText finds the first JSON string in b whose text is not
// domain.ValidText: a NUL (written \u0000; a raw one is invalid JSON) or
// bytes that are not UTF-8. field is where it is, written as the domain
// names fields ("name", "education.degree", "skills[1].name"); for a bad
// key, where the object holding it is. It only scans: malformed JSON is
// the decoder's to report.
func badJSONText(b []byte) (field string, bad bool) {
	var stack []jsonFrame
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '{':
			stack = append(stack, jsonFrame{object: true, wantKey: true})
		case '[':
			stack = append(stack, jsonFrame{})
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case ',':
			if n := len(stack); n > 0 && stack[n-1].object {
				stack[n-1].wantKey = true
			} else if n > 0 {
				stack[n-1].index++
			}
		case '"':
			end, ok := scanJSONString(b, i)
			n := len(stack)
			isKey := n > 0 && stack[n-1].object && stack[n-1].wantKey
			switch {
			case !ok && isKey:
				return jsonPath(stack[:n-1]), true
			case !ok:
				return jsonPath(stack), true
			case isKey:
				stack[n-1].key, stack[n-1].wantKey = b[i+1:end], false
			}
			i = end
		}
	}
	return "", false
}

// jsonFrame is an object or array badJSONText is inside: the key being
// read, or the index of the item.
type jsonFrame struct {
	object, wantKey bool
	key             []byte
	index           int
}

// jsonPath names the value the frames lead to.
func jsonPath(stack []jsonFrame) string {
	var p []byte
	for _, f := range stack {
		switch {
		case !f.object:
			p = append(append(append(p, '['), strconv.Itoa(f.index)...), ']')
		case len(p) > 0:
			p = append(append(p, '.'), jsonKey(f.key)...)
		default:
			p = append(p, jsonKey(f.key)...)
		}
	}
	return string(p)
}

// scanJSONString reads the string whose opening quote is b[i]: end is the
// index of its closing quote (len(b) when unterminated), ok whether its
// text is valid.
func scanJSONString(b []byte, i int) (end int, ok bool) {
	ok = true
	start := i + 1
	for j := start; j < len(b); j++ {
		switch b[j] {
		case '"':
			return j, ok && utf8.Valid(b[start:j])
		case '\\':
			if j+5 < len(b) && b[j+1] == 'u' && string(b[j+2:j+6]) == "0000" {
				ok = false
			}
			j++ // the escaped character cannot end the string
		case 0:
			ok = false
		}
	}
	return len(b), ok && utf8.Valid(b[start:])
}

// jsonKey is a raw object key as text, escapes resolved.
func jsonKey(raw []byte) string {
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw)
	}
	var s string
	if err := json.Unmarshal(append(append([]byte{'"'}, raw...), '"'), &s); err != nil {
		return ""
	}
	return s
}

// jsonDepth is the deepest nesting of objects/arrays in b, ignoring brackets
// inside strings. It runs before decoding so a hostile body cannot make the
// decoder recurse deeply.
func jsonDepth(b []byte) int {
	depth, maxDepth := 0, 0
	inString, escaped := false, false
	for _, c := range b {
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
			if depth > maxDepth {
				maxDepth = depth
			}
		case '}', ']':
			depth--
		}
	}
	return maxDepth
}
