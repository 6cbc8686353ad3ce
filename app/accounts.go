package app

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/google/uuid"
	"github.com/rs/zerolog"
	"github.com/uptrace/bun"

	"campus/domain"
	"campus/mail"
	"campus/persistence"
)

// Code lock-out: this many wrong codes on one account within the window
// block code entry until the window passes — across codes, so asking for a
// new code does not buy more guesses (docs/architecture.md §10).
const (
	accountCodeFailures = 10
	accountCodeWindow   = time.Hour
)

// noticeTTL is how long a notice without a code (the old address told of
// an e-mail change) keeps trying to reach its recipient.
const noticeTTL = 24 * time.Hour

var (
	errInvalidCode      = domain.Invalid(domain.MsgInvalidOTP)
	errWrongCredentials = domain.Unauthorized(domain.MsgIncorrectCredentials)
)

// MediaRemover deletes stored files; media.Store implements it.
type MediaRemover interface {
	Delete(key string) error
}

// AccountsDeps are what the account use cases need.
type AccountsDeps struct {
	DB       *bun.DB
	Hasher   *Hasher
	Sessions *Sessions
	// Mail delivers the mail the use cases queue in their transactions;
	// they wake it after each commit.
	Mail       *MailSender
	Media      MediaRemover
	CodeKey    []byte // HMAC key for stored code hashes
	Product    string
	RateLimits bool
	Log        zerolog.Logger
	// NoPasswordSignup and NoPasswordLogin turn the password ways in off
	// (CAMPUS_PASSWORD_SIGNUP=off, CAMPUS_PASSWORD_LOGIN=off): new accounts,
	// or every sign-in, come through a university sign-in, whose name
	// (SSOName) the refusal gives.
	NoPasswordSignup, NoPasswordLogin bool
	SSOName                           string
}

// Accounts is signup, e-mail codes, login, reset and the settings flows.
type Accounts struct {
	d   AccountsDeps
	now func() time.Time
	// Rate limits key on the account or target address first; per-IP limits
	// are generous (a campus NAT puts thousands behind one address).
	loginPerAccount *Limiter
	loginPerIP      *Limiter
	signupPerIP     *Limiter
	codesPerAddress *Limiter
	codesPerIP      *Limiter
	// logoutURL, set by NewSSO, is where logout sends the browser to end
	// the identity provider's session of a token that came from it.
	logoutURL func(ctx context.Context, via string) string
}

// LoginPerIPBurst is how many password logins one address may make at
// once (then twice that a minute). University sign-in does not share it: a
// lecture hall behind one NAT address signs in at once.
const LoginPerIPBurst = 300

// NewAccounts wires the account use cases.
func NewAccounts(d AccountsDeps) *Accounts {
	on := d.RateLimits
	return &Accounts{
		d:               d,
		now:             time.Now,
		loginPerAccount: NewLimiter(10, 15*time.Minute, 10, on),
		loginPerIP:      NewLimiter(2*LoginPerIPBurst, time.Minute, LoginPerIPBurst, on),
		signupPerIP:     NewLimiter(hallPerIP, 10*time.Minute, hallPerIP, on),
		codesPerAddress: NewLimiter(10, time.Hour, 5, on),
		codesPerIP:      NewLimiter(hallPerIP, 10*time.Minute, hallPerIP, on),
	}
}

// hallPerIP is what one address may do of sign-ups, and of code resends and
// password resets, per 10 minutes, all at once if it likes: a lecture hall or
// an event on one campus Wi-Fi is a thousand students behind one NAT address.
// Abuse is stopped by the limits that key on the target (codesPerAddress: a
// few codes an hour to one mailbox) and on the account (loginPerAccount, and
// the brakes on what new accounts may do), not by the address.
const hallPerIP = 1000

// AuthResult is the answer of login and code verification: data.user, data.token.
type AuthResult struct {
	User  UserView `json:"user"`
	Token string   `json:"token"`
}

// MessageResult is the answer of calls that only report what happened.
type MessageResult struct {
	Message string `json:"message"`
}

// SignupResult answers a signup: the address the code went to.
type SignupResult struct {
	Email   string `json:"email"`
	Message string `json:"message"`
}

