package app

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/url"
	"strings"
	"time"

	"github.com/crewjam/saml"
	"github.com/google/uuid"
	"github.com/rs/zerolog"
	"github.com/uptrace/bun"
	"golang.org/x/oauth2"

	"campus/domain"
	"campus/persistence"
	"campus/sso"
)

// University sign-in (docs/architecture.md §10.1). A sign-in runs:
//
//  1. Start (POST, from the page) stores a flow — state, nonce, PKCE
//     verifier, SAML request id, where to return — keyed by the state's
//     hash, and answers the identity provider's URL. The browser gets a
//     binding cookie whose hash the flow keeps.
//  2. The provider sends the browser back (OIDC: GET with code and state;
//     SAML: POST with the response and the state as RelayState). The flow is
//     taken (deleted: a state works once, on any node), the answer checked
//     (package sso), and the identity matched to an account. The browser is
//     sent to the client's /sso/callback with a one-time ticket in the
//     fragment (never in a server's logs or a Referer).
//  3. The client redeems the ticket (POST, same origin, so the binding
//     cookie comes along): only the browser that started the sign-in can
//     finish it, so nobody can sign someone else into an account of theirs
//     by planting an answer (login CSRF). It gets our token, as a password
//     login does.
//
// The flow is kept in Postgres rather than in a signed cookie: a SAML
// answer is a cross-site POST, which carries no SameSite=Lax cookie, and a
// row deleted as it is read makes every state single-use across nodes.

// SSO timing: a flow must come back within flowTTL; a sign-in ticket is
// redeemed at once by the page it lands on; a link ticket waits for the
// person to prove the account (password, or a mailed code).
const (
	flowTTL       = 10 * time.Minute
	signinTTL     = 2 * time.Minute
	linkTicketTTL = 15 * time.Minute
)

// BindingCookie is the cookie that ties a sign-in to the browser that
// started it; BindingCookiePath its path.
const (
	BindingCookie     = "campus_sso"
	BindingCookiePath = "/api/auth/sso"
	// BindingCookieMaxAge outlives a flow and a link ticket.
	BindingCookieMaxAge = linkTicketTTL + flowTTL
)

// The reasons a sign-in ends on the client's callback page with an error,
// each with a fixed message there (the fragment carries only the code, so
// a crafted link cannot put words on our page).
const (
	SSOErrCancelled      = "cancelled"
	SSOErrRefused        = "refused"
	SSOErrExpired        = "expired"
	SSOErrUnavailable    = "unavailable"
	SSOErrDomain         = "domain"
	SSOErrIncomplete     = "incomplete"
	SSOErrIDTaken        = "id_taken"
	SSOErrLinkedOther    = "linked_elsewhere"
	SSOErrTooMany        = "too_many"
	SSOErrUnverified     = "unverified"
	SSOErrInternalFailed = "failed"
)

var (
	errSSOUnknownProvider = domain.InvalidField("provider", "This sign-in is not available.")
	errSSOTicket          = domain.Invalid("This sign-in has expired or was already used. Please sign in again.")
	errSSOOtherBrowser    = domain.Forbidden("This sign-in was started in another browser. Please sign in again here.")
)

// SSOProvider is one configured university sign-in.
type SSOProvider struct {
	// ID is "oidc" or "saml".
	ID string `json:"id"`
	// Name is the university's name, for "Sign in with <Name>".
	Name string `json:"name"`
}

// SSODeps are what university sign-in needs.
type SSODeps struct {
	DB       *bun.DB
	Accounts *Accounts
	// OIDC and SAML are the configured protocols; nil when off.
	OIDC               *sso.OIDC
	SAML               *sso.SAML
	OIDCName, SAMLName string
	// Origin is the public origin; the client's pages are under it.
	Origin string
	// EmailDomains are the domains an identity's e-mail may have (or a
	// subdomain of); empty allows any.
	EmailDomains []string
	RateLimits   bool
	Log          zerolog.Logger
}

// SSO is university sign-in: starting it, finishing it, linking an
// identity to an existing account, and the identities in Settings.
type SSO struct {
	d   SSODeps
	now func() time.Time
	// Per-IP limits are high: a lecture hall behind one NAT address signs
	// in at once (1,000 in a minute must pass). What stops abuse is keyed
	// on the identity (perIdentity) and, for linking, on the target
	// account (the password and code limits of Accounts).
	startPerIP  *Limiter
	finishPerIP *Limiter
	perIdentity *Limiter
}

