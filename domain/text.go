package domain

import (
	"strings"
	"unicode/utf8"
)

// MsgBadText answers text that cannot be stored: a NUL character or bytes
// that are not UTF-8, which no keyboard types.
const MsgBadText = "Text contains characters that are not allowed."

// ValidText reports whether s can be stored as text. Postgres refuses NUL
// in text and jsonb, and every column holds UTF-8; input that breaks either
// is bad input (400 with MsgBadText), not a failed query (500).
func ValidText(s string) bool {
	return strings.IndexByte(s, 0) < 0 && utf8.ValidString(s)
}

// InvalidText is the 400 for text ValidText refuses; field may be empty
// when the text belongs to no one field.
func InvalidText(field string) *Error {
	if field == "" {
		return Invalid(MsgBadText)
	}
	return InvalidField(field, MsgBadText)
}