func tooMany(wait int) error {
	return domain.TooMany("Too many attempts. Please try again later.", wait)
}

// Signup stores an unverified account and queues the e-mail with a code to
// confirm it, in one transaction. A second signup for an address that was
// never verified replaces the first.
func (a *Accounts) Signup(ctx context.Context, in domain.SignupInput, ip string) (SignupResult, error) {
	if a.d.NoPasswordSignup {
		return SignupResult{}, domain.Forbidden(a.ssoOnly("Sign-up with a password is turned off here."))
	}
	s, err := in.Validate()
	if err != nil {
		return SignupResult{}, err
	}
	if ok, wait := a.signupPerIP.Allow(ip); !ok {
		return SignupResult{}, tooMany(wait)
	}
	if ok, wait := a.codesPerAddress.Allow(s.Email); !ok {
		return SignupResult{}, tooMany(wait)
	}
	hash, err := a.d.Hasher.Hash(ctx, s.Password)
	if err != nil {
		return SignupResult{}, err
	}
	u := &persistence.User{
		Name: s.Name, Email: s.Email, PasswordHash: hash, Role: string(s.Role),
		UniversityID: s.UniversityID, CollegeID: s.CollegeID, Department: s.Department,
		Course: s.Program, Batch: s.Batch,
	}
	err = a.d.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		existing, err := persistence.UserByEmail(ctx, tx, s.Email)
		switch {
		case err == nil && !existing.EmailVerifiedAt.IsZero():
			return domain.Conflict(domain.MsgEmailExists)
		case err == nil:
			u.ID = existing.ID
			if _, err := persistence.ReplacePendingUser(ctx, tx, u); err != nil {
				return mapUserConflict(err)
			}
		case errors.Is(err, domain.ErrNotFound):
			u.ID = persistence.NewID()
			if err := persistence.InsertUser(ctx, tx, u); err != nil {
				return mapUserConflict(err)
			}
		default:
			return err
		}
		return a.newCode(ctx, tx, u.ID, s.Email, domain.PurposeSignup)
	})
	if err != nil {
		return SignupResult{}, err
	}
	// The code's mail committed with the account: the answer is the same
	// whether the mail server takes it now or once it is back (issue 14).
	a.d.Mail.Wake()
	a.d.Log.Info().Str("user_id", u.ID.String()).Msg("signup")
	return SignupResult{Email: s.Email, Message: domain.MsgCodeSent}, nil
}

// mapUserConflict turns unique violations on users into the 409s clients
// recognise (docs/product.md §8.2).
func mapUserConflict(err error) error {
	name, ok := persistence.IsUniqueViolation(err)
	switch {
	case !ok:
		return err
	case name == "users_university_id_key":
		return domain.Conflict(domain.MsgUniversityIDExists)
	default:
		return domain.Conflict(domain.MsgEmailExists)
	}
}

// VerifySignup confirms the e-mail with the signup code and signs in.
func (a *Accounts) VerifySignup(ctx context.Context, in domain.VerifyInput) (AuthResult, error) {
	v, err := in.Validate()
	if err != nil {
		return AuthResult{}, err
	}
	u, err := persistence.UserByEmail(ctx, a.d.DB, v.Email)
	if errors.Is(err, domain.ErrNotFound) {
		return AuthResult{}, errInvalidCode
	}
	if err != nil {
		return AuthResult{}, err
	}
	err = a.useCode(ctx, u, v.Email, domain.PurposeSignup, v.OTP, func(ctx context.Context, tx bun.Tx) error {
		return persistence.MarkVerified(ctx, tx, u.ID)
	})
	if err != nil {
		return AuthResult{}, err
	}
	return a.signIn(ctx, u.ID)
}

