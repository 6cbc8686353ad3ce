package app

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/rs/zerolog"
	"github.com/uptrace/bun"

	"campus/config"
	"campus/domain"
	"campus/persistence"
)

// List sizes of the safety lists (blocked, muted, queue, audit).
const (
	safetyPageDefault = 20
	safetyPageMax     = 100
)

var (
	errCannotBlockSelf = domain.InvalidField("userId", domain.MsgCannotBlockSelf)
	errCannotMuteSelf  = domain.InvalidField("userId", domain.MsgCannotMuteSelf)
	errAlreadyReported = domain.Conflict(domain.MsgAlreadyReported)
	errReportOwn       = domain.InvalidField("itemId", domain.MsgCannotReportOwn)
	errItemNotFound    = domain.NotFound("This content is no longer available")
)

// SafetyDeps are what blocks, mutes and reports need.
type SafetyDeps struct {
	DB *bun.DB
	// Gates, when set, forgets a block's pair at once on this node.
	Gates *Gates
	// Messages, when set, tells the two people of a direct conversation
	// that a block made or lifted changed whether they can write there.
	Messages *Messages
	Log      zerolog.Logger
}

// Safety is blocking, muting and reporting: what any member does to keep
// themselves safe.
type Safety struct {
	d SafetyDeps
}

// NewSafety wires the safety use cases.
func NewSafety(d SafetyDeps) *Safety { return &Safety{d: d} }

// ListedUserView is a person in the blocked or muted list.
type ListedUserView struct {
	User     UserSummary `json:"user"`
	ListedAt time.Time   `json:"listedAt"`
}

// ListedUsersResult answers GET /api/safety/blocks and /mutes.
type ListedUsersResult struct {
	Users      []ListedUserView `json:"users"`
	NextCursor *string          `json:"nextCursor"`
}

// RelationResult answers block, unblock, mute and unmute.
type RelationResult struct {
	Message string `json:"message"`
	UserID  string `json:"userId"`
}

// ReportResult answers a report. The reporter's identity is never shown
// to the reported person; this answer goes to the reporter only.
type ReportResult struct {
	Message string `json:"message"`
	ID      string `json:"id"`
}

// Block blocks id for the caller: each stops seeing the other, and their
// friendship and pending requests end. Blocking twice is harmless.
func (s *Safety) Block(ctx context.Context, p Principal, id uuid.UUID) (RelationResult, error) {
	if id == p.UserID {
		return RelationResult{}, errCannotBlockSelf
	}
	err := s.d.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := persistence.VerifiedUserByID(ctx, tx, id); err != nil {
			if isNotFound(err) {
				return errUserNotFound
			}
			return err
		}
		if err := persistence.LockFriendPair(ctx, tx, p.UserID, id); err != nil {
			return err
		}
		_, err := persistence.BlockUser(ctx, tx, p.UserID, id)
		return err
	})
	if err != nil {
		return RelationResult{}, err
	}
	s.changed(p.UserID, id)
	s.d.Log.Info().Str("user_id", p.UserID.String()).Str("blocked_id", id.String()).Msg("user blocked")
	return RelationResult{Message: "User blocked", UserID: id.String()}, nil
}

// Unblock lifts the caller's block of id; visibility returns, the
// friendship does not.
func (s *Safety) Unblock(ctx context.Context, p Principal, id uuid.UUID) (RelationResult, error) {
	ok, err := persistence.UnblockUser(ctx, s.d.DB, p.UserID, id)
	if err != nil {
		return RelationResult{}, err
	}
	if !ok {
		return RelationResult{}, domain.NotFound("You have not blocked this user")
	}
	s.changed(p.UserID, id)
	return RelationResult{Message: "User unblocked", UserID: id.String()}, nil
}

// changed tells this node's cached gates of a block made or lifted between
// a and b (other nodes hear the NOTIFY), and both people their direct
// conversation's new state (read-only or writable again).
func (s *Safety) changed(a, b uuid.UUID) {
	if s.d.Gates != nil {
		s.d.Gates.Changed(SafetyChange{A: a, B: b})
	}
	if s.d.Messages != nil {
		s.d.Messages.PairChanged(context.Background(), a, b)
	}
}