// NewSSO wires university sign-in. Logout learns from it where to end the
// identity provider's session.
func NewSSO(d SSODeps) *SSO {
	on := d.RateLimits
	s := &SSO{
		d:           d,
		now:         time.Now,
		startPerIP:  NewLimiter(3000, time.Minute, 3000, on),
		finishPerIP: NewLimiter(3000, time.Minute, 3000, on),
		perIdentity: NewLimiter(20, 10*time.Minute, 20, on),
	}
	if d.Accounts != nil {
		d.Accounts.logoutURL = s.logoutURL
	}
	return s
}

// Providers lists the configured sign-ins, for the public config.
func (s *SSO) Providers() []SSOProvider {
	var out []SSOProvider
	if s == nil {
		return out
	}
	if s.d.OIDC != nil {
		out = append(out, SSOProvider{ID: "oidc", Name: s.d.OIDCName})
	}
	if s.d.SAML != nil {
		out = append(out, SSOProvider{ID: "saml", Name: s.d.SAMLName})
	}
	return out
}

// SSOStartInput is the body of POST /api/auth/sso/start.
type SSOStartInput struct {
	Provider string `json:"provider"`
	ReturnTo string `json:"returnTo"`
	// Link adds the identity to the signed-in caller's account (Settings);
	// Password is the account's current password, required then when the
	// account has one.
	Link     bool   `json:"link"`
	Password string `json:"password"`
}

// SSOStartResult answers a start: where the browser goes next.
type SSOStartResult struct {
	URL string `json:"url"`
}

// Start begins a sign-in at the provider (or, with Link, the linking of
// one to p's account). binding is the browser's binding cookie, if it has
// one; the answer's binding is the cookie to set (the same, or new).
func (s *SSO) Start(ctx context.Context, in SSOStartInput, p *Principal, binding, ip string) (SSOStartResult, string, error) {
	if in.Provider != "oidc" && in.Provider != "saml" || in.Provider == "oidc" && s.d.OIDC == nil ||
		in.Provider == "saml" && s.d.SAML == nil {
		return SSOStartResult{}, "", errSSOUnknownProvider
	}
	if ok, wait := s.startPerIP.Allow(ip); !ok {
		return SSOStartResult{}, "", tooMany(wait)
	}
	flow := &persistence.SSOFlow{Provider: in.Provider, ReturnTo: domain.SafeReturnPath(in.ReturnTo),
		ExpiresAt: s.now().Add(flowTTL)}
	if in.Link {
		if p == nil {
			return SSOStartResult{}, "", ErrBadToken
		}
		if err := s.checkLinkPassword(ctx, p.UserID, in.Password); err != nil {
			return SSOStartResult{}, "", err
		}
		flow.LinkUserID = p.UserID
	}
	if !validSecret(binding) {
		binding = secret()
	}
	flow.BindingHash = hashOf(binding)
	state := secret()
	flow.StateHash = hashOf(state)
	var dest string
	var err error
	switch in.Provider {
	case "oidc":
		flow.Nonce, flow.Verifier = secret(), oauth2.GenerateVerifier()
		dest, err = s.d.OIDC.AuthURL(ctx, state, flow.Nonce, flow.Verifier)
	case "saml":
		dest, flow.RequestID, err = s.d.SAML.AuthURL(ctx, state)
	}
	if err != nil {
		s.d.Log.Warn().Err(err).Str("provider", in.Provider).Msg("sso start")
		return SSOStartResult{}, "", &domain.Error{Kind: domain.KindUnavailable,
			Message: "University sign-in is not available right now. Please try again in a few minutes.", RetryAfter: 30}
	}
	sweep, _ := rand.Int(rand.Reader, big.NewInt(64))
	if err := persistence.InsertSSOFlow(ctx, s.d.DB, flow, sweep.Int64() == 0); err != nil {
		return SSOStartResult{}, "", err
	}
	return SSOStartResult{URL: dest}, binding, nil
}