// Resend e-mails a fresh signup code to an unverified account. Unknown and
// already verified addresses get the same answer, without mail.
func (a *Accounts) Resend(ctx context.Context, in domain.ResendInput, ip string) (MessageResult, error) {
	email, err := in.Validate()
	if err != nil {
		return MessageResult{}, err
	}
	if ok, wait := a.codesPerIP.Allow(ip); !ok {
		return MessageResult{}, tooMany(wait)
	}
	u, err := persistence.UserByEmail(ctx, a.d.DB, email)
	if errors.Is(err, domain.ErrNotFound) || (err == nil && !u.EmailVerifiedAt.IsZero()) {
		return MessageResult{Message: domain.MsgOTPResent}, nil
	}
	if err != nil {
		return MessageResult{}, err
	}
	if err := a.issueCode(ctx, u.ID, u.Email, domain.PurposeSignup); err != nil {
		return MessageResult{}, err
	}
	return MessageResult{Message: domain.MsgOTPResent}, nil
}

// Login checks the password (in constant time whether or not the account
// exists) and signs in. An unverified account gets 403 and a fresh code.
func (a *Accounts) Login(ctx context.Context, in domain.LoginInput, ip string) (AuthResult, error) {
	if a.d.NoPasswordLogin {
		return AuthResult{}, domain.Forbidden(a.ssoOnly("Signing in with a password is turned off here."))
	}
	l, err := in.Validate()
	if err != nil {
		return AuthResult{}, err
	}
	if ok, wait := a.loginPerIP.Allow(ip); !ok {
		return AuthResult{}, tooMany(wait)
	}
	if ok, wait := a.loginPerAccount.Allow("login:" + l.ID.Value); !ok {
		return AuthResult{}, tooMany(wait)
	}
	u, err := a.findByIdentifier(ctx, l.ID)
	if err != nil && !errors.Is(err, domain.ErrNotFound) {
		return AuthResult{}, err
	}
	hash := ""
	if u != nil {
		hash = u.PasswordHash
	}
	ok, err := a.d.Hasher.Verify(ctx, hash, l.Password)
	if err != nil {
		return AuthResult{}, err
	}
	if u == nil || !ok {
		return AuthResult{}, errWrongCredentials
	}
	if u.Role != string(l.Role) {
		return AuthResult{}, domain.Forbidden(fmt.Sprintf("This account is registered as %s. Choose the %s role to sign in.",
			domain.Role(u.Role).Label(), domain.Role(u.Role).Label()))
	}
	if u.EmailVerifiedAt.IsZero() {
		// A fresh code if the cooldown allows; the 403 stands either way.
		if err := a.issueCode(ctx, u.ID, u.Email, domain.PurposeSignup); err != nil && !errors.Is(err, domain.ErrTooMany) {
			return AuthResult{}, err
		}
		return AuthResult{}, &domain.Error{Kind: domain.KindForbidden, Message: domain.MsgEmailNotVerified,
			// The password was right, so the address may be shown: the
			// client needs it for the verify screen after an ID login.
			Fields: []domain.FieldError{{Field: "email", Msg: u.Email}}}
	}
	return a.signIn(ctx, u.ID)
}

func (a *Accounts) findByIdentifier(ctx context.Context, id domain.Identifier) (*persistence.User, error) {
	if id.Kind == domain.IdentEmail {
		return persistence.UserByEmail(ctx, a.d.DB, id.Value)
	}
	return persistence.UserByUniversityID(ctx, a.d.DB, id.Value)
}

// ssoOnly completes a refusal of a password way in with where to go instead.
func (a *Accounts) ssoOnly(what string) string {
	if a.d.SSOName == "" {
		return what
	}
	return what + " Use \u201cSign in with " + a.d.SSOName + "\u201d instead."
}

func (a *Accounts) signIn(ctx context.Context, id uuid.UUID) (AuthResult, error) {
	return a.signInVia(ctx, id, "")
}

// signInVia signs id in with a token that says which university sign-in
// (via: "oidc", "saml") it came from, if any.
func (a *Accounts) signInVia(ctx context.Context, id uuid.UUID, via string) (AuthResult, error) {
	u, err := persistence.UserByID(ctx, a.d.DB, id)
	if err != nil {
		return AuthResult{}, err
	}
	if err := suspensionRefusal(ctx, a.d.DB, id); err != nil {
		return AuthResult{}, err
	}
	token, err := a.d.Sessions.IssueVia(u, via)
	if err != nil {
		return AuthResult{}, err
	}
	view, err := a.view(ctx, u)
	if err != nil {
		return AuthResult{}, err
	}
	return AuthResult{User: view, Token: token}, nil
}