// Blocked is the caller's blocked list, newest first.
func (s *Safety) Blocked(ctx context.Context, p Principal, limit int, cursor string) (ListedUsersResult, error) {
	return s.list(ctx, p, limit, cursor, persistence.BlockList)
}

// Muted is the caller's muted list, newest first.
func (s *Safety) Muted(ctx context.Context, p Principal, limit int, cursor string) (ListedUsersResult, error) {
	return s.list(ctx, p, limit, cursor, persistence.MuteList)
}

func (s *Safety) list(ctx context.Context, p Principal, limit int, cursor string,
	load func(context.Context, bun.IDB, uuid.UUID, persistence.Keyset, int) ([]persistence.ListedUser, error),
) (ListedUsersResult, error) {
	rows, next, err := safetyPage(limit, cursor, func(after persistence.Keyset, n int) ([]persistence.ListedUser, error) {
		return load(ctx, s.d.DB, p.UserID, after, n)
	}, func(r *persistence.ListedUser) persistence.Keyset {
		return persistence.Keyset{At: r.ListedAt, ID: r.ID}
	})
	if err != nil {
		return ListedUsersResult{}, err
	}
	out := ListedUsersResult{Users: make([]ListedUserView, 0, len(rows)), NextCursor: next}
	for i := range rows {
		out.Users = append(out.Users, ListedUserView{User: NewUserSummary(&rows[i].User), ListedAt: rows[i].ListedAt})
	}
	return out, nil
}

// safetyPage reads one keyset page of a safety or moderation list: it
// decodes cursor, loads one row more than the page holds after it, and
// answers the page's rows with the cursor of its last row when more follow
// (nil on the last page). key is a row's place in the list's order.
func safetyPage[R any](limit int, cursor string, load func(after persistence.Keyset, n int) ([]R, error),
	key func(*R) persistence.Keyset,
) ([]R, *string, error) {
	limit = keysetLimit(limit, safetyPageDefault, safetyPageMax)
	after, err := decodeKeyset(cursor)
	if err != nil {
		return nil, nil, err
	}
	rows, err := load(after, limit+1)
	if err != nil || len(rows) <= limit {
		return rows, nil, err
	}
	next := encodeKeyset(key(&rows[limit-1]))
	return rows[:limit], &next, nil
}

// Mute hides id's posts from the caller's feed; id is not told.
func (s *Safety) Mute(ctx context.Context, p Principal, id uuid.UUID) (RelationResult, error) {
	if id == p.UserID {
		return RelationResult{}, errCannotMuteSelf
	}
	if _, err := persistence.VerifiedUserByID(ctx, s.d.DB, id); err != nil {
		if isNotFound(err) {
			return RelationResult{}, errUserNotFound
		}
		return RelationResult{}, err
	}
	if _, err := persistence.MuteUser(ctx, s.d.DB, p.UserID, id); err != nil {
		if isNotFound(err) {
			return RelationResult{}, errUserNotFound
		}
		return RelationResult{}, err
	}
	return RelationResult{Message: "User muted", UserID: id.String()}, nil
}

// Unmute shows id's posts in the caller's feed again.
func (s *Safety) Unmute(ctx context.Context, p Principal, id uuid.UUID) (RelationResult, error) {
	ok, err := persistence.UnmuteUser(ctx, s.d.DB, p.UserID, id)
	if err != nil {
		return RelationResult{}, err
	}
	if !ok {
		return RelationResult{}, domain.NotFound("You have not muted this user")
	}
	return RelationResult{Message: "User unmuted", UserID: id.String()}, nil
}