// checkLinkPassword asks an account that has a password for it before an
// identity is added: a session left open must not be enough to give
// someone else's university account a way in.
func (s *SSO) checkLinkPassword(ctx context.Context, id uuid.UUID, password string) error {
	u, err := persistence.UserByID(ctx, s.d.DB, id)
	if err != nil {
		return err
	}
	if u.PasswordHash == "" {
		return nil
	}
	a := s.d.Accounts
	if ok, wait := a.loginPerAccount.Allow("password:" + u.ID.String()); !ok {
		return tooMany(wait)
	}
	ok, err := a.d.Hasher.Verify(ctx, u.PasswordHash, password)
	if err != nil {
		return err
	}
	if !ok {
		return domain.InvalidField("password", domain.MsgCurrentPasswordIncorrect)
	}
	return nil
}

// OIDCCallbackInput is the query of the OIDC callback.
type OIDCCallbackInput struct {
	State, Code, Error, ErrorDescription string
}

// OIDCCallback finishes an OIDC sign-in and answers where to send the
// browser: the client's callback page with a ticket or an error code.
func (s *SSO) OIDCCallback(ctx context.Context, in OIDCCallbackInput, ip string) string {
	if s.d.OIDC == nil {
		return s.errorPage("oidc", SSOErrUnavailable)
	}
	if ok, _ := s.finishPerIP.Allow(ip); !ok {
		return s.errorPage("oidc", SSOErrTooMany)
	}
	flow, err := persistence.TakeSSOFlow(ctx, s.d.DB, hashOf(in.State), "oidc")
	if err != nil {
		return s.flowMissing(err, "oidc", ip)
	}
	if in.Error != "" {
		return s.refused(sso.CallbackError(in.Error, in.ErrorDescription), "oidc", ip)
	}
	id, err := s.d.OIDC.Finish(ctx, in.Code, flow.Verifier, flow.Nonce)
	if err != nil {
		return s.refused(err, "oidc", ip)
	}
	return s.complete(ctx, flow, id)
}

// SAMLACS finishes a SAML sign-in from the posted form.
func (s *SSO) SAMLACS(ctx context.Context, form url.Values, ip string) string {
	if s.d.SAML == nil {
		return s.errorPage("saml", SSOErrUnavailable)
	}
	if ok, _ := s.finishPerIP.Allow(ip); !ok {
		return s.errorPage("saml", SSOErrTooMany)
	}
	flow, err := persistence.TakeSSOFlow(ctx, s.d.DB, hashOf(form.Get("RelayState")), "saml")
	if err != nil {
		return s.flowMissing(err, "saml", ip)
	}
	id, err := s.d.SAML.Finish(ctx, form, flow.RequestID)
	if err != nil {
		return s.refused(err, "saml", ip)
	}
	return s.complete(ctx, flow, id)
}

// SAMLMetadata is our SAML metadata.
func (s *SSO) SAMLMetadata(ctx context.Context) ([]byte, error) {
	if s.d.SAML == nil {
		return nil, domain.NotFound("Not found")
	}
	b, err := s.d.SAML.Metadata(ctx)
	if err != nil {
		s.d.Log.Warn().Err(err).Msg("sso saml metadata")
		return nil, &domain.Error{Kind: domain.KindUnavailable, Message: "The identity provider's metadata could not be read.", RetryAfter: 30}
	}
	return b, nil
}

func (s *SSO) flowMissing(err error, protocol, ip string) string {
	if !errors.Is(err, domain.ErrNotFound) {
		s.d.Log.Error().Err(err).Str("protocol", protocol).Msg("sso flow")
		return s.errorPage(protocol, SSOErrInternalFailed)
	}
	// Unknown, expired or already used (a replayed answer).
	s.d.Log.Warn().Str("protocol", protocol).Str("ip", ip).Str("reason", "unknown, expired or reused state").Msg("sso sign-in refused")
	return s.errorPage(protocol, SSOErrExpired)
}