func (a *Accounts) view(ctx context.Context, u *persistence.User) (UserView, error) {
	likers, err := persistence.ProfileLikers(ctx, a.d.DB, u.ID)
	if err != nil {
		return UserView{}, err
	}
	return NewUserView(u, likers), nil
}

// ForgotPassword e-mails a reset code when the identifier and role match a
// verified account. The answer and its timing are the same either way: the
// lookup and mail happen after the answer, off the request.
func (a *Accounts) ForgotPassword(ctx context.Context, in domain.ForgotInput, ip string) (MessageResult, error) {
	f, err := in.Validate()
	if err != nil {
		return MessageResult{}, err
	}
	if ok, wait := a.codesPerIP.Allow(ip); !ok {
		return MessageResult{}, tooMany(wait)
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		u, err := a.findByIdentifier(ctx, f.ID)
		if err != nil || u.EmailVerifiedAt.IsZero() || u.Role != string(f.Role) {
			if err != nil && !errors.Is(err, domain.ErrNotFound) {
				a.d.Log.Error().Err(err).Msg("forgot password lookup")
			}
			return
		}
		if err := a.issueCode(ctx, u.ID, u.Email, domain.PurposeReset); err != nil && !errors.Is(err, domain.ErrTooMany) {
			a.d.Log.Error().Err(err).Str("user_id", u.ID.String()).Msg("forgot password code")
		}
	}()
	return MessageResult{Message: domain.MsgResetCodeSent}, nil
}

// ResetPassword sets a new password with a reset code and signs out every
// session.
func (a *Accounts) ResetPassword(ctx context.Context, in domain.ResetInput) (MessageResult, error) {
	r, err := in.Validate()
	if err != nil {
		return MessageResult{}, err
	}
	u, err := a.findByIdentifier(ctx, r.ID)
	if errors.Is(err, domain.ErrNotFound) || (err == nil && u.Role != string(r.Role)) {
		return MessageResult{}, errInvalidCode
	}
	if err != nil {
		return MessageResult{}, err
	}
	hash, err := a.d.Hasher.Hash(ctx, r.NewPassword)
	if err != nil {
		return MessageResult{}, err
	}
	err = a.useCode(ctx, u, u.Email, domain.PurposeReset, r.OTP, func(ctx context.Context, tx bun.Tx) error {
		if err := persistence.SetPassword(ctx, tx, u.ID, hash); err != nil {
			return err
		}
		// Reading the reset code proves the address, so it verifies it too.
		if err := persistence.MarkVerified(ctx, tx, u.ID); err != nil {
			return err
		}
		return a.d.Sessions.Revoke(ctx, tx, u.ID)
	})
	if err != nil {
		return MessageResult{}, err
	}
	return MessageResult{Message: domain.MsgPasswordReset}, nil
}

// LogoutResult answers a logout; LogoutURL, when set, is where the browser
// goes next to end the university sign-in's session too.
type LogoutResult struct {
	Message   string `json:"message"`
	LogoutURL string `json:"logoutUrl,omitempty"`
}

// Logout revokes every token of the caller (all devices) and, for a token
// from a university sign-in whose provider offers it, answers where to end
// the provider's session (RP-initiated logout).
func (a *Accounts) Logout(ctx context.Context, p Principal) (LogoutResult, error) {
	if err := a.d.Sessions.Revoke(ctx, a.d.DB, p.UserID); err != nil {
		return LogoutResult{}, err
	}
	res := LogoutResult{Message: "Logged out"}
	if p.Via != "" && a.logoutURL != nil {
		res.LogoutURL = a.logoutURL(ctx, p.Via)
	}
	return res, nil
}

// MeResult is the answer of GET /users/me.
type MeResult struct {
	User UserView `json:"user"`
}

// Me is the caller's own user.
func (a *Accounts) Me(ctx context.Context, p Principal) (MeResult, error) {
	u, err := persistence.UserByID(ctx, a.d.DB, p.UserID)
	if err != nil {
		return MeResult{}, err
	}
	v, err := a.view(ctx, u)
	return MeResult{User: v}, err
}

