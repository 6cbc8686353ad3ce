package app

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/rs/zerolog"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/driver/pgdriver"

	"campus/domain"
	"campus/persistence"
)

// Principal is the signed-in caller of a request or socket.
type Principal struct {
	UserID  uuid.UUID
	Version int
	// Via is the protocol of the university sign-in the token came from
	// ("oidc", "saml"), or empty.
	Via string
}

// ErrBadToken answers every token problem alike (401), so a caller learns
// nothing about why a token was refused; the one exception is a revoked
// token of a suspended account (revokedRefusal).
var ErrBadToken = domain.Unauthorized("Invalid or expired token. Please log in again.")

// versionTTL bounds how long a cached token version is trusted without a
// NOTIFY; revocations normally arrive by NOTIFY within milliseconds.
const versionTTL = 30 * time.Second

// Sessions authenticates tokens. It caches each user's token version so a
// request costs no query, and drops entries when any node revokes (LISTEN on
// persistence.RevokeChannel) — revocation holds on every node at once.
// Safe for concurrent use.
type Sessions struct {
	db     *bun.DB
	signer *Signer
	log    zerolog.Logger
	now    func() time.Time

	mu       sync.RWMutex
	versions map[uuid.UUID]cachedVersion
	// listening is true while the LISTEN connection is healthy; without it the
	// cache is bypassed so a missed NOTIFY can never keep a revoked token alive.
	listening bool
	// unheard holds, while not listening, the versions this node knew when
	// the listener went down and the first one it saw of anyone who signed
	// in since: the catch-up after the reconnect compares them with the
	// database and runs the revocation hooks for every user whose version
	// moved, so sockets whose NOTIFY was lost are still closed.
	unheard map[uuid.UUID]int
	// unheardSince is when the listener went down (zero while it is up or
	// before it first came up): the catch-up replays the blocks made since,
	// whose NOTIFY was lost too.
	unheardSince time.Time

	// generation counts the times the listener came up: a cache keyed on
	// it (Gates) starts over after every gap in which a NOTIFY could be lost.
	generation uint64

	hooksMu     sync.RWMutex
	hooks       []func(uuid.UUID)
	blockHooks  []func(blocker, blocked uuid.UUID)
	changeHooks []func(SafetyChange)
}

// SafetyChange is a change another node (or this one) announced on the
// safety channel that cached gates must hear: a block made or lifted
// between A and B, a post (Post) removed by a moderator or deleted, a
// membership of Member in Group changed, (Member zero) Group's visibility
// changed or the group went, or a suspension of Suspension made or lifted.
type SafetyChange struct {
	A, B          uuid.UUID
	Post          uuid.UUID
	Group, Member uuid.UUID
	Suspension    uuid.UUID
}

type cachedVersion struct {
	version int
	at      time.Time
}

// NewSessions makes a Sessions; call Listen in a goroutine to enable caching.
func NewSessions(db *bun.DB, signer *Signer, log zerolog.Logger) *Sessions {
	return &Sessions{db: db, signer: signer, log: log, now: time.Now,
		versions: make(map[uuid.UUID]cachedVersion), unheard: make(map[uuid.UUID]int)}
}

// Issue signs a token for u at its current version.
func (s *Sessions) Issue(u *persistence.User) (string, error) {
	return s.signer.Issue(u.ID.String(), u.TokenVersion)
}

// IssueVia signs a token for u that says it came from a university sign-in
// through via.
func (s *Sessions) IssueVia(u *persistence.User, via string) (string, error) {
	return s.signer.IssueVia(u.ID.String(), u.TokenVersion, via)
}

