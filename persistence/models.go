package persistence

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// Conventions shared by the models:
//   - IDs are UUIDv7 from NewID. They carry nullzero, so a forgotten ID
//     fails the insert (NOT NULL) instead of storing the nil UUID.
//   - Optional text columns are NOT NULL DEFAULT '' in the schema and plain
//     strings here; optional references and timestamps are nullable columns
//     and zero values here (nullzero): the zero time means "not yet".
//   - created_at/updated_at left zero take the database's now().

// NewID returns a new time-ordered ID for any table's id column.
func NewID() uuid.UUID {
	return uuid.Must(uuid.NewV7()) // fails only if crypto/rand does, which the runtime treats as fatal anyway
}

// User is an account: a student or a faculty member.
type User struct {
	bun.BaseModel `bun:"table:users,alias:u"`

	ID   uuid.UUID `bun:"id,pk,type:uuid,nullzero"`
	Name string    `bun:"name,notnull"`
	// Handle is what an @mention names the account by (domain.ValidUserHandle).
	// The database makes it from the name when the account is inserted
	// without one (migration 20261201000001); it does not follow renames.
	Handle string `bun:"handle,nullzero"`
	Email  string `bun:"email,notnull"`
	// EmailVerifiedAt is zero until the signup code is confirmed.
	EmailVerifiedAt time.Time `bun:"email_verified_at,nullzero"`
	PasswordHash    string    `bun:"password_hash,notnull"`
	Role            string    `bun:"role,notnull"`
	// UniversityID is empty (NULL) for faculty; unique ignoring case.
	UniversityID string `bun:"university_id,nullzero"`
	CollegeID    string `bun:"college_id,notnull"`
	Department   string `bun:"department,notnull"`
	// Course is the spec's "program".
	Course    string `bun:"course,notnull"`
	Batch     string `bun:"batch,notnull"`
	AvatarURL string `bun:"avatar_url,notnull"`
	AvatarKey string `bun:"avatar_key,notnull"`
	CoverURL  string `bun:"cover_url,notnull"`
	CoverKey  string `bun:"cover_key,notnull"`
	// AvatarVariants and CoverVariants are the smaller copies of the
	// avatar and the cover, empty for images from before they were made.
	AvatarVariants ImageVariants `bun:"avatar_variants,notnull"`
	CoverVariants  ImageVariants `bun:"cover_variants,notnull"`
	Bio            string        `bun:"bio,notnull"`
	Location       string        `bun:"location,notnull"`
	// TokenVersion is part of every token; bumping it revokes them all.
	TokenVersion int `bun:"token_version,notnull"`
	// UnreadNotifications is kept by triggers on notifications (migration
	// 0004); Bun never writes it.
	UnreadNotifications int `bun:"unread_notifications,scanonly"`
	// OTPFailures counts wrong codes across codes; a resend keeps it.
	OTPFailures int `bun:"otp_failures,notnull"`
	// OTPFailedAt is the time of the last wrong code; failures older than
	// the lock-out window no longer count.
	OTPFailedAt time.Time `bun:"otp_failed_at,nullzero"`
	CreatedAt   time.Time `bun:"created_at,nullzero,notnull,default:current_timestamp"`
	UpdatedAt   time.Time `bun:"updated_at,nullzero,notnull,default:current_timestamp"`
}

// Education is a profile's education block.
type Education struct {
	Degree      string `json:"degree"`
	Institution string `json:"institution"`
	Years       string `json:"years"`
}

// Skill is one profile skill; Proficiency runs 0-100.
type Skill struct {
	Name        string `json:"name"`
	Proficiency int    `json:"proficiency"`
}

// Achievement is one entry of a profile's "Achievements & Awards".
type Achievement struct {
	Title       string `json:"title"`
	Description string `json:"description"`
	Year        string `json:"year"`
}

// Profile holds the editable extras of a user, one row per user.
type Profile struct {
	bun.BaseModel `bun:"table:profiles,alias:pr"`

	UserID       uuid.UUID     `bun:"user_id,pk,type:uuid,nullzero"`
	Education    Education     `bun:"education,type:jsonb,notnull"`
	Skills       []Skill       `bun:"skills,type:jsonb,notnull"`
	Achievements []Achievement `bun:"achievements,type:jsonb,notnull"`
	Interests    []string      `bun:"interests,type:jsonb,notnull"`
	LikesCount   int           `bun:"likes_count,notnull"`
	// SetupCompletedAt is zero until onboarding's profile setup is done.
	SetupCompletedAt time.Time `bun:"setup_completed_at,nullzero"`
	UpdatedAt        time.Time `bun:"updated_at,nullzero,notnull,default:current_timestamp"`
}