// SendEmailChange mails a code to the new address.
func (a *Accounts) SendEmailChange(ctx context.Context, p Principal, in domain.EmailChangeInput) (MessageResult, error) {
	u, err := persistence.UserByID(ctx, a.d.DB, p.UserID)
	if err != nil {
		return MessageResult{}, err
	}
	email, err := in.Validate(u.Email)
	if err != nil {
		return MessageResult{}, err
	}
	if _, err := persistence.UserByEmail(ctx, a.d.DB, email); err == nil {
		return MessageResult{}, domain.Conflict(domain.MsgEmailExists)
	} else if !errors.Is(err, domain.ErrNotFound) {
		return MessageResult{}, err
	}
	if err := a.issueCode(ctx, u.ID, email, domain.PurposeEmailChange); err != nil {
		return MessageResult{}, err
	}
	return MessageResult{Message: "A verification code has been sent to " + domain.MaskEmail(email)}, nil
}

// EmailChangeResult answers a confirmed e-mail change. Every older token is
// revoked, so it carries the new one.
type EmailChangeResult struct {
	Message string   `json:"message"`
	User    UserView `json:"user"`
	Token   string   `json:"token"`
}

// VerifyEmailChange switches the address, signs out older sessions and tells
// the old address.
func (a *Accounts) VerifyEmailChange(ctx context.Context, p Principal, in domain.EmailChangeVerifyInput) (EmailChangeResult, error) {
	u, err := persistence.UserByID(ctx, a.d.DB, p.UserID)
	if err != nil {
		return EmailChangeResult{}, err
	}
	ch, err := in.Validate(u.Email)
	if err != nil {
		return EmailChangeResult{}, err
	}
	old := u.Email
	err = a.useCode(ctx, u, ch.NewEmail, domain.PurposeEmailChange, ch.OTP, func(ctx context.Context, tx bun.Tx) error {
		if err := persistence.SetEmail(ctx, tx, u.ID, ch.NewEmail); err != nil {
			return mapUserConflict(err)
		}
		if err := a.d.Sessions.Revoke(ctx, tx, u.ID); err != nil {
			return err
		}
		// The notice commits with the change, so the old address hears of
		// every change that happened and of none that did not.
		return persistence.QueueMail(ctx, tx, &persistence.QueuedMail{
			Kind: "email_changed_notice", UserID: u.ID, Recipient: old,
			Subject: a.d.Product + ": your e-mail address was changed",
			Text: fmt.Sprintf("The e-mail address of your %s account was changed to %s.\n\n"+
				"If you did not do this, reset your password now and contact support.\n", a.d.Product, domain.MaskEmail(ch.NewEmail)),
			ExpiresAt: a.now().Add(noticeTTL),
		})
	})
	if err != nil {
		return EmailChangeResult{}, err
	}
	a.d.Mail.Wake()
	res, err := a.signIn(ctx, u.ID)
	if err != nil {
		return EmailChangeResult{}, err
	}
	return EmailChangeResult{Message: domain.MsgEmailUpdated, User: res.User, Token: res.Token}, nil
}

// SendPasswordChange checks the current password, then mails a code.
func (a *Accounts) SendPasswordChange(ctx context.Context, p Principal, in domain.PasswordChangeInput) (MessageResult, error) {
	if err := in.Validate(); err != nil {
		return MessageResult{}, err
	}
	u, err := persistence.UserByID(ctx, a.d.DB, p.UserID)
	if err != nil {
		return MessageResult{}, err
	}
	if ok, wait := a.loginPerAccount.Allow("password:" + u.ID.String()); !ok {
		return MessageResult{}, tooMany(wait)
	}
	ok, err := a.d.Hasher.Verify(ctx, u.PasswordHash, in.CurrentPassword)
	if err != nil {
		return MessageResult{}, err
	}
	if !ok {
		return MessageResult{}, domain.InvalidField("currentPassword", domain.MsgCurrentPasswordIncorrect)
	}
	if err := a.issueCode(ctx, u.ID, u.Email, domain.PurposePasswordChange); err != nil {
		return MessageResult{}, err
	}
	return MessageResult{Message: "A verification code has been sent to " + domain.MaskEmail(u.Email)}, nil
}