// Authenticate checks token and answers its principal, or ErrBadToken.
func (s *Sessions) Authenticate(ctx context.Context, token string) (Principal, error) {
	if token == "" {
		return Principal{}, ErrBadToken
	}
	c, err := s.signer.Parse(token)
	if err != nil {
		return Principal{}, ErrBadToken
	}
	id, err := uuid.Parse(c.Subject)
	if err != nil {
		return Principal{}, ErrBadToken
	}
	current, err := s.version(ctx, id)
	if errors.Is(err, domain.ErrNotFound) {
		return Principal{}, ErrBadToken
	}
	if err != nil {
		return Principal{}, err
	}
	if current != c.Version {
		return Principal{}, s.revokedRefusal(ctx, id)
	}
	return Principal{UserID: id, Version: c.Version, Via: c.Via}, nil
}

// revokedRefusal is the refusal of a token we signed for id that was
// revoked since: ErrBadToken, but for a suspended account the suspension's
// refusal (why and until when), so that a member signed out by a
// suspension is told why on the login page the client sends them to. Only
// the account's own token gets that far: its holder learns nothing of
// anyone else.
func (s *Sessions) revokedRefusal(ctx context.Context, id uuid.UUID) error {
	sus, err := persistence.SuspensionOf(ctx, s.db, id)
	if err != nil {
		return err
	}
	if sus == nil {
		return ErrBadToken
	}
	return &suspendedToken{domain.Suspended(domain.KindUnauthorized, sus.Until, sus.Reason)}
}

// suspendedToken is a suspended account's refused token: it is ErrBadToken
// to errors.Is (sockets close, checks fail as for any bad token) and its
// *domain.Error to errors.As (the 401 envelope says why).
type suspendedToken struct{ e *domain.Error }

func (t *suspendedToken) Error() string        { return t.e.Error() }
func (t *suspendedToken) Unwrap() error        { return t.e }
func (t *suspendedToken) Is(target error) bool { return target == ErrBadToken }

func (s *Sessions) version(ctx context.Context, id uuid.UUID) (int, error) {
	now := s.now()
	s.mu.RLock()
	cv, ok := s.versions[id]
	listening := s.listening
	s.mu.RUnlock()
	if ok && listening && now.Sub(cv.at) < versionTTL {
		return cv.version, nil
	}
	v, err := persistence.TokenVersion(ctx, s.db, id)
	if err != nil {
		return 0, err
	}
	s.mu.Lock()
	if len(s.versions) > 200_000 {
		// Bounded memory: start over rather than track LRU order.
		s.versions = make(map[uuid.UUID]cachedVersion)
	}
	s.versions[id] = cachedVersion{version: v, at: now}
	if _, seen := s.unheard[id]; !seen && s.unheard != nil {
		s.unheard[id] = v
	}
	s.mu.Unlock()
	return v, nil
}

// OnRevoke registers fn to run (on this node) whenever a user's tokens are
// revoked on any node — the socket hub closes that user's sockets with it.
func (s *Sessions) OnRevoke(fn func(userID uuid.UUID)) {
	s.hooksMu.Lock()
	s.hooks = append(s.hooks, fn)
	s.hooksMu.Unlock()
}

// OnBlock registers fn to run (on this node) whenever a user blocks another
// on any node (persistence.BlockChannel): the socket hub stops the live
// events between the two with it.
func (s *Sessions) OnBlock(fn func(blocker, blocked uuid.UUID)) {
	s.hooksMu.Lock()
	s.blockHooks = append(s.blockHooks, fn)
	s.hooksMu.Unlock()
}

// OnSafetyChange registers fn to run (on this node) whenever a block is
// made or lifted, or a post removed or deleted, on any node: cached gates
// forget what it touched.
func (s *Sessions) OnSafetyChange(fn func(SafetyChange)) {
	s.hooksMu.Lock()
	s.changeHooks = append(s.changeHooks, fn)
	s.hooksMu.Unlock()
}

// Generation is 0 while revocations and safety changes may go unheard (the
// listener is down), else a number that changes every time the listener
// comes back: what was cached under another generation may have missed a
// NOTIFY.
func (s *Sessions) Generation() uint64 {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if !s.listening {
		return 0
	}
	return s.generation
}

