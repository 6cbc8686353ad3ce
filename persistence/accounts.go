package persistence

import (
	"context"
	"crypto/rand"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// Secret returns the cluster-wide secret called name, creating it (32 random
// bytes) the first time any node asks. Every node converges on the row that
// won the insert.
func Secret(ctx context.Context, db bun.IDB, name string) ([]byte, error) {
	fresh := make([]byte, 32)
	if _, err := rand.Read(fresh); err != nil {
		return nil, fmt.Errorf("persistence: secret: %w", err)
	}
	if _, err := db.ExecContext(ctx,
		"INSERT INTO app_secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING", name, fresh); err != nil {
		return nil, fmt.Errorf("persistence: insert secret: %w", err)
	}
	var value []byte
	if err := db.QueryRowContext(ctx, "SELECT value FROM app_secrets WHERE name = ?", name).Scan(&value); err != nil {
		return nil, fmt.Errorf("persistence: read secret: %w", err)
	}
	return value, nil
}

// InsertUser stores a new account with its empty profile and queues it for
// the search index.
func InsertUser(ctx context.Context, db bun.IDB, u *User) error {
	if _, err := db.NewInsert().Model(u).Returning("*").Exec(ctx); err != nil {
		return fmt.Errorf("persistence: insert user: %w", err)
	}
	if _, err := db.NewInsert().Model(&Profile{UserID: u.ID}).Exec(ctx); err != nil {
		return fmt.Errorf("persistence: insert profile: %w", err)
	}
	return AddOutbox(ctx, db, EntityUser, u.ID, OpUpsert)
}

// ReplacePendingUser overwrites an unverified account's signup details (a
// person signing up again before verifying). Verified accounts are untouched.
func ReplacePendingUser(ctx context.Context, db bun.IDB, u *User) (bool, error) {
	res, err := db.NewUpdate().Model(u).
		Column("name", "password_hash", "role", "university_id", "college_id", "department", "course", "batch").
		// Nobody has seen the handle made from the first name: the
		// database makes it again from this one.
		Set("handle = NULL").
		Set("updated_at = now()").
		Where("id = ? AND email_verified_at IS NULL", u.ID).Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("persistence: replace pending user: %w", err)
	}
	n, _ := res.RowsAffected()
	if n == 1 {
		return true, AddOutbox(ctx, db, EntityUser, u.ID, OpUpsert)
	}
	return false, nil
}

// MarkVerified records that the user confirmed their e-mail address.
func MarkVerified(ctx context.Context, db bun.IDB, id uuid.UUID) error {
	_, err := db.NewUpdate().Model((*User)(nil)).
		Set("email_verified_at = coalesce(email_verified_at, now())").Set("updated_at = now()").
		Where("id = ?", id).Exec(ctx)
	if err != nil {
		return fmt.Errorf("persistence: mark verified: %w", err)
	}
	// A verified account becomes visible in search.
	return AddOutbox(ctx, db, EntityUser, id, OpUpsert)
}

// SetPassword stores a new password hash.
func SetPassword(ctx context.Context, db bun.IDB, id uuid.UUID, hash string) error {
	_, err := db.NewUpdate().Model((*User)(nil)).Set("password_hash = ?", hash).Set("updated_at = now()").
		Where("id = ?", id).Exec(ctx)
	if err != nil {
		return fmt.Errorf("persistence: set password: %w", err)
	}
	return nil
}

// SetEmail changes the account's e-mail (unique; the caller maps violations).
func SetEmail(ctx context.Context, db bun.IDB, id uuid.UUID, email string) error {
	_, err := db.NewUpdate().Model((*User)(nil)).Set("email = ?", email).Set("updated_at = now()").
		Where("id = ?", id).Exec(ctx)
	if err != nil {
		return fmt.Errorf("persistence: set email: %w", err)
	}
	return nil
}

// LatestCodeAt is when the newest code for (user, purpose, email) was made;
// zero if none. It drives the resend cooldown.
func LatestCodeAt(ctx context.Context, db bun.IDB, userID uuid.UUID, purpose, email string) (time.Time, error) {
	var at time.Time
	err := db.NewSelect().Model((*OTPCode)(nil)).ColumnExpr("max(created_at)").
		Where("user_id = ? AND purpose = ? AND lower(email) = lower(?)", userID, purpose, email).Scan(ctx, &at)
	if err != nil {
		return time.Time{}, fmt.Errorf("persistence: latest code: %w", err)
	}
	return at, nil
}