// TokenResult answers a change that revoked older tokens: the new token.
type TokenResult struct {
	Message string `json:"message"`
	Token   string `json:"token"`
}

// VerifyPasswordChange sets the new password and signs out older sessions.
func (a *Accounts) VerifyPasswordChange(ctx context.Context, p Principal, in domain.PasswordChangeVerifyInput) (TokenResult, error) {
	ch, err := in.Validate()
	if err != nil {
		return TokenResult{}, err
	}
	u, err := persistence.UserByID(ctx, a.d.DB, p.UserID)
	if err != nil {
		return TokenResult{}, err
	}
	hash, err := a.d.Hasher.Hash(ctx, ch.NewPassword)
	if err != nil {
		return TokenResult{}, err
	}
	err = a.useCode(ctx, u, u.Email, domain.PurposePasswordChange, ch.OTP, func(ctx context.Context, tx bun.Tx) error {
		if err := persistence.SetPassword(ctx, tx, u.ID, hash); err != nil {
			return err
		}
		return a.d.Sessions.Revoke(ctx, tx, u.ID)
	})
	if err != nil {
		return TokenResult{}, err
	}
	res, err := a.signIn(ctx, u.ID)
	if err != nil {
		return TokenResult{}, err
	}
	return TokenResult{Message: domain.MsgPasswordUpdated, Token: res.Token}, nil
}

// SendDeleteAccount mails the code that confirms deleting the account.
func (a *Accounts) SendDeleteAccount(ctx context.Context, p Principal) (MessageResult, error) {
	u, err := persistence.UserByID(ctx, a.d.DB, p.UserID)
	if err != nil {
		return MessageResult{}, err
	}
	if err := a.issueCode(ctx, u.ID, u.Email, domain.PurposeDeleteAccount); err != nil {
		return MessageResult{}, err
	}
	return MessageResult{Message: "A verification code has been sent to " + domain.MaskEmail(u.Email)}, nil
}

// VerifyDeleteAccount removes the user and everything they own in one
// transaction; tokens die with the row (and sockets close on the NOTIFY).
// Media files go after the commit: a file without a row is only litter,
// a row without its file would be a broken image.
func (a *Accounts) VerifyDeleteAccount(ctx context.Context, p Principal, in domain.DeleteAccountVerifyInput) (MessageResult, error) {
	code, err := in.Validate()
	if err != nil {
		return MessageResult{}, err
	}
	u, err := persistence.UserByID(ctx, a.d.DB, p.UserID)
	if err != nil {
		return MessageResult{}, err
	}
	var gone persistence.DeletedAccount
	err = a.useCode(ctx, u, u.Email, domain.PurposeDeleteAccount, code, func(ctx context.Context, tx bun.Tx) error {
		gone, err = persistence.DeleteAccount(ctx, tx, u.ID)
		return err
	})
	if err != nil {
		return MessageResult{}, err
	}
	a.d.Sessions.Forget(u.ID)
	for _, key := range gone.MediaKeys {
		if err := a.d.Media.Delete(key); err != nil {
			a.d.Log.Warn().Err(err).Str("media_key", key).Msg("delete media of deleted account")
		}
	}
	a.d.Log.Info().Str("user_id", u.ID.String()).Int("media_files", len(gone.MediaKeys)).Msg("account deleted")
	return MessageResult{Message: domain.MsgAccountDeleted}, nil
}

// issueCode makes a code for (user, purpose, email) and queues its mail in
// one transaction, then wakes the mail sender.
func (a *Accounts) issueCode(ctx context.Context, userID uuid.UUID, email string, purpose domain.Purpose) error {
	if ok, wait := a.codesPerAddress.Allow(email); !ok {
		return tooMany(wait)
	}
	err := a.d.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		return a.newCode(ctx, tx, userID, email, purpose)
	})
	if err != nil {
		return err
	}
	a.d.Mail.Wake()
	return nil
}