// heard handles a payload of either channel: both travel on one LISTEN
// connection, and a user id, a block pair and the prefixed payloads cannot
// be mistaken for each other.
func (s *Sessions) heard(payload string) {
	if id, err := uuid.Parse(payload); err == nil {
		s.revoked(id)
		return
	}
	if a, b, ok := persistence.ParseBlockPayload(payload); ok {
		s.hooksMu.RLock()
		hooks := append([]func(uuid.UUID, uuid.UUID){}, s.blockHooks...)
		s.hooksMu.RUnlock()
		for _, fn := range hooks {
			fn(a, b)
		}
		s.changed(SafetyChange{A: a, B: b})
		return
	}
	if a, b, ok := persistence.ParseUnblockPayload(payload); ok {
		s.changed(SafetyChange{A: a, B: b})
		return
	}
	if id, ok := persistence.ParsePostRemovedPayload(payload); ok {
		s.changed(SafetyChange{Post: id})
		return
	}
	if id, ok := persistence.ParseSuspensionPayload(payload); ok {
		s.changed(SafetyChange{Suspension: id})
		return
	}
	if g, u, ok := persistence.ParseMemberChangedPayload(payload); ok {
		s.changed(SafetyChange{Group: g, Member: u})
		return
	}
	if g, ok := persistence.ParseGroupChangedPayload(payload); ok {
		s.changed(SafetyChange{Group: g})
	}
}

func (s *Sessions) changed(c SafetyChange) {
	s.hooksMu.RLock()
	hooks := append([]func(SafetyChange){}, s.changeHooks...)
	s.hooksMu.RUnlock()
	for _, fn := range hooks {
		fn(c)
	}
}

func (s *Sessions) revoked(id uuid.UUID) {
	s.mu.Lock()
	delete(s.versions, id)
	s.mu.Unlock()
	s.hooksMu.RLock()
	hooks := append([]func(uuid.UUID){}, s.hooks...)
	s.hooksMu.RUnlock()
	for _, fn := range hooks {
		fn(id)
	}
}

// Revoke bumps id's token version in db (which may be a transaction: the
// NOTIFY then fires at commit) and forgets the cached version locally.
func (s *Sessions) Revoke(ctx context.Context, db bun.IDB, id uuid.UUID) error {
	if _, err := persistence.RevokeTokens(ctx, db, id); err != nil {
		return err
	}
	s.Forget(id)
	return nil
}

// Forget drops id's cached token version on this node at once (other nodes
// learn through the NOTIFY the revoking transaction sent).
func (s *Sessions) Forget(id uuid.UUID) {
	s.mu.Lock()
	delete(s.versions, id)
	s.mu.Unlock()
}