func (s *SSO) refused(err error, protocol, ip string) string {
	switch {
	case errors.Is(err, sso.ErrCancelled):
		s.d.Log.Info().Err(err).Str("protocol", protocol).Msg("sso sign-in cancelled")
		return s.errorPage(protocol, SSOErrCancelled)
	case errors.Is(err, sso.ErrUnavailable):
		s.d.Log.Warn().Err(err).Str("protocol", protocol).Msg("sso provider unavailable")
		return s.errorPage(protocol, SSOErrUnavailable)
	case errors.Is(err, sso.ErrRefused) || errors.Is(err, saml.ErrAssertionReplayed):
		s.d.Log.Warn().Err(err).Str("protocol", protocol).Str("ip", ip).Msg("sso sign-in refused")
		return s.errorPage(protocol, SSOErrRefused)
	}
	s.d.Log.Error().Err(err).Str("protocol", protocol).Msg("sso sign-in failed")
	return s.errorPage(protocol, SSOErrInternalFailed)
}

// complete matches a checked identity to an account and answers the page
// to send the browser to.
func (s *SSO) complete(ctx context.Context, flow *persistence.SSOFlow, id sso.Identity) string {
	log := s.d.Log.With().Str("protocol", id.Protocol).Logger()
	if ok, _ := s.perIdentity.Allow(id.Provider + "\x00" + id.Subject); !ok {
		log.Warn().Str("reason", "identity rate limit").Msg("sso sign-in refused")
		return s.errorPage(id.Protocol, SSOErrTooMany)
	}
	email := domain.NormalizeEmail(id.Email)
	switch {
	case email == "" || !domain.IsEmail(email):
		log.Warn().Str("reason", "no usable e-mail").Msg("sso sign-in refused")
		return s.errorPage(id.Protocol, SSOErrIncomplete)
	case id.EmailUnverified:
		log.Warn().Str("reason", "e-mail not verified at the provider").Msg("sso sign-in refused")
		return s.errorPage(id.Protocol, SSOErrUnverified)
	case !s.domainAllowed(email):
		log.Warn().Str("reason", "e-mail domain not allowed").Str("domain", email[strings.LastIndexByte(email, '@')+1:]).Msg("sso sign-in refused")
		return s.errorPage(id.Protocol, SSOErrDomain)
	}
	id.Email = email
	ticket, page, err := s.match(ctx, flow, id)
	if err != nil {
		var de *domain.Error
		if errors.As(err, &de) {
			code := SSOErrIncomplete
			switch {
			case de.Message == domain.MsgUniversityIDExists:
				code = SSOErrIDTaken
			case de.Message == msgLinkedElsewhere:
				code = SSOErrLinkedOther
			}
			log.Warn().Str("reason", de.Message).Msg("sso sign-in refused")
			return s.errorPage(id.Protocol, code)
		}
		log.Error().Err(err).Msg("sso sign-in")
		return s.errorPage(id.Protocol, SSOErrInternalFailed)
	}
	return page + ticket
}

const msgLinkedElsewhere = "This university account is already linked to another account."

// match finds or makes the account of id: an identity already linked
// signs its account in; a flow from Settings links it to the caller; an
// account with the same address must be proven first (a link ticket);
// otherwise a new account is made from the identity's attributes.
func (s *SSO) match(ctx context.Context, flow *persistence.SSOFlow, id sso.Identity) (string, string, error) {
	existing, err := persistence.IdentityBySubject(ctx, s.d.DB, id.Provider, id.Subject)
	if err != nil && !errors.Is(err, domain.ErrNotFound) {
		return "", "", err
	}
	if flow.LinkUserID != uuid.Nil {
		if existing != nil && existing.UserID != flow.LinkUserID {
			return "", "", domain.Conflict(msgLinkedElsewhere)
		}
		if existing == nil {
			err := persistence.InsertIdentity(ctx, s.d.DB, &persistence.Identity{Provider: id.Provider, Subject: id.Subject,
				UserID: flow.LinkUserID, Email: id.Email})
			if _, dup := persistence.IsUniqueViolation(err); dup {
				return "", "", domain.Conflict(msgLinkedElsewhere)
			}
			if err != nil {
				return "", "", err
			}
			s.d.Log.Info().Str("user_id", flow.LinkUserID.String()).Str("protocol", id.Protocol).Msg("sso identity linked")
		}
		return s.ticket(ctx, "signin", flow, flow.LinkUserID, id)
	}
	if existing != nil {
		return s.ticket(ctx, "signin", flow, existing.UserID, id)
	}
	u, err := persistence.UserByEmail(ctx, s.d.DB, id.Email)
	switch {
	case err == nil && !u.EmailVerifiedAt.IsZero():
		// Never merged on a matching address alone: the person proves
		// they own the account first.
		return s.ticket(ctx, "link", flow, u.ID, id)
	case err == nil:
		// A sign-up never verified: the provider has vouched for the
		// address, so this sign-in replaces it, as a second sign-up would.
		return s.provision(ctx, flow, id, u.ID)
	case errors.Is(err, domain.ErrNotFound):
		return s.provision(ctx, flow, id, uuid.Nil)
	}
	return "", "", err
}