// ReplaceCode retires every open code for (user, purpose) and stores c, so
// only the newest code works.
func ReplaceCode(ctx context.Context, db bun.IDB, c *OTPCode) error {
	_, err := db.NewUpdate().Model((*OTPCode)(nil)).Set("consumed_at = now()").
		Where("user_id = ? AND purpose = ? AND consumed_at IS NULL", c.UserID, c.Purpose).Exec(ctx)
	if err != nil {
		return fmt.Errorf("persistence: retire codes: %w", err)
	}
	if _, err := db.NewInsert().Model(c).Exec(ctx); err != nil {
		return fmt.Errorf("persistence: insert code: %w", err)
	}
	return nil
}

// LockOpenCode locks and returns the newest open, unexpired code for
// (user, purpose, email); domain.ErrNotFound if there is none. Must run in a
// transaction: the row lock is what makes a code single-use under concurrent
// submits (a waiter re-checks consumed_at after the winner commits).
func LockOpenCode(ctx context.Context, tx bun.Tx, userID uuid.UUID, purpose, email string) (*OTPCode, error) {
	c := new(OTPCode)
	err := tx.NewSelect().Model(c).
		Where("user_id = ? AND purpose = ? AND lower(email) = lower(?)", userID, purpose, email).
		Where("consumed_at IS NULL AND expires_at > now()").
		OrderExpr("created_at DESC").Limit(1).For("UPDATE").Scan(ctx)
	if err != nil {
		return nil, notFound(err, "persistence: lock code")
	}
	return c, nil
}

// ConsumeCode marks a code used.
func ConsumeCode(ctx context.Context, db bun.IDB, id uuid.UUID) error {
	if _, err := db.NewUpdate().Model((*OTPCode)(nil)).Set("consumed_at = now()").Where("id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("persistence: consume code: %w", err)
	}
	return nil
}

// CodeFailed counts one wrong try on the code and on the account. Failures
// older than window restart the account's count.
func CodeFailed(ctx context.Context, db bun.IDB, codeID, userID uuid.UUID, window time.Duration) error {
	if _, err := db.NewUpdate().Model((*OTPCode)(nil)).Set("attempts = attempts + 1").Where("id = ?", codeID).Exec(ctx); err != nil {
		return fmt.Errorf("persistence: count code attempt: %w", err)
	}
	_, err := db.NewUpdate().Model((*User)(nil)).
		Set("otp_failures = CASE WHEN otp_failed_at IS NULL OR otp_failed_at < now() - ?::interval THEN 1 ELSE otp_failures + 1 END",
			fmt.Sprintf("%d seconds", int(window.Seconds()))).
		Set("otp_failed_at = now()").
		Where("id = ?", userID).Exec(ctx)
	if err != nil {
		return fmt.Errorf("persistence: count account code failure: %w", err)
	}
	return nil
}

// ResetCodeFailures clears the account's failure count after a right code.
func ResetCodeFailures(ctx context.Context, db bun.IDB, userID uuid.UUID) error {
	_, err := db.NewUpdate().Model((*User)(nil)).Set("otp_failures = 0").Set("otp_failed_at = NULL").
		Where("id = ?", userID).Exec(ctx)
	if err != nil {
		return fmt.Errorf("persistence: reset code failures: %w", err)
	}
	return nil
}

// ProfileLikers lists the ids of users who liked userID's profile.
func ProfileLikers(ctx context.Context, db bun.IDB, userID uuid.UUID) ([]string, error) {
	var ids []uuid.UUID
	err := db.NewSelect().Model((*ProfileLike)(nil)).Column("liker_id").Where("user_id = ?", userID).
		OrderExpr("created_at DESC").Limit(1000).Scan(ctx, &ids)
	if err != nil {
		return nil, fmt.Errorf("persistence: profile likers: %w", err)
	}
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = id.String()
	}
	return out, nil
}

// DeletedAccount is what removing an account left for the caller to clean
// up outside the transaction: stored media files.
type DeletedAccount struct {
	MediaKeys []string
}

