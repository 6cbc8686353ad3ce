package domain

import (
	"strings"
	"time"
)

// One-time code policy (docs/architecture.md §10, docs/product.md §9).
const (
	OTPLength         = 6                // digits
	OTPTTL            = 10 * time.Minute // shown to the user, so keep the e-mail in step
	OTPMaxAttempts    = 5                // wrong tries before the code is dead
	OTPResendCooldown = 60 * time.Second // matches the client's resend countdown
)

// Code messages. MsgOTPFormat is for the auth screens, which accept up to six
// digits; MsgOTPIncomplete is the settings prompt's wording (docs/product.md §5).
const (
	MsgOTPFormat     = "OTP must be 6 digits"
	MsgOTPIncomplete = "Please enter all 6 digits of the OTP."
	MsgInvalidOTP    = "Invalid or expired OTP"
	MsgOTPCooldown   = "Please wait before requesting a new OTP."
	MsgOTPResent     = "A new OTP has been sent to your email."
)

// Purpose binds a code to the one action it was sent for, so a code mailed
// for a password reset cannot delete an account.
type Purpose string

// The five purposes of docs/architecture.md §10.
const (
	PurposeSignup         Purpose = "signup"
	PurposeReset          Purpose = "reset"
	PurposeEmailChange    Purpose = "email_change"
	PurposePasswordChange Purpose = "password_change"
	PurposeDeleteAccount  Purpose = "delete_account"
	// PurposeLinkSignIn proves the address of an account a university
	// sign-in is to be linked to.
	PurposeLinkSignIn Purpose = "link_sign_in"
)

// Purposes lists every purpose, for storage checks and tests.
func Purposes() []Purpose {
	return []Purpose{PurposeSignup, PurposeReset, PurposeEmailChange, PurposePasswordChange, PurposeDeleteAccount,
		PurposeLinkSignIn}
}

// Valid reports whether p is one of the purposes.
func (p Purpose) Valid() bool { return p.Label() != "" }

// Label completes "Use this code to …" in the e-mail that carries the code.
func (p Purpose) Label() string {
	switch p {
	case PurposeSignup:
		return "verify your e-mail address"
	case PurposeReset:
		return "reset your password"
	case PurposeEmailChange:
		return "change your e-mail address"
	case PurposePasswordChange:
		return "change your password"
	case PurposeDeleteAccount:
		return "delete your account"
	case PurposeLinkSignIn:
		return "link your university sign-in to your account"
	}
	return ""
}

// ParseOTP checks a code typed on the auth screens (verify e-mail, reset):
// exactly six digits after trimming surrounding spaces.
func ParseOTP(code string) (string, error) {
	c, err := checkOTP(code, MsgOTPFormat)
	if err != nil {
		return "", err
	}
	return c, nil
}

// ValidOTP checks a code typed into the settings prompts. Fewer than six
// digits gets the prompt's own message; anything else malformed gets
// MsgOTPFormat.
func ValidOTP(code string) error {
	if _, err := checkOTP(code, MsgOTPIncomplete); err != nil {
		return err
	}
	return nil
}

// checkOTP returns the trimmed code or an error; short is the message for a
// code of fewer than six digits.
func checkOTP(code, short string) (string, *Error) {
	c := strings.TrimSpace(code)
	switch {
	case c != "" && !allDigits(c):
		return "", InvalidField("otp", MsgOTPFormat)
	case len(c) < OTPLength:
		return "", InvalidField("otp", short)
	case len(c) > OTPLength:
		return "", InvalidField("otp", MsgOTPFormat)
	}
	return c, nil
}