// provision makes the account of a first sign-in (replacing the pending
// sign-up pending, when not Nil) from the identity's attributes, checked by
// the sign-up rules, verified, with the identity linked, in one transaction.
func (s *SSO) provision(ctx context.Context, flow *persistence.SSOFlow, id sso.Identity, pending uuid.UUID) (string, string, error) {
	if id.Role == "" {
		return "", "", domain.Invalid("no role (student or faculty) in the identity's attributes")
	}
	name := strings.TrimSpace(id.Name)
	if name == "" {
		name = id.Email[:strings.IndexByte(id.Email, '@')]
	}
	in := domain.SignupInput{Name: name, Email: id.Email, Role: id.Role,
		// The sign-up rules want a password; the account gets none.
		Password: "university-sign-in"}
	if id.Role == string(domain.RoleFaculty) {
		in.CollegeID = id.Department
	} else {
		in.CollegeID = id.UniversityID
	}
	v, err := in.Validate()
	if err != nil {
		return "", "", err
	}
	u := &persistence.User{Name: v.Name, Email: v.Email, Role: string(v.Role), UniversityID: v.UniversityID,
		CollegeID: v.CollegeID, Department: v.Department, Course: v.Program, Batch: v.Batch}
	err = s.d.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if pending != uuid.Nil {
			u.ID = pending
			ok, err := persistence.ReplacePendingUser(ctx, tx, u)
			if err != nil {
				return mapUserConflict(err)
			}
			if !ok { // verified meanwhile: prove it like any other
				return errVerifiedMeanwhile
			}
		} else {
			u.ID = persistence.NewID()
			if err := persistence.InsertUser(ctx, tx, u); err != nil {
				return mapUserConflict(err)
			}
		}
		if err := persistence.MarkVerified(ctx, tx, u.ID); err != nil {
			return err
		}
		return persistence.InsertIdentity(ctx, tx, &persistence.Identity{Provider: id.Provider, Subject: id.Subject,
			UserID: u.ID, Email: id.Email})
	})
	if errors.Is(err, errVerifiedMeanwhile) {
		return s.ticket(ctx, "link", flow, u.ID, id)
	}
	if err != nil {
		return "", "", err
	}
	s.d.Log.Info().Str("user_id", u.ID.String()).Str("protocol", id.Protocol).Str("role", u.Role).Msg("sso signup")
	return s.ticket(ctx, ticketSignup, flow, u.ID, id)
}

var errVerifiedMeanwhile = errors.New("app: pending account verified meanwhile")

// ticketSignup is a sign-in ticket whose sign-in made the account: the
// page goes through onboarding, as after a sign-up's code.
const ticketSignup = "signup"

// ticketIdentity is what a ticket keeps: the identity, and whether its
// sign-in made the account.
type ticketIdentity struct {
	sso.Identity
	NewAccount bool `json:"newAccount,omitempty"`
}

// ticket stores a ticket ("signin", ticketSignup or "link") for user and
// answers it with the client page it goes to (the ticket is appended to
// the page).
func (s *SSO) ticket(ctx context.Context, kind string, flow *persistence.SSOFlow, user uuid.UUID, id sso.Identity) (string, string, error) {
	kept := ticketIdentity{Identity: id}
	if kind == ticketSignup {
		kind, kept.NewAccount = "signin", true
	}
	raw, err := json.Marshal(kept)
	if err != nil {
		return "", "", fmt.Errorf("app: sso identity: %w", err)
	}
	t := secret()
	ttl := signinTTL
	page := s.d.Origin + "/sso/callback#ticket="
	if kind == "link" {
		ttl = linkTicketTTL
		page = s.d.Origin + "/sso/callback#email=" + url.QueryEscape(domain.MaskEmail(id.Email)) +
			"&provider=" + id.Protocol + "&link="
	}
	err = persistence.InsertSSOTicket(ctx, s.d.DB, &persistence.SSOTicket{TicketHash: hashOf(t), Kind: kind,
		BindingHash: flow.BindingHash, UserID: user, Identity: raw, ReturnTo: flow.ReturnTo, ExpiresAt: s.now().Add(ttl)})
	if err != nil {
		return "", "", err
	}
	return t, page, nil
}