var _ bun.BeforeAppendModelHook = (*Profile)(nil)

// BeforeAppendModel stores nil lists as [] rather than JSON null, which the
// schema's jsonb_typeof checks reject.
func (p *Profile) BeforeAppendModel(context.Context, bun.Query) error {
	if p.Skills == nil {
		p.Skills = []Skill{}
	}
	if p.Achievements == nil {
		p.Achievements = []Achievement{}
	}
	if p.Interests == nil {
		p.Interests = []string{}
	}
	return nil
}

// Experience is one entry of a user's work or study history.
type Experience struct {
	bun.BaseModel `bun:"table:experience,alias:ex"`

	ID           uuid.UUID `bun:"id,pk,type:uuid,nullzero"`
	UserID       uuid.UUID `bun:"user_id,type:uuid,nullzero,notnull"`
	Title        string    `bun:"title,notnull"`
	Organization string    `bun:"organization,notnull"`
	Location     string    `bun:"location,notnull"`
	StartDate    string    `bun:"start_date,notnull"`
	EndDate      string    `bun:"end_date,notnull"`
	Description  string    `bun:"description,notnull"`
	Position     int       `bun:"position,notnull"`
	CreatedAt    time.Time `bun:"created_at,nullzero,notnull,default:current_timestamp"`
	UpdatedAt    time.Time `bun:"updated_at,nullzero,notnull,default:current_timestamp"`
}

// Post is a post with its counters, which move in the same transaction as
// the rows they count.
type Post struct {
	bun.BaseModel `bun:"table:posts,alias:p"`

	ID            uuid.UUID `bun:"id,pk,type:uuid,nullzero"`
	UserID        uuid.UUID `bun:"user_id,type:uuid,nullzero,notnull"`
	Content       string    `bun:"content,notnull"`
	Visibility    string    `bun:"visibility,nullzero,notnull,default:'public'"`
	LikesCount    int       `bun:"likes_count,notnull"`
	CommentsCount int       `bun:"comments_count,notnull"`
	// RepostsCount is how many people reposted the post.
	RepostsCount int `bun:"reposts_count,notnull"`
	// CountsVersion grows with every commit that moves LikesCount,
	// CommentsCount or RepostsCount: of two copies of a post's counts the
	// higher is newer.
	CountsVersion int64 `bun:"counts_version,notnull"`
	// GroupID is the post's group; zero (NULL) outside groups.
	GroupID uuid.UUID `bun:"group_id,type:uuid,nullzero"`
	// RepostOf makes the row a repost of that post, Content its comment;
	// zero (NULL) for a post of its own.
	RepostOf  uuid.UUID `bun:"repost_of,type:uuid,nullzero"`
	CreatedAt time.Time `bun:"created_at,nullzero,notnull,default:current_timestamp"`
	UpdatedAt time.Time `bun:"updated_at,nullzero,notnull,default:current_timestamp"`

	Author *User        `bun:"rel:belongs-to,join:user_id=id"`
	Images []*PostImage `bun:"rel:has-many,join:id=post_id"`
}

// PostImage is one of a post's up to three images, at Position 0-2.
type PostImage struct {
	bun.BaseModel `bun:"table:post_images,alias:pi"`

	ID          uuid.UUID `bun:"id,pk,type:uuid,nullzero"`
	PostID      uuid.UUID `bun:"post_id,type:uuid,nullzero,notnull"`
	Position    int16     `bun:"position,notnull"`
	StorageKey  string    `bun:"storage_key,notnull"`
	URL         string    `bun:"url,notnull"`
	Type        string    `bun:"type,nullzero,notnull,default:'image'"`
	ContentType string    `bun:"content_type,notnull"`
	Width       int       `bun:"width,notnull"`
	Height      int       `bun:"height,notnull"`
	SizeBytes   int64     `bun:"size_bytes,notnull"`
	// Alt is the image's description for those who cannot see it.
	Alt       string        `bun:"alt,notnull"`
	Variants  ImageVariants `bun:"variants,notnull"`
	CreatedAt time.Time     `bun:"created_at,nullzero,notnull,default:current_timestamp"`
}