// DeleteAccount removes a user and everything they own in the caller's
// transaction. Counters on other people's posts and profiles move down by
// the rows removed, and search learns of every deleted user, post and
// comment through the outbox.
func DeleteAccount(ctx context.Context, tx bun.Tx, id uuid.UUID) (DeletedAccount, error) {
	var out DeletedAccount
	// Media: the avatar, the cover, every image of the user's posts, and the
	// images of the direct conversations that go with the account (group
	// conversations keep their messages, the sender shown as deleted).
	if err := tx.NewSelect().ColumnExpr("k").TableExpr(`(
		SELECT avatar_key AS k FROM users WHERE id = ?0
		UNION ALL SELECT cover_key FROM users WHERE id = ?0
		UNION ALL SELECT pi.storage_key FROM post_images pi JOIN posts p ON p.id = pi.post_id WHERE p.user_id = ?0
		UNION ALL SELECT mi.storage_key FROM message_images mi JOIN conversations c ON c.id = mi.conversation_id
			WHERE c.kind = 'direct' AND (c.user_low = ?0 OR c.user_high = ?0)
	) keys`, id).Where("k <> ''").Scan(ctx, &out.MediaKeys); err != nil {
		return out, fmt.Errorf("persistence: account media: %w", err)
	}
	steps := []struct{ what, sql string }{
		// Every node's gate cache forgets the posts, as when a post is
		// deleted (delivered at the commit).
		{"gates", `SELECT pg_notify('` + BlockChannel + `', '` + postRemovedPrefix + `' || id) FROM posts WHERE user_id = ?0`},
		{"outbox comments", `INSERT INTO search_outbox (entity, entity_id, op)
			SELECT 'comment', c.id, 'delete' FROM comments c
			WHERE c.user_id = ?0 OR c.post_id IN (SELECT id FROM posts WHERE user_id = ?0)`},
		{"outbox posts", `INSERT INTO search_outbox (entity, entity_id, op) SELECT 'post', id, 'delete' FROM posts WHERE user_id = ?0`},
		{"outbox user", `INSERT INTO search_outbox (entity, entity_id, op) VALUES ('user', ?0, 'delete')`},
		{"like counters", `UPDATE posts p SET likes_count = p.likes_count - l.n, counts_version = p.counts_version + 1
			FROM (SELECT post_id, count(*) AS n FROM post_likes WHERE user_id = ?0 GROUP BY post_id) l
			WHERE p.id = l.post_id AND p.user_id <> ?0`},
		{"comment counters", `UPDATE posts p SET comments_count = p.comments_count - c.n, counts_version = p.counts_version + 1
			FROM (SELECT post_id, count(*) AS n FROM comments WHERE user_id = ?0 AND removed_at IS NULL GROUP BY post_id) c
			WHERE p.id = c.post_id AND p.user_id <> ?0`},
		{"repost counters", `UPDATE posts p SET reposts_count = p.reposts_count - r.n, counts_version = p.counts_version + 1
			FROM (SELECT repost_of, count(*) AS n FROM posts WHERE user_id = ?0 AND repost_of IS NOT NULL GROUP BY repost_of) r
			WHERE p.id = r.repost_of AND p.user_id <> ?0`},
		{"profile like counters", `UPDATE profiles pr SET likes_count = pr.likes_count - 1
			FROM profile_likes pl WHERE pl.liker_id = ?0 AND pr.user_id = pl.user_id`},
		// Like roll-ups of the posts they like lose them: out of the recent
		// likers, one fewer in the count, gone when none is left. (Names are
		// read from users, so a roll-up never shows a deleted liker's name
		// even where they had unliked and are not found here.)
		{"like notifications", `UPDATE notifications n SET actor_ids = array_remove(n.actor_ids, ?0),
				actor_count = greatest(n.actor_count - 1, 0)
			FROM post_likes pl
			WHERE pl.user_id = ?0 AND n.post_id = pl.post_id AND n.type = 'like'`},
		{"empty like notifications", `DELETE FROM notifications n USING post_likes pl
			WHERE pl.user_id = ?0 AND n.post_id = pl.post_id AND n.type = 'like' AND n.actor_count = 0`},
		// Repost roll-ups the same way.
		{"repost notifications", `UPDATE notifications n SET actor_ids = array_remove(n.actor_ids, ?0),
				actor_count = greatest(n.actor_count - 1, 0)
			FROM posts r
			WHERE r.user_id = ?0 AND r.repost_of = n.post_id AND n.type = 'repost'`},
		{"empty repost notifications", `DELETE FROM notifications n USING posts r
			WHERE r.user_id = ?0 AND r.repost_of = n.post_id AND n.type = 'repost' AND n.actor_count = 0`},
		// Profile-like roll-ups the same way (the counters step above
		// still sees their profile_likes rows).
		{"profile like notifications", `UPDATE notifications n SET actor_ids = array_remove(n.actor_ids, ?0),
				actor_count = greatest(n.actor_count - 1, 0)
			FROM profile_likes pl
			WHERE pl.liker_id = ?0 AND n.user_id = pl.user_id AND n.type = 'profile_like'`},
		{"empty profile like notifications", `DELETE FROM notifications n USING profile_likes pl
			WHERE pl.liker_id = ?0 AND n.user_id = pl.user_id AND n.type = 'profile_like' AND n.actor_count = 0`},
		// Mention roll-ups of the posts they mentioned people on (their
		// comments on others' posts: their own posts go with their
		// notifications) the same way.
		{"mention notifications", `UPDATE notifications n SET actor_ids = array_remove(n.actor_ids, ?0),
				actor_count = greatest(n.actor_count - 1, 0)
			FROM (SELECT DISTINCT user_id, post_id FROM mentions WHERE author_id = ?0 AND notified) m
			WHERE n.type = 'mention' AND n.user_id = m.user_id AND n.post_id = m.post_id`},
		{"empty mention notifications", `DELETE FROM notifications n WHERE n.type = 'mention' AND n.actor_count = 0
			AND EXISTS (SELECT FROM mentions m WHERE m.author_id = ?0 AND m.user_id = n.user_id AND m.post_id = n.post_id)`},
		// Groups lose a member and their posts; a group they owned passes to
		// its longest-standing admin, else its longest-standing member.
		{"group member counters", `UPDATE groups g SET members_count = g.members_count - 1
			FROM group_members m WHERE m.user_id = ?0 AND m.status = 'member' AND g.id = m.group_id`},
		{"group post counters", `UPDATE groups g SET posts_count = g.posts_count - p.n
			FROM (SELECT group_id, count(*) AS n FROM posts WHERE user_id = ?0 AND group_id IS NOT NULL GROUP BY group_id) p
			WHERE g.id = p.group_id`},
		{"group owners step down", `UPDATE group_members SET role = 'member' WHERE user_id = ?0 AND role = 'owner'`},
		{"group heirs", `UPDATE group_members m SET role = 'owner'
			FROM (SELECT DISTINCT ON (gm.group_id) gm.group_id, gm.user_id FROM group_members gm
				WHERE gm.group_id IN (SELECT group_id FROM group_members WHERE user_id = ?0)
				AND gm.user_id <> ?0 AND gm.status = 'member'
				AND NOT EXISTS (SELECT FROM group_members o WHERE o.group_id = gm.group_id AND o.role = 'owner')
				ORDER BY gm.group_id, gm.role = 'admin' DESC, gm.joined_at, gm.user_id) h
			WHERE m.group_id = h.group_id AND m.user_id = h.user_id`},
		// The heirs become admins of their groups' chats (the deleted
		// person's own chat rows go with the account).
		{"group chat heirs", `UPDATE conversation_members cm SET role = 'admin'
			FROM conversations c, group_members gm
			WHERE c.id = cm.conversation_id AND c.group_id IS NOT NULL AND gm.group_id = c.group_id
				AND gm.user_id = cm.user_id AND gm.role = 'owner' AND cm.left_seq IS NULL AND cm.role <> 'admin'
				AND c.group_id IN (SELECT group_id FROM group_members WHERE user_id = ?0)`},
		{"user", `DELETE FROM users WHERE id = ?0`},
	}
	for _, s := range steps {
		if _, err := tx.ExecContext(ctx, s.sql, id); err != nil {
			return out, fmt.Errorf("persistence: delete account: %s: %w", s.what, err)
		}
	}
	if err := NotifyRevoked(ctx, tx, id); err != nil {
		return out, err
	}
	return out, nil
}
