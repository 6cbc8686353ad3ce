package persistence

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// friendPairLockSpace keeps friend-pair advisory locks apart from other
// advisory locks (the migration lock uses a different key).
const friendPairLockSpace = "campus:friend-pair:"

// LockFriendPair serializes everything that changes the relation between a
// and b (requests either way, friendship) until the transaction ends. Two
// people asking each other at the same moment then see each other's request
// instead of racing. tx must be a transaction.
func LockFriendPair(ctx context.Context, tx bun.Tx, a, b uuid.UUID) error {
	f := NewFriendship(a, b)
	h := fnv.New64a()
	h.Write([]byte(friendPairLockSpace))
	h.Write(f.UserLow[:])
	h.Write(f.UserHigh[:])
	key := int64(binary.BigEndian.Uint64(h.Sum(nil))) //nolint:gosec // any 64 bits do
	if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock(?)", key); err != nil {
		return fmt.Errorf("persistence: lock friend pair: %w", err)
	}
	return nil
}

// AreFriends reports whether a and b are friends.
func AreFriends(ctx context.Context, db bun.IDB, a, b uuid.UUID) (bool, error) {
	f := NewFriendship(a, b)
	ok, err := db.NewSelect().Model((*Friendship)(nil)).Where("user_low = ? AND user_high = ?", f.UserLow, f.UserHigh).Exists(ctx)
	if err != nil {
		return false, fmt.Errorf("persistence: are friends: %w", err)
	}
	return ok, nil
}