// newCode enforces the resend cooldown, retires older codes, stores a new
// one, hashed, and queues the mail that carries it, all in the caller's
// transaction. The plain code exists only in that mail. The retired codes'
// mail, if still unsent, is dropped by the sender: those codes no longer
// work.
func (a *Accounts) newCode(ctx context.Context, tx bun.Tx, userID uuid.UUID, email string, purpose domain.Purpose) error {
	// Serialize code issuing per account so two concurrent resends cannot
	// both pass the cooldown check.
	if _, err := tx.ExecContext(ctx, "SELECT 1 FROM users WHERE id = ? FOR UPDATE", userID); err != nil {
		return fmt.Errorf("app: lock user for code: %w", err)
	}
	last, err := persistence.LatestCodeAt(ctx, tx, userID, string(purpose), email)
	if err != nil {
		return err
	}
	if !last.IsZero() {
		if wait := domain.OTPResendCooldown - a.now().Sub(last); wait > 0 {
			return domain.TooMany(domain.MsgOTPCooldown, int((wait+time.Second-1)/time.Second))
		}
	}
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		return fmt.Errorf("app: code: %w", err)
	}
	code := fmt.Sprintf("%06d", n.Int64())
	c := &persistence.OTPCode{
		ID: persistence.NewID(), UserID: userID, Email: email, Purpose: string(purpose),
		CodeHash: a.codeHash(userID, purpose, email, code), ExpiresAt: a.now().Add(domain.OTPTTL),
	}
	if err := persistence.ReplaceCode(ctx, tx, c); err != nil {
		return err
	}
	m := mail.CodeMessage(a.d.Product, email, code, purpose)
	return persistence.QueueMail(ctx, tx, &persistence.QueuedMail{
		Kind: string(purpose), UserID: userID, CodeID: c.ID,
		Recipient: m.To, Subject: m.Subject, Text: m.Text, HTML: m.HTML,
		ExpiresAt: c.ExpiresAt,
	})
}

// codeHash binds a code to its account, purpose and address under a server
// key, so a leaked table cannot be brute-forced offline and a code for one
// purpose can never match another.
func (a *Accounts) codeHash(userID uuid.UUID, purpose domain.Purpose, email, code string) []byte {
	m := hmac.New(sha256.New, a.d.CodeKey)
	fmt.Fprintf(m, "%s\x00%s\x00%s\x00%s", userID, purpose, email, code)
	return m.Sum(nil)
}

// useCode checks code against the newest open code for (user, purpose,
// email) and, when right, runs fn in the same transaction that consumes it:
// the action and the code's use commit together or not at all. A wrong code
// is counted on the code and the account in its own committed transaction.
func (a *Accounts) useCode(ctx context.Context, u *persistence.User, email string, purpose domain.Purpose, code string,
	fn func(ctx context.Context, tx bun.Tx) error) error {
	if u.OTPFailures >= accountCodeFailures && a.now().Sub(u.OTPFailedAt) < accountCodeWindow {
		wait := int((accountCodeWindow - a.now().Sub(u.OTPFailedAt)) / time.Second)
		return domain.TooMany("Too many wrong codes. Please try again later.", wait+1)
	}
	wrong := false
	err := a.d.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		c, err := persistence.LockOpenCode(ctx, tx, u.ID, string(purpose), email)
		if errors.Is(err, domain.ErrNotFound) {
			return errInvalidCode
		}
		if err != nil {
			return err
		}
		if c.Attempts >= domain.OTPMaxAttempts {
			return errInvalidCode
		}
		if !hmac.Equal(c.CodeHash, a.codeHash(u.ID, purpose, email, code)) {
			if err := persistence.CodeFailed(ctx, tx, c.ID, u.ID, accountCodeWindow); err != nil {
				return err
			}
			wrong = true
			return nil // commit the counted failure
		}
		if err := persistence.ConsumeCode(ctx, tx, c.ID); err != nil {
			return err
		}
		if err := persistence.ResetCodeFailures(ctx, tx, u.ID); err != nil {
			return err
		}
		return fn(ctx, tx)
	})
	if err != nil {
		return err
	}
	if wrong {
		return errInvalidCode
	}
	return nil
}
