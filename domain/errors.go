// Package domain holds Campus's entities and rules: validation, the error
// catalogue, university-ID parsing, OTP and password policy, search ordering.
// It is pure: no I/O and no imports of other Campus packages.
package domain

import (
	"errors"
	"strings"
)

// Kind classifies an error for the transport layer; httpapi maps each kind to
// one HTTP status in one place.
type Kind int

// The kinds of user-facing error. The zero value is not a valid kind.
const (
	KindInvalid      Kind = iota + 1 // 400: bad input
	KindUnauthorized                 // 401: no or invalid credentials/token
	KindForbidden                    // 403: authenticated but not allowed
	KindNotFound                     // 404
	KindConflict                     // 409: duplicate
	KindTooLarge                     // 413
	KindUnsupported                  // 415: wrong media type
	KindTooMany                      // 429: rate limited
	KindUnavailable                  // 503: overloaded or a dependency is down; retry later
)

// FieldError names one offending input field and what is wrong with it.
type FieldError struct {
	Field string `json:"field"`
	Msg   string `json:"msg"`
}

// Error is an error whose Message is safe to show to the user as written.
// Anything that is not an *Error reaching the transport is an internal error
// and is answered with a generic message.
type Error struct {
	Kind       Kind
	Message    string
	Fields     []FieldError
	RetryAfter int // seconds; set with KindTooMany and KindUnavailable
}

func (e *Error) Error() string {
	if e.Message == "" {
		return kindNames[e.Kind]
	}
	return e.Message
}

// Is makes errors.Is(err, domain.ErrNotFound) (and the other sentinels) match
// any *Error of the same kind, whatever its message.
func (e *Error) Is(target error) bool {
	var t *Error
	if !errors.As(target, &t) {
		return false
	}
	return t.Message == "" && t.Kind == e.Kind
}

var kindNames = map[Kind]string{
	KindInvalid:      "invalid request",
	KindUnauthorized: "unauthorized",
	KindForbidden:    "forbidden",
	KindNotFound:     "not found",
	KindConflict:     "conflict",
	KindTooLarge:     "too large",
	KindUnsupported:  "unsupported media type",
	KindTooMany:      "too many requests",
	KindUnavailable:  "service unavailable",
}

// Sentinels for errors.Is checks. They carry no message; constructors below
// build the messages users see.
var (
	ErrInvalid      = &Error{Kind: KindInvalid}
	ErrUnauthorized = &Error{Kind: KindUnauthorized}
	ErrForbidden    = &Error{Kind: KindForbidden}
	ErrNotFound     = &Error{Kind: KindNotFound}
	ErrConflict     = &Error{Kind: KindConflict}
	ErrTooLarge     = &Error{Kind: KindTooLarge}
	ErrUnsupported  = &Error{Kind: KindUnsupported}
	ErrTooMany      = &Error{Kind: KindTooMany}
	ErrUnavailable  = &Error{Kind: KindUnavailable}
)

// Invalid is a 400 with a message and optional field errors.
func Invalid(msg string, fields ...FieldError) *Error {
	return &Error{Kind: KindInvalid, Message: msg, Fields: fields}
}

// InvalidField is a 400 naming one field; the message is the field's message.
func InvalidField(field, msg string) *Error {
	return &Error{Kind: KindInvalid, Message: msg, Fields: []FieldError{{Field: field, Msg: msg}}}
}

// Unauthorized is a 401.
func Unauthorized(msg string) *Error { return &Error{Kind: KindUnauthorized, Message: msg} }

// Forbidden is a 403.
func Forbidden(msg string) *Error { return &Error{Kind: KindForbidden, Message: msg} }

// NotFound is a 404.
func NotFound(msg string) *Error { return &Error{Kind: KindNotFound, Message: msg} }

// Conflict is a 409.
func Conflict(msg string) *Error { return &Error{Kind: KindConflict, Message: msg} }

// TooLarge is a 413.
func TooLarge(msg string) *Error { return &Error{Kind: KindTooLarge, Message: msg} }

// Unsupported is a 415.
func Unsupported(msg string) *Error { return &Error{Kind: KindUnsupported, Message: msg} }

// TooMany is a 429 telling the caller when to retry.
func TooMany(msg string, retryAfterSeconds int) *Error {
	return &Error{Kind: KindTooMany, Message: msg, RetryAfter: retryAfterSeconds}
}

// MsgUnavailable is what an overloaded node, or one whose database is
// gone, answers: the request did nothing and can be sent again.
const MsgUnavailable = "The service is busy. Please try again in a moment."

// Unavailable is a 503 telling the caller when to retry: the request was not
// carried out (a full queue, a commit that could not happen in time, the
// database unreachable) and sending it again is safe.
func Unavailable(msg string, retryAfterSeconds int) *Error {
	if msg == "" {
		msg = MsgUnavailable
	}
	if retryAfterSeconds < 1 {
		retryAfterSeconds = 1
	}
	return &Error{Kind: KindUnavailable, Message: msg, RetryAfter: retryAfterSeconds}
}

// ErrWriteFailed is a write that was not carried out because the node was
// busy: a post grain's full queue, or a batch transaction that failed. Nothing
// was written and sending the request again is safe (503 with Retry-After).
// Callers test for it with errors.Is; it lives here, not beside the grains, so
// that the app layer can recognise it without linking the actor system.
var ErrWriteFailed error = Unavailable("", 1)

// Join collects field errors into one 400 whose message is the first field's.
// It returns nil when there are none.
func Join(fields []FieldError) error {
	if len(fields) == 0 {
		return nil
	}
	return &Error{Kind: KindInvalid, Message: fields[0].Msg, Fields: fields}
}

// Describe returns a short text for logs: kind and message.
func Describe(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return strings.TrimSpace(kindNames[e.Kind] + ": " + e.Message)
	}
	return err.Error()
}