// Report files a report of a post, comment or profile the caller can see.
// One open report per reporter per item: a second answers 409.
func (s *Safety) Report(ctx context.Context, p Principal, in domain.ReportInput) (ReportResult, error) {
	r, err := in.Validate()
	if err != nil {
		return ReportResult{}, err
	}
	id, err := uuid.Parse(in.ItemID)
	if err != nil {
		return ReportResult{}, errItemNotFound
	}
	// What the reporter cannot read answers as what does not exist (404,
	// as GET /api/posts/{id} does): a report must not reveal a closed or
	// secret group's posts, nor anything across a block.
	author, err := persistence.ItemAuthor(ctx, s.d.DB, string(r.ItemType), id, p.UserID)
	if isNotFound(err) {
		return ReportResult{}, errItemNotFound
	}
	if err != nil {
		return ReportResult{}, err
	}
	if author == p.UserID {
		return ReportResult{}, errReportOwn
	}
	row := &persistence.Report{ID: persistence.NewID(), ReporterID: p.UserID, ItemType: string(r.ItemType),
		ItemID: id, ItemAuthorID: author, Reason: string(r.Reason), Details: r.Details}
	if err := persistence.InsertReport(ctx, s.d.DB, row); err != nil {
		if persistence.IsDuplicateReport(err) {
			return ReportResult{}, errAlreadyReported
		}
		return ReportResult{}, err
	}
	s.d.Log.Info().Str("user_id", p.UserID.String()).Str("item_type", row.ItemType).Str("item_id", id.String()).
		Str("reason", row.Reason).Msg("content reported")
	return ReportResult{Message: "Thanks for reporting. A moderator will look at it.", ID: row.ID.String()}, nil
}

// blockedWith answers whether a block stands between a and b (either way).
func blockedWith(ctx context.Context, db bun.IDB, a, b uuid.UUID) (bool, error) {
	if a == b {
		return false, nil
	}
	return persistence.IsBlocked(ctx, db, a, b)
}

// Brakes are the spam brakes on new accounts (issue 17): an account younger
// than the configured age may make only so many posts, comments, friend
// requests, conversations and messages an hour. Keyed on the account like every limit (docs/architecture.md §10);
// per node, like the other limiters. Safe for concurrent use.
type Brakes struct {
	db       bun.IDB
	age      time.Duration
	posts    *Limiter
	comments *Limiter
	requests *Limiter
	// conversations and messages limit starting conversations and
	// sending messages.
	conversations *Limiter
	messages      *Limiter
	now           func() time.Time

	mu      sync.Mutex
	created map[uuid.UUID]time.Time // accounts' creation times (they never change)
}

// Things the brakes limit.
type brake int

const (
	brakePost brake = iota + 1
	brakeComment
	brakeRequest
	brakeConversation
	brakeMessage
)

// NewBrakes makes the brakes; with enabled false they allow everything.
func NewBrakes(db bun.IDB, l config.NewAccountLimits, enabled bool) *Brakes {
	per := func(n int) *Limiter { return NewLimiter(n, time.Hour, n, enabled && n > 0) }
	return &Brakes{db: db, age: l.Age, posts: per(l.PostsPerHour), comments: per(l.CommentsPerHour),
		requests: per(l.RequestsPerHour), conversations: per(l.ConversationsPerHour), messages: per(l.MessagesPerHour),
		now: time.Now, created: make(map[uuid.UUID]time.Time)}
}

// errSlowDown is a new account's refusal.
func errSlowDown(wait int) error {
	return domain.TooMany("New accounts can only do this a few times an hour. Please try again later.", wait)
}

// check takes one of what from user's budget if user's account is new.
func (b *Brakes) check(ctx context.Context, user uuid.UUID, what brake) error {
	if b == nil {
		return nil
	}
	l := map[brake]*Limiter{brakePost: b.posts, brakeComment: b.comments, brakeRequest: b.requests,
		brakeConversation: b.conversations, brakeMessage: b.messages}[what]
	if l == nil || l.off {
		return nil
	}
	created, err := b.createdAt(ctx, user)
	if err != nil {
		return err
	}
	if b.now().Sub(created) >= b.age {
		return nil
	}
	if ok, wait := l.Allow(user.String()); !ok {
		return errSlowDown(wait)
	}
	return nil
}

func (b *Brakes) createdAt(ctx context.Context, user uuid.UUID) (time.Time, error) {
	b.mu.Lock()
	t, ok := b.created[user]
	b.mu.Unlock()
	if ok {
		return t, nil
	}
	u, err := persistence.UserByID(ctx, b.db, user)
	if err != nil {
		if errors.Is(err, domain.ErrNotFound) {
			return time.Time{}, ErrBadToken
		}
		return time.Time{}, err
	}
	b.mu.Lock()
	if len(b.created) > 200_000 { // bounded: start over rather than track recency
		b.created = make(map[uuid.UUID]time.Time)
	}
	b.created[user] = u.CreatedAt
	b.mu.Unlock()
	return u.CreatedAt, nil
}
