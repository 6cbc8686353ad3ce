package domain

import "unicode/utf8"

// Password length limits. The maximum keeps hashing cheap and predictable;
// a longer password is refused, never silently truncated.
const (
	MinPasswordLength = 8
	MaxPasswordLength = 128
)

// Password messages.
const (
	MsgPasswordRequired = "Password is required"
	MsgPasswordTooShort = "Password must be at least 8 characters long"
	MsgPasswordTooLong  = "Password must be at most 128 characters long"
	MsgPasswordTooWeak  = "Password is too weak. Use at least 8 characters including uppercase, lowercase, numbers, and special characters."
)

// Strength grades a password as the reset screen's meter does (docs/product.md §5).
type Strength int

// The grades, weakest first so they compare with <.
const (
	Weak Strength = iota
	Medium
	Strong
)

// String names the grade as the meter shows it.
func (s Strength) String() string {
	switch s {
	case Medium:
		return "Medium"
	case Strong:
		return "Strong"
	}
	return "Weak"
}

// PasswordStrength grades p: under 8 characters is weak; otherwise count the
// classes present among uppercase, lowercase, digit and special: fewer than 2
// is weak, 2 or 3 medium, 4 strong. The classes are ASCII ones, like the
// client's meter, so both sides agree; any other character is "special".
func PasswordStrength(p string) Strength {
	if utf8.RuneCountInString(p) < MinPasswordLength {
		return Weak
	}
	var upper, lower, digit, special bool
	for _, r := range p {
		switch {
		case r >= 'A' && r <= 'Z':
			upper = true
		case r >= 'a' && r <= 'z':
			lower = true
		case r >= '0' && r <= '9':
			digit = true
		default:
			special = true
		}
	}
	classes := 0
	for _, present := range []bool{upper, lower, digit, special} {
		if present {
			classes++
		}
	}
	switch {
	case classes < 2:
		return Weak
	case classes < 4:
		return Medium
	}
	return Strong
}

// checkPasswordLength applies the length limits, counting characters rather
// than bytes as a user would.
func checkPasswordLength(field, p string) *Error {
	switch n := utf8.RuneCountInString(p); {
	case n < MinPasswordLength:
		return InvalidField(field, MsgPasswordTooShort)
	case n > MaxPasswordLength:
		return InvalidField(field, MsgPasswordTooLong)
	}
	return nil
}