// Listen follows revocations from every node until ctx ends, reconnecting
// after errors with a growing pause (the database may be restarting).
// While disconnected the cache is bypassed; after a reconnect a catch-up
// read finds the revocations whose NOTIFY was lost.
func (s *Sessions) Listen(ctx context.Context) {
	var b persistence.Backoff
	for ctx.Err() == nil {
		err := s.listenOnce(ctx, func() {
			if b.Failures() > 0 {
				s.log.Info().Int("attempts", b.Failures()).Msg("token revocation listener reconnected")
			}
			b.Reset()
		})
		s.stopListening()
		if ctx.Err() != nil {
			return
		}
		if b.Failures() == 0 { // the first failure since it last worked
			s.log.Warn().Err(err).Msg("token revocation listener lost; retrying")
		}
		t := time.NewTimer(b.Next())
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// listenOnce listens until the connection fails; up runs once the LISTEN
// is in effect and the catch-up is done.
func (s *Sessions) listenOnce(ctx context.Context, up func()) error {
	ln := pgdriver.NewListener(s.db)
	defer ln.Close()
	// A blocked receive does not watch ctx: closing the listener ends it.
	stop := context.AfterFunc(ctx, func() { _ = ln.Close() })
	defer stop()
	if err := ln.Listen(ctx, persistence.RevokeChannel, persistence.BlockChannel); err != nil {
		return fmt.Errorf("app: listen revocations: %w", err)
	}
	// A revocation or block while the probe was on its way is handled too.
	err := persistence.AwaitListening(ctx, s.db, ln, persistence.RevokeChannel, s.heard)
	if err != nil {
		return err
	}
	// Every revocation from now on is heard; the ones before are read.
	if err := s.catchUp(ctx); err != nil {
		return err
	}
	up()
	for {
		// A broken connection surfaces here, and the cache is bypassed
		// until a fresh LISTEN is up.
		payload, ok, err := persistence.Receive(ctx, ln, 30*time.Second)
		if !ok {
			if err != nil {
				return fmt.Errorf("app: revocation: %w", err)
			}
			return nil
		}
		s.heard(payload)
	}
}

// catchUp runs the revocation hooks for every user whose token version
// moved (or who was deleted) while nobody listened, then turns the cache on.
func (s *Sessions) catchUp(ctx context.Context) error {
	s.mu.RLock()
	known := make(map[uuid.UUID]int, len(s.unheard))
	for id, v := range s.unheard {
		known[id] = v
	}
	s.mu.RUnlock()
	if len(known) > 0 {
		ids := make([]uuid.UUID, 0, len(known))
		for id := range known {
			ids = append(ids, id)
		}
		now, err := persistence.TokenVersions(ctx, s.db, ids)
		if err != nil {
			return fmt.Errorf("app: revocation catch-up: %w", err)
		}
		missed := 0
		for id, v := range known {
			if cur, ok := now[id]; !ok || cur != v {
				missed++
				s.revoked(id)
			}
		}
		if missed > 0 {
			s.log.Info().Int("users", missed).Msg("revocations sent while the listener was down applied")
		}
	}
	if err := s.catchUpBlocks(ctx); err != nil {
		return err
	}
	// Anything cached before the listener was up may have missed a NOTIFY.
	s.mu.Lock()
	s.versions = make(map[uuid.UUID]cachedVersion)
	s.unheard = nil
	s.unheardSince = time.Time{}
	s.listening = true
	s.generation++
	s.mu.Unlock()
	return nil
}

// blockCatchUpMargin widens the catch-up's window of blocks for the skew
// between this node's clock and the database's: running a block's hooks
// twice is harmless.
const blockCatchUpMargin = time.Minute

// catchUpBlocks runs the block hooks for the blocks made while the
// listener was down.
func (s *Sessions) catchUpBlocks(ctx context.Context) error {
	s.mu.RLock()
	since := s.unheardSince
	s.mu.RUnlock()
	if since.IsZero() {
		return nil
	}
	pairs, err := persistence.BlocksSince(ctx, s.db, since.Add(-blockCatchUpMargin))
	if err != nil {
		return fmt.Errorf("app: block catch-up: %w", err)
	}
	for _, p := range pairs {
		s.heard(persistence.BlockPayload(p[0], p[1]))
	}
	if len(pairs) > 0 {
		s.log.Info().Int("blocks", len(pairs)).Msg("blocks made while the listener was down applied")
	}
	return nil
}

// Listening reports whether revocations are being received (and the token
// version cache is in use).
func (s *Sessions) Listening() bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.listening
}

// stopListening records that revocations may go unheard from now on: the
// cache is bypassed, and what it knows is kept for the catch-up.
func (s *Sessions) stopListening() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.unheardSince.IsZero() {
		s.unheardSince = s.now()
	}
	if s.unheard == nil {
		s.unheard = make(map[uuid.UUID]int, len(s.versions))
		for id, cv := range s.versions {
			s.unheard[id] = cv.version
		}
	}
	s.listening = false
}