// PostLike is one user's like of one post.
type PostLike struct {
	bun.BaseModel `bun:"table:post_likes,alias:pl"`

	PostID    uuid.UUID `bun:"post_id,pk,type:uuid,nullzero"`
	UserID    uuid.UUID `bun:"user_id,pk,type:uuid,nullzero"`
	CreatedAt time.Time `bun:"created_at,nullzero,notnull,default:current_timestamp"`
}

// Comment is a comment on a post.
type Comment struct {
	bun.BaseModel `bun:"table:comments,alias:c"`

	ID        uuid.UUID `bun:"id,pk,type:uuid,nullzero"`
	PostID    uuid.UUID `bun:"post_id,type:uuid,nullzero,notnull"`
	UserID    uuid.UUID `bun:"user_id,type:uuid,nullzero,notnull"`
	Content   string    `bun:"content,notnull"`
	CreatedAt time.Time `bun:"created_at,nullzero,notnull,default:current_timestamp"`
	UpdatedAt time.Time `bun:"updated_at,nullzero,notnull,default:current_timestamp"`

	Author *User `bun:"rel:belongs-to,join:user_id=id"`
	// Mentions are the people the comment names (filled by the queries
	// that read comments for display, and by the batch that stores it).
	Mentions []MentionRef `bun:"-"`
	// MentionNotices are the people its mentions notify: set by the batch
	// that stored it, for the post grain to tell them.
	MentionNotices []uuid.UUID `bun:"-"`
}

// Friend request statuses.
const (
	RequestPending   = "pending"
	RequestAccepted  = "accepted"
	RequestDeclined  = "declined"
	RequestCancelled = "cancelled"
)

// FriendRequest is a request from Sender to Receiver. At most one per
// direction is pending at a time.
type FriendRequest struct {
	bun.BaseModel `bun:"table:friend_requests,alias:fr"`

	ID         uuid.UUID `bun:"id,pk,type:uuid,nullzero"`
	SenderID   uuid.UUID `bun:"sender_id,type:uuid,nullzero,notnull"`
	ReceiverID uuid.UUID `bun:"receiver_id,type:uuid,nullzero,notnull"`
	Status     string    `bun:"status,nullzero,notnull,default:'pending'"`
	CreatedAt  time.Time `bun:"created_at,nullzero,notnull,default:current_timestamp"`
	UpdatedAt  time.Time `bun:"updated_at,nullzero,notnull,default:current_timestamp"`

	Sender   *User `bun:"rel:belongs-to,join:sender_id=id"`
	Receiver *User `bun:"rel:belongs-to,join:receiver_id=id"`
}

// Friendship is one row per pair of friends with UserLow < UserHigh; build
// it with NewFriendship.
type Friendship struct {
	bun.BaseModel `bun:"table:friendships,alias:fs"`

	UserLow   uuid.UUID `bun:"user_low,pk,type:uuid,nullzero"`
	UserHigh  uuid.UUID `bun:"user_high,pk,type:uuid,nullzero"`
	CreatedAt time.Time `bun:"created_at,nullzero,notnull,default:current_timestamp"`
}

// NewFriendship orders the pair the way the table requires.
func NewFriendship(a, b uuid.UUID) Friendship {
	if uuidLess(b, a) {
		a, b = b, a
	}
	return Friendship{UserLow: a, UserHigh: b}
}

// uuidLess orders UUIDs as Postgres does: bytewise.
func uuidLess(a, b uuid.UUID) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// ProfileLike is Liker liking UserID's profile.
type ProfileLike struct {
	bun.BaseModel `bun:"table:profile_likes,alias:plk"`

	UserID    uuid.UUID `bun:"user_id,pk,type:uuid,nullzero"`
	LikerID   uuid.UUID `bun:"liker_id,pk,type:uuid,nullzero"`
	CreatedAt time.Time `bun:"created_at,nullzero,notnull,default:current_timestamp"`
}

// Notification types (the server form of docs/product.md §3).
const (
	NotifyFriendRequest  = "friend_request"
	NotifyFriendAccepted = "friend_accepted"
	NotifyLike           = "like"
	NotifyComment        = "comment"
	NotifyOther          = "other"
	// NotifyProfileLike rolls up like NotifyLike, one row per user rather
	// than per post (migration 20261124000007).
	NotifyProfileLike = "profile_like"
	// NotifyMention rolls up like NotifyLike, one row per person and post
	// (migration 20261201000001).
	NotifyMention = "mention"
	// NotifyRepost rolls up like NotifyLike, one row per post: someone
	// reposted the user's post (migration 20261203000001).
	NotifyRepost = "repost"
)