// errorPage is the client's callback page with an error code and the
// protocol whose sign-in it was (the page names that university sign-in).
func (s *SSO) errorPage(protocol, code string) string {
	return s.d.Origin + "/sso/callback#error=" + code + "&provider=" + protocol
}

func (s *SSO) domainAllowed(email string) bool {
	if len(s.d.EmailDomains) == 0 {
		return true
	}
	host := email[strings.LastIndexByte(email, '@')+1:]
	for _, d := range s.d.EmailDomains {
		if host == d || strings.HasSuffix(host, "."+d) {
			return true
		}
	}
	return false
}

// SSOTicketInput is the body of the redeeming calls.
type SSOTicketInput struct {
	Ticket string `json:"ticket"`
}

// SSOAuthResult answers a finished university sign-in: as a login, plus
// the path to go on to, and whether this sign-in made the account (the
// page then starts onboarding).
type SSOAuthResult struct {
	User       UserView `json:"user"`
	Token      string   `json:"token"`
	ReturnTo   string   `json:"returnTo"`
	NewAccount bool     `json:"newAccount"`
}

// Exchange redeems a sign-in ticket in the browser that started the
// sign-in, and signs in.
func (s *SSO) Exchange(ctx context.Context, in SSOTicketInput, binding, ip string) (SSOAuthResult, error) {
	if ok, wait := s.finishPerIP.Allow(ip); !ok {
		return SSOAuthResult{}, tooMany(wait)
	}
	if !validSecret(in.Ticket) {
		return SSOAuthResult{}, errSSOTicket
	}
	t, err := persistence.SSOTicketByHash(ctx, s.d.DB, hashOf(in.Ticket), "signin")
	if err != nil {
		return SSOAuthResult{}, ticketError(err)
	}
	if !sameBinding(t.BindingHash, binding) {
		s.d.Log.Warn().Str("ip", ip).Str("reason", "ticket redeemed by another browser").Msg("sso sign-in refused")
		return SSOAuthResult{}, errSSOOtherBrowser
	}
	if _, err := persistence.TakeSSOTicket(ctx, s.d.DB, t.TicketHash, "signin"); err != nil {
		return SSOAuthResult{}, ticketError(err)
	}
	return s.signIn(ctx, t)
}

func (s *SSO) signIn(ctx context.Context, t *persistence.SSOTicket) (SSOAuthResult, error) {
	var id ticketIdentity
	if err := json.Unmarshal(t.Identity, &id); err != nil {
		return SSOAuthResult{}, fmt.Errorf("app: sso ticket identity: %w", err)
	}
	res, err := s.d.Accounts.signInVia(ctx, t.UserID, id.Protocol)
	if err != nil {
		return SSOAuthResult{}, err
	}
	return SSOAuthResult{User: res.User, Token: res.Token, ReturnTo: t.ReturnTo, NewAccount: id.NewAccount}, nil
}

func ticketError(err error) error {
	if errors.Is(err, domain.ErrNotFound) {
		return errSSOTicket
	}
	return err
}

// SSOLinkInput is the body of POST /api/auth/sso/link: the link ticket and
// a proof of owning the account — its password, or a code mailed to it.
type SSOLinkInput struct {
	Ticket   string `json:"ticket"`
	Password string `json:"password"`
	OTP      string `json:"otp"`
}

// LinkSendCode mails a code to the account a link ticket is for.
func (s *SSO) LinkSendCode(ctx context.Context, in SSOTicketInput, binding string) (MessageResult, error) {
	t, u, err := s.linkTicket(ctx, in.Ticket, binding)
	if err != nil {
		return MessageResult{}, err
	}
	if err := s.d.Accounts.issueCode(ctx, u.ID, u.Email, domain.PurposeLinkSignIn); err != nil {
		return MessageResult{}, err
	}
	_ = t
	return MessageResult{Message: "A verification code has been sent to " + domain.MaskEmail(u.Email)}, nil
}