// AddFriendship makes a and b friends; false if they already were.
func AddFriendship(ctx context.Context, db bun.IDB, a, b uuid.UUID) (bool, error) {
	f := NewFriendship(a, b)
	res, err := db.NewInsert().Model(&f).On("CONFLICT DO NOTHING").Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("persistence: add friendship: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// RemoveFriendship ends the friendship of a and b; false if there was none.
func RemoveFriendship(ctx context.Context, db bun.IDB, a, b uuid.UUID) (bool, error) {
	f := NewFriendship(a, b)
	res, err := db.NewDelete().Model((*Friendship)(nil)).Where("user_low = ? AND user_high = ?", f.UserLow, f.UserHigh).Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("persistence: remove friendship: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// InsertFriendRequest stores a new pending request. A second pending
// request between the same two people, either way, violates
// friend_requests_pending_pair_key.
func InsertFriendRequest(ctx context.Context, db bun.IDB, r *FriendRequest) error {
	r.Status = RequestPending
	if _, err := db.NewInsert().Model(r).Returning("created_at, updated_at").Exec(ctx); err != nil {
		return fmt.Errorf("persistence: insert friend request: %w", err)
	}
	return nil
}

// PendingRequest is the pending request from sender to receiver;
// domain.ErrNotFound when there is none.
func PendingRequest(ctx context.Context, db bun.IDB, sender, receiver uuid.UUID) (*FriendRequest, error) {
	r := new(FriendRequest)
	err := db.NewSelect().Model(r).
		Where("fr.sender_id = ? AND fr.receiver_id = ? AND fr.status = ?", sender, receiver, RequestPending).Scan(ctx)
	if err != nil {
		return nil, notFound(err, "persistence: pending request")
	}
	return r, nil
}

// LockFriendRequest loads a request by id and locks it until the
// transaction ends; domain.ErrNotFound when there is none.
func LockFriendRequest(ctx context.Context, tx bun.Tx, id uuid.UUID) (*FriendRequest, error) {
	r := new(FriendRequest)
	if err := tx.NewSelect().Model(r).Where("fr.id = ?", id).For("UPDATE").Scan(ctx); err != nil {
		return nil, notFound(err, "persistence: lock friend request")
	}
	return r, nil
}

// SetRequestStatus moves a request to status.
func SetRequestStatus(ctx context.Context, db bun.IDB, r *FriendRequest, status string) error {
	err := db.NewUpdate().Model(r).Set("status = ?", status).Set("updated_at = now()").
		WherePK().Returning("status, updated_at").Scan(ctx)
	if err != nil {
		return fmt.Errorf("persistence: set request status: %w", err)
	}
	return nil
}

// Keyset is a position in a list ordered by (At, ID) descending (or by
// (Key, ID) ascending for lists sorted by name). The zero Keyset is the
// start of the list.
type Keyset struct {
	At  time.Time
	Key string
	ID  uuid.UUID
}

// IsZero reports whether k is the start of a list.
func (k Keyset) IsZero() bool { return k.ID == uuid.Nil }

// friendIDs is a subquery of userID's friends' ids.
const friendIDs = `(SELECT user_high AS id FROM friendships WHERE user_low = ?0
	UNION ALL SELECT user_low FROM friendships WHERE user_high = ?0)`

// FriendsOf lists userID's friends by name (case-insensitive), then id,
// starting after the keyset.
func FriendsOf(ctx context.Context, db bun.IDB, userID uuid.UUID, after Keyset, limit int) ([]User, error) {
	var out []User
	q := db.NewSelect().Model(&out).
		Where("u.id IN "+friendIDs, userID).
		OrderExpr("lower(u.name), u.id").Limit(int64(limit))
	if !after.IsZero() {
		q = q.Where("(lower(u.name), u.id) > (?, ?)", after.Key, after.ID)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, fmt.Errorf("persistence: friends of: %w", err)
	}
	return out, nil
}

// Request list directions.
const (
	Received = "received"
	Sent     = "sent"
)

// PendingRequests lists userID's pending requests, received or sent, newest
// first, with both users, starting after the keyset.
func PendingRequests(ctx context.Context, db bun.IDB, userID uuid.UUID, direction string, after Keyset, limit int) ([]FriendRequest, error) {
	col := "fr.receiver_id"
	if direction == Sent {
		col = "fr.sender_id"
	}
	var out []FriendRequest
	q := db.NewSelect().Model(&out).Relation("Sender").Relation("Receiver").
		Where("? = ? AND fr.status = ?", bun.Safe(col), userID, RequestPending).
		OrderExpr("fr.created_at DESC, fr.id DESC").Limit(int64(limit))
	if !after.IsZero() {
		q = q.Where("(fr.created_at, fr.id) < (?, ?)", after.At, after.ID)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, fmt.Errorf("persistence: pending requests: %w", err)
	}
	return out, nil
}

// Relation is how one user stands towards another.
type Relation struct {
	IsFriend bool
	// SentID and ReceivedID are the pending request from me to them and
	// from them to me; uuid.Nil when there is none.
	SentID     uuid.UUID
	ReceivedID uuid.UUID
}

// RelationOf tells how me stands towards other.
func RelationOf(ctx context.Context, db bun.IDB, me, other uuid.UUID) (Relation, error) {
	var rel Relation
	friends, err := AreFriends(ctx, db, me, other)
	if err != nil {
		return rel, err
	}
	rel.IsFriend = friends
	var reqs []FriendRequest
	err = db.NewSelect().Model(&reqs).Column("id", "sender_id", "receiver_id").
		Where("status = ?", RequestPending).
		Where("(sender_id = ?0 AND receiver_id = ?1) OR (sender_id = ?1 AND receiver_id = ?0)", me, other).Scan(ctx)
	if err != nil {
		return rel, fmt.Errorf("persistence: relation: %w", err)
	}
	for _, r := range reqs {
		if r.SenderID == me {
			rel.SentID = r.ID
		} else {
			rel.ReceivedID = r.ID
		}
	}
	return rel, nil
}

// Suggestion is a user me might know, with what they share.
type Suggestion struct {
	User          User `bun:"embed:"`
	MutualFriends int  `bun:"mutual_friends"`
	SameCourse    bool `bun:"same_course"`
	SameBatch     bool `bun:"same_batch"`
	SameRole      bool `bun:"same_role"`
}

// Suggestions lists verified users who are not me, not my friends and not
// in a pending request with me either way, ranked by mutual friends, then a
// shared course, batch and role, then the newest accounts. Everyone else
// fills the list after the matches, so it is empty only when nobody is left.
func Suggestions(ctx context.Context, db bun.IDB, me *User, limit int) ([]Suggestion, error) {
	var rows []Suggestion
	err := db.NewRaw(`WITH mine AS `+friendIDs+`,
		mutual AS (
			SELECT id, count(*) AS n FROM (
				SELECT f.user_high AS id FROM friendships f JOIN mine m ON f.user_low = m.id
				UNION ALL
				SELECT f.user_low FROM friendships f JOIN mine m ON f.user_high = m.id
			) x GROUP BY id)
		SELECT u.*,
			coalesce(mu.n, 0) AS mutual_friends,
			(u.course <> '' AND lower(u.course) = lower(?1)) AS same_course,
			(u.batch <> '' AND lower(u.batch) = lower(?2)) AS same_batch,
			(u.role = ?3) AS same_role
		FROM users u LEFT JOIN mutual mu ON mu.id = u.id
		WHERE u.email_verified_at IS NOT NULL AND u.id <> ?0
			AND u.id NOT IN (SELECT id FROM mine)
			AND NOT EXISTS (SELECT 1 FROM friend_requests fr WHERE fr.status = 'pending'
				AND ((fr.sender_id = ?0 AND fr.receiver_id = u.id) OR (fr.sender_id = u.id AND fr.receiver_id = ?0)))
			AND NOT EXISTS (SELECT 1 FROM user_blocks b WHERE (b.blocker_id = ?0 AND b.blocked_id = u.id)
				OR (b.blocker_id = u.id AND b.blocked_id = ?0))
		ORDER BY mutual_friends DESC, same_course DESC, same_batch DESC, same_role DESC, u.created_at DESC, u.id
		LIMIT ?4`, me.ID, me.Course, me.Batch, me.Role, limit).Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("persistence: suggestions: %w", err)
	}
	return rows, nil
}

// IsPendingPairConflict reports whether err is InsertFriendRequest finding
// a pending request between the two people already.
func IsPendingPairConflict(err error) bool {
	name, ok := IsUniqueViolation(err)
	return ok && (name == "friend_requests_pending_pair_key" || name == "friend_requests_pending_key")
}

// LiveAudience is who gets author's live feed events (post:new,
// post:edited): author's friends, without those who mute author or stand on
// either side of a block with them. A block ends the friendship too, but a
// friendship made before the safety tables (or re-made by a race with the
// block) must still not leak a post.
func LiveAudience(ctx context.Context, db bun.IDB, author, group uuid.UUID) ([]uuid.UUID, error) {
	// A group post's audience is the group's members (whose home feed shows
	// it), never anyone else: a closed or secret group's posts must not
	// reach non-members, even as ids.
	source := `SELECT user_high AS id FROM friendships WHERE user_low = ?0
			UNION ALL
			SELECT user_low FROM friendships WHERE user_high = ?0`
	if group != uuid.Nil {
		source = `SELECT user_id AS id FROM group_members WHERE group_id = ?1 AND status = 'member' AND user_id <> ?0`
	}
	var ids []uuid.UUID
	err := db.NewRaw(`SELECT f.id FROM (`+source+`) f
		WHERE NOT EXISTS (SELECT 1 FROM user_mutes m WHERE m.muter_id = f.id AND m.muted_id = ?0)
		  AND NOT EXISTS (SELECT 1 FROM user_blocks b WHERE b.blocker_id = f.id AND b.blocked_id = ?0)
		  AND NOT EXISTS (SELECT 1 FROM user_blocks b WHERE b.blocker_id = ?0 AND b.blocked_id = f.id)`, author, group).
		Scan(ctx, &ids)
	if err != nil {
		return nil, fmt.Errorf("persistence: live audience: %w", err)
	}
	return ids, nil
}