// Notification is something that happened to UserID. SenderID, PostID and
// CommentID are the zero UUID (NULL) when they do not apply.
//
// Like notifications roll up (docs/architecture.md §6.1): one row per (user, post),
// updated in place as likes arrive, with no sender: its actor_ids column
// holds the newest likers, newest first (written only by
// CreateNotifications and DeleteAccount), and ActorCount how many people
// like the post. Other kinds have one actor, the sender, and ActorCount 1.
type Notification struct {
	bun.BaseModel `bun:"table:notifications,alias:n"`

	ID        uuid.UUID `bun:"id,pk,type:uuid,nullzero"`
	UserID    uuid.UUID `bun:"user_id,type:uuid,nullzero,notnull"`
	Type      string    `bun:"type,notnull"`
	SenderID  uuid.UUID `bun:"sender_id,type:uuid,nullzero"`
	PostID    uuid.UUID `bun:"post_id,type:uuid,nullzero"`
	CommentID uuid.UUID `bun:"comment_id,type:uuid,nullzero"`
	IsRead    bool      `bun:"is_read,notnull"`
	// ActorCount is how many people the row stands for (1 unless a roll-up).
	ActorCount int       `bun:"actor_count,nullzero,notnull,default:1"`
	CreatedAt  time.Time `bun:"created_at,nullzero,notnull,default:current_timestamp"`
	// UpdatedAt is when the row last changed (a roll-up moves it with every
	// batch of likes); lists are ordered by it.
	UpdatedAt time.Time `bun:"updated_at,nullzero,notnull,default:current_timestamp"`
	// Note is the text of a moderation notification (why content was removed).
	Note string `bun:"note,notnull"`
	// GroupID is the group of a group notification; zero otherwise.
	GroupID uuid.UUID `bun:"group_id,type:uuid,nullzero"`

	// Actors are the people shown, newest first: a roll-up's newest likers
	// that still exist, or the sender. Filled by the queries that read
	// notifications for display; never written.
	Actors []*User `bun:"-"`
	// PostSnippet is the start of the post's text, when there is a post.
	PostSnippet string `bun:"-"`
	// GroupHandle and GroupName describe GroupID for display.
	GroupHandle string `bun:"-"`
	GroupName   string `bun:"-"`
}

// One-time code purposes.
const (
	PurposeSignup         = "signup"
	PurposeReset          = "reset"
	PurposeEmailChange    = "email_change"
	PurposePasswordChange = "password_change"
	PurposeDeleteAccount  = "delete_account"
)

// OTPCode is a hashed one-time code sent to Email for one purpose.
type OTPCode struct {
	bun.BaseModel `bun:"table:otp_codes,alias:otp"`

	ID uuid.UUID `bun:"id,pk,type:uuid,nullzero"`
	// UserID is zero when the code is not tied to an account yet.
	UserID     uuid.UUID `bun:"user_id,type:uuid,nullzero"`
	Email      string    `bun:"email,notnull"`
	Purpose    string    `bun:"purpose,notnull"`
	CodeHash   []byte    `bun:"code_hash,type:bytea,notnull"`
	Attempts   int       `bun:"attempts,notnull"`
	ExpiresAt  time.Time `bun:"expires_at,notnull"`
	ConsumedAt time.Time `bun:"consumed_at,nullzero"`
	CreatedAt  time.Time `bun:"created_at,nullzero,notnull,default:current_timestamp"`
}

// Search outbox entities and operations.
const (
	EntityUser    = "user"
	EntityPost    = "post"
	EntityComment = "comment"
	OpUpsert      = "upsert"
	OpDelete      = "delete"
)

// OutboxChannel is the LISTEN channel notified after outbox inserts.
const OutboxChannel = "search_outbox"

// OutboxEntry tells the search indexers that an entity changed. Write it in
// the same transaction as the change.
type OutboxEntry struct {
	bun.BaseModel `bun:"table:search_outbox,alias:so"`

	ID        int64     `bun:"id,pk,autoincrement"`
	Entity    string    `bun:"entity,notnull"`
	EntityID  uuid.UUID `bun:"entity_id,type:uuid,nullzero,notnull"`
	Op        string    `bun:"op,notnull"`
	CreatedAt time.Time `bun:"created_at,nullzero,notnull,default:current_timestamp"`
}