// Link proves the account of a link ticket, links the identity to it and
// signs in.
func (s *SSO) Link(ctx context.Context, in SSOLinkInput, binding string) (SSOAuthResult, error) {
	t, u, err := s.linkTicket(ctx, in.Ticket, binding)
	if err != nil {
		return SSOAuthResult{}, err
	}
	var id sso.Identity
	if err := json.Unmarshal(t.Identity, &id); err != nil {
		return SSOAuthResult{}, fmt.Errorf("app: sso ticket identity: %w", err)
	}
	a := s.d.Accounts
	link := func(ctx context.Context, tx bun.IDB) error {
		if _, err := persistence.TakeSSOTicket(ctx, tx, t.TicketHash, "link"); err != nil {
			return ticketError(err)
		}
		err := persistence.InsertIdentity(ctx, tx, &persistence.Identity{Provider: id.Provider, Subject: id.Subject,
			UserID: u.ID, Email: id.Email})
		if _, dup := persistence.IsUniqueViolation(err); dup {
			return domain.Conflict(msgLinkedElsewhere)
		}
		return err
	}
	switch {
	case in.OTP != "":
		code, err := domain.ParseOTP(in.OTP)
		if err != nil {
			return SSOAuthResult{}, err
		}
		err = a.useCode(ctx, u, u.Email, domain.PurposeLinkSignIn, code, func(ctx context.Context, tx bun.Tx) error {
			return link(ctx, tx)
		})
		if err != nil {
			return SSOAuthResult{}, err
		}
	case in.Password != "":
		if ok, wait := a.loginPerAccount.Allow("login:" + u.Email); !ok {
			return SSOAuthResult{}, tooMany(wait)
		}
		ok, err := a.d.Hasher.Verify(ctx, u.PasswordHash, in.Password)
		if err != nil {
			return SSOAuthResult{}, err
		}
		if !ok {
			return SSOAuthResult{}, domain.InvalidField("password", domain.MsgIncorrectCredentials)
		}
		if err := s.d.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error { return link(ctx, tx) }); err != nil {
			return SSOAuthResult{}, err
		}
	default:
		return SSOAuthResult{}, domain.Invalid("Enter your password or the code we e-mailed you.")
	}
	s.d.Log.Info().Str("user_id", u.ID.String()).Str("protocol", id.Protocol).Msg("sso identity linked")
	return s.signIn(ctx, t)
}

func (s *SSO) linkTicket(ctx context.Context, ticket, binding string) (*persistence.SSOTicket, *persistence.User, error) {
	if !validSecret(ticket) {
		return nil, nil, errSSOTicket
	}
	t, err := persistence.SSOTicketByHash(ctx, s.d.DB, hashOf(ticket), "link")
	if err != nil {
		return nil, nil, ticketError(err)
	}
	if !sameBinding(t.BindingHash, binding) {
		return nil, nil, errSSOOtherBrowser
	}
	u, err := persistence.UserByID(ctx, s.d.DB, t.UserID)
	if err != nil {
		return nil, nil, ticketError(err)
	}
	return t, u, nil
}

// SignInView is one linked sign-in in Settings.
type SignInView struct {
	ID         uuid.UUID `json:"id"`
	Protocol   string    `json:"protocol"`
	Name       string    `json:"name"`
	Email      string    `json:"email"`
	LinkedAt   time.Time `json:"linkedAt"`
	LastUsedAt time.Time `json:"lastUsedAt"`
}

// SignInsResult answers GET /api/users/me/sign-ins.
type SignInsResult struct {
	SignIns []SignInView `json:"signIns"`
	// HasPassword says whether the account can sign in with a password
	// (linking from Settings asks for it then).
	HasPassword bool `json:"hasPassword"`
}

