package domain

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// MaxEmailLength is the longest address SMTP can carry (RFC 5321 path limit).
const MaxEmailLength = 254

// emailPattern is what "looks like an e-mail address" means (docs/product.md
// §5): something, an @, something, a dot, something, and no white space
// anywhere.
var emailPattern = regexp.MustCompile(`^[^\s@]+@[^\s@]+\.[^\s@]+$`)

// IsEmail reports whether s looks like an e-mail address (docs/product.md §5). It is the
// test that tells an e-mail from a university ID in login, forgot and reset.
func IsEmail(s string) bool { return emailPattern.MatchString(s) }

// validEmail is IsEmail plus a length cap, for addresses we are about to store.
func validEmail(s string) bool { return len(s) <= MaxEmailLength && IsEmail(s) }

// NormalizeEmail trims and lower-cases an address so that lookups and the
// uniqueness check do not depend on how the user typed it.
func NormalizeEmail(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// NormalizeUniversityID trims and upper-cases a university ID; IDs are
// printed in capitals (BWU/BCA/20/123) but people type them in any case.
func NormalizeUniversityID(s string) string { return strings.ToUpper(strings.TrimSpace(s)) }

// IdentifierKind says which account field an identifier names.
type IdentifierKind int

// The kinds of identifier. The zero value means no identifier was given.
const (
	IdentEmail IdentifierKind = iota + 1
	IdentUniversityID
)

// Identifier is a normalized login name: an e-mail or a university ID.
type Identifier struct {
	Kind  IdentifierKind
	Value string
}

// IsZero reports whether no identifier was given.
func (i Identifier) IsZero() bool { return i.Value == "" }

// Identify classifies what a user typed into the identifier box and
// normalizes it: e-mails lower-cased, university IDs upper-cased.
func Identify(identifier string) Identifier {
	s := strings.TrimSpace(identifier)
	switch {
	case s == "":
		return Identifier{}
	case IsEmail(s):
		return Identifier{Kind: IdentEmail, Value: strings.ToLower(s)}
	default:
		return Identifier{Kind: IdentUniversityID, Value: strings.ToUpper(s)}
	}
}

// IdentifierFrom picks the identifier out of a login, forgot or reset body,
// which carries either an email or a universityId field (docs/product.md §7.1). The value
// is classified again, so a university ID typed into the email field is still
// treated as a university ID.
func IdentifierFrom(email, universityID string) Identifier {
	if strings.TrimSpace(email) != "" {
		return Identify(email)
	}
	return Identify(universityID)
}

// MaskEmail hides an address for code prompts (docs/product.md §2.16): the first two
// characters of the local part, then ***, then the domain, so the user can
// recognise the mailbox without it being readable over a shoulder. A local
// part of two characters or fewer keeps one character less, so it is never
// shown whole.
func MaskEmail(email string) string {
	email = strings.TrimSpace(email)
	if email == "" {
		return ""
	}
	local, domain, found := strings.Cut(email, "@")
	keep := max(min(2, utf8.RuneCountInString(local)-1), 0)
	prefix := string([]rune(local)[:keep])
	if !found {
		return prefix + "***"
	}
	return prefix + "***@" + domain
}