// SignIns lists the caller's linked sign-ins.
func (s *SSO) SignIns(ctx context.Context, p Principal) (SignInsResult, error) {
	u, err := persistence.UserByID(ctx, s.d.DB, p.UserID)
	if err != nil {
		return SignInsResult{}, err
	}
	ids, err := persistence.IdentitiesOf(ctx, s.d.DB, p.UserID)
	if err != nil {
		return SignInsResult{}, err
	}
	out := SignInsResult{SignIns: make([]SignInView, 0, len(ids)), HasPassword: u.PasswordHash != ""}
	for _, i := range ids {
		v := SignInView{ID: i.ID, Email: i.Email, LinkedAt: i.LinkedAt, LastUsedAt: i.LastUsedAt, Name: "University sign-in"}
		switch {
		case strings.HasPrefix(i.Provider, "oidc:"):
			v.Protocol = "oidc"
			if s.d.OIDC != nil && i.Provider == s.d.OIDC.ProviderKey() {
				v.Name = s.d.OIDCName
			}
		case strings.HasPrefix(i.Provider, "saml:"):
			v.Protocol = "saml"
			if s.d.SAML != nil && i.Provider == s.d.SAML.ProviderKey(ctx) {
				v.Name = s.d.SAMLName
			}
		}
		out.SignIns = append(out.SignIns, v)
	}
	return out, nil
}

// RemoveSignIn unlinks one of the caller's sign-ins, unless it is their
// only way in.
func (s *SSO) RemoveSignIn(ctx context.Context, p Principal, idParam string) (MessageResult, error) {
	id, err := uuid.Parse(idParam)
	if err != nil {
		return MessageResult{}, domain.NotFound("Sign-in not found")
	}
	err = s.d.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		// Serialize with other removals of this account's sign-ins, so two
		// at once cannot both see another way in.
		u := new(persistence.User)
		if err := tx.NewSelect().Model(u).Where("id = ?", p.UserID).For("UPDATE").Scan(ctx); err != nil {
			return fmt.Errorf("app: lock user: %w", err)
		}
		ids, err := persistence.IdentitiesOf(ctx, tx, p.UserID)
		if err != nil {
			return err
		}
		if u.PasswordHash == "" && len(ids) <= 1 {
			for _, i := range ids {
				if i.ID == id {
					return domain.Conflict("This is the only way into your account. Set a password first " +
						"(Forgot password on the login page), then remove it.")
				}
			}
		}
		ok, err := persistence.DeleteIdentity(ctx, tx, p.UserID, id)
		if err != nil {
			return err
		}
		if !ok {
			return domain.NotFound("Sign-in not found")
		}
		return nil
	})
	if err != nil {
		return MessageResult{}, err
	}
	s.d.Log.Info().Str("user_id", p.UserID.String()).Msg("sso identity removed")
	return MessageResult{Message: "Sign-in removed"}, nil
}

// logoutURL is where the browser goes to end the identity provider's
// session after our logout (RP-initiated logout), or "".
func (s *SSO) logoutURL(ctx context.Context, via string) string {
	if via != "oidc" || s.d.OIDC == nil {
		return ""
	}
	return s.d.OIDC.LogoutURL(ctx, s.d.Origin+"/login")
}

// ReplayCache is the SAML replay cache over Postgres: an assertion id is
// accepted once across every node.
func ReplayCache(db *bun.DB) saml.AssertionReplayCache { return replayCache{db} }

type replayCache struct{ db *bun.DB }

func (r replayCache) Consume(id string, until time.Time) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	fresh, err := persistence.RememberAssertion(ctx, r.db, id, until)
	if err != nil {
		return err
	}
	if !fresh {
		return saml.ErrAssertionReplayed
	}
	return nil
}

// secret is 32 random bytes, base64url: a state, nonce, ticket or binding.
func secret() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(fmt.Sprintf("app: random: %v", err)) // crypto/rand does not fail on supported systems
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// validSecret: the shape secret makes (43 base64url characters).
func validSecret(s string) bool {
	if len(s) != 43 {
		return false
	}
	_, err := base64.RawURLEncoding.DecodeString(s)
	return err == nil
}

func hashOf(s string) []byte {
	h := sha256.Sum256([]byte(s))
	return h[:]
}

func sameBinding(stored []byte, binding string) bool {
	return validSecret(binding) && subtle.ConstantTimeCompare(stored, hashOf(binding)) == 1
}

// The protocol endpoints registered at identity providers.
const (
	OIDCCallbackPath = "/api/auth/sso/oidc/callback"
	SAMLACSPath      = "/api/auth/sso/saml/acs"
)
