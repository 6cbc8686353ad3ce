package persistence

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"campus/domain"
)

// VerifiedUserByID loads a user other people may see: one who confirmed
// their e-mail. An unfinished signup is domain.ErrNotFound, as if absent.
func VerifiedUserByID(ctx context.Context, db bun.IDB, id uuid.UUID) (*User, error) {
	u := new(User)
	err := db.NewSelect().Model(u).Where("u.id = ? AND u.email_verified_at IS NOT NULL", id).Scan(ctx)
	if err != nil {
		return nil, notFound(err, "persistence: verified user by id")
	}
	return u, nil
}

// ProfileOf loads userID's profile. Every account gets its row with the
// user (InsertUser); a user without one (seeded straight into the table)
// reads as an empty profile.
func ProfileOf(ctx context.Context, db bun.IDB, userID uuid.UUID) (*Profile, error) {
	p := new(Profile)
	err := db.NewSelect().Model(p).Where("pr.user_id = ?", userID).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return &Profile{UserID: userID, Skills: []Skill{}, Achievements: []Achievement{}, Interests: []string{}}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("persistence: profile: %w", err)
	}
	if p.Skills == nil {
		p.Skills = []Skill{}
	}
	if p.Achievements == nil {
		p.Achievements = []Achievement{}
	}
	if p.Interests == nil {
		p.Interests = []string{}
	}
	return p, nil
}

// UserFields are the profile fields that live on the user row; nil leaves
// a field as it is.
type UserFields struct {
	Name     *string
	Bio      *string
	Location *string
}

// UpdateUserFields writes the given fields and queues the user for the
// search index; domain.ErrNotFound when the user is gone.
func UpdateUserFields(ctx context.Context, db bun.IDB, id uuid.UUID, f UserFields) error {
	q := db.NewUpdate().Model((*User)(nil)).Set("updated_at = now()").Where("id = ?", id)
	if f.Name != nil {
		q = q.Set("name = ?", *f.Name)
	}
	if f.Bio != nil {
		q = q.Set("bio = ?", *f.Bio)
	}
	if f.Location != nil {
		q = q.Set("location = ?", *f.Location)
	}
	res, err := q.Exec(ctx)
	if err != nil {
		return fmt.Errorf("persistence: update user fields: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("persistence: update user fields: %w", domain.ErrNotFound)
	}
	return AddOutbox(ctx, db, EntityUser, id, OpUpsert)
}

// Profile columns SaveProfile can write.
const (
	ColEducation    = "education"
	ColSkills       = "skills"
	ColAchievements = "achievements"
	ColInterests    = "interests"
)

// SaveProfile writes the named columns of p, creating the row if needed.
// Other columns of an existing row are left alone.
func SaveProfile(ctx context.Context, db bun.IDB, p *Profile, columns ...string) error {
	q := db.NewInsert().Model(p).On("CONFLICT (user_id) DO UPDATE").Set("updated_at = now()")
	for _, c := range columns {
		switch c {
		case ColEducation, ColSkills, ColAchievements, ColInterests:
			q = q.Set("? = EXCLUDED.?", bun.Ident(c), bun.Ident(c))
		default:
			return fmt.Errorf("persistence: save profile: unknown column %q", c)
		}
	}
	if _, err := q.Exec(ctx); err != nil {
		return fmt.Errorf("persistence: save profile: %w", err)
	}
	return nil
}

// MarkProfileSetup records that onboarding's profile setup is done; the
// first time counts.
func MarkProfileSetup(ctx context.Context, db bun.IDB, userID uuid.UUID) error {
	_, err := db.ExecContext(ctx, `INSERT INTO profiles (user_id, setup_completed_at) VALUES (?, now())
		ON CONFLICT (user_id) DO UPDATE SET setup_completed_at = coalesce(profiles.setup_completed_at, now()), updated_at = now()`, userID)
	if err != nil {
		return fmt.Errorf("persistence: mark profile setup: %w", err)
	}
	return nil
}

// ExperienceOf lists a user's experience in its saved order.
func ExperienceOf(ctx context.Context, db bun.IDB, userID uuid.UUID) ([]Experience, error) {
	var out []Experience
	err := db.NewSelect().Model(&out).Where("ex.user_id = ?", userID).OrderExpr("ex.position, ex.id").Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("persistence: experience: %w", err)
	}
	return out, nil
}

// ReplaceExperience swaps the user's whole experience list for entries, in
// their order. Run it in a transaction.
func ReplaceExperience(ctx context.Context, db bun.IDB, userID uuid.UUID, entries []Experience) error {
	if _, err := db.NewDelete().Model((*Experience)(nil)).Where("user_id = ?", userID).Exec(ctx); err != nil {
		return fmt.Errorf("persistence: clear experience: %w", err)
	}
	if len(entries) == 0 {
		return nil
	}
	for i := range entries {
		entries[i].ID = NewID()
		entries[i].UserID = userID
		entries[i].Position = i
	}
	if _, err := db.NewInsert().Model(&entries).Exec(ctx); err != nil {
		return fmt.Errorf("persistence: insert experience: %w", err)
	}
	return nil
}

// Which user image SetUserImage replaces.
const (
	ImageAvatar = "avatar"
	ImageCover  = "cover"
)

// SetUserImage points the user's avatar or cover at a newly stored file and
// returns the key of the file it replaced ("" if none), for the caller to
// delete after commit. It locks the user row, so run it in a transaction:
// two uploads at once each get back the key the other replaced, and no file
// is orphaned. domain.ErrNotFound when the user is gone.
func SetUserImage(ctx context.Context, db bun.IDB, userID uuid.UUID, which, url, key string, variants ImageVariants) (string, error) {
	urlCol, keyCol, varCol := "avatar_url", "avatar_key", "avatar_variants"
	if which == ImageCover {
		urlCol, keyCol, varCol = "cover_url", "cover_key", "cover_variants"
	}
	var old string
	err := db.NewSelect().Model((*User)(nil)).Column(keyCol).Where("id = ?", userID).For("UPDATE").Scan(ctx, &old)
	if err != nil {
		return "", notFound(err, "persistence: lock user image")
	}
	_, err = db.NewUpdate().Model((*User)(nil)).
		Set("? = ?", bun.Ident(urlCol), url).Set("? = ?", bun.Ident(keyCol), key).
		Set("? = ?", bun.Ident(varCol), variants).Set("updated_at = now()").
		Where("id = ?", userID).Exec(ctx)
	if err != nil {
		return "", fmt.Errorf("persistence: set user image: %w", err)
	}
	if which == ImageAvatar { // search results show the avatar
		if err := AddOutbox(ctx, db, EntityUser, userID, OpUpsert); err != nil {
			return "", err
		}
	}
	return old, nil
}

// LikeProfile records liker liking userID's profile, once however often it
// is called, and returns the profile's like count. The counter moves by the
// rows actually inserted, so concurrent likes keep it exact.
func LikeProfile(ctx context.Context, db bun.IDB, userID, likerID uuid.UUID) (int, error) {
	var n int
	err := db.QueryRowContext(ctx, `WITH ins AS (
			INSERT INTO profile_likes (user_id, liker_id) VALUES (?0, ?1) ON CONFLICT DO NOTHING RETURNING 1)
		INSERT INTO profiles (user_id, likes_count) VALUES (?0, (SELECT count(*) FROM ins))
		ON CONFLICT (user_id) DO UPDATE SET likes_count = profiles.likes_count + EXCLUDED.likes_count
		RETURNING likes_count`, userID, likerID).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("persistence: like profile: %w", err)
	}
	return n, nil
}

// UnlikeProfile removes liker's like of userID's profile, if any, and
// returns the profile's like count.
func UnlikeProfile(ctx context.Context, db bun.IDB, userID, likerID uuid.UUID) (int, error) {
	var n int
	err := db.QueryRowContext(ctx, `WITH del AS (
			DELETE FROM profile_likes WHERE user_id = ?0 AND liker_id = ?1 RETURNING 1)
		INSERT INTO profiles (user_id) VALUES (?0)
		ON CONFLICT (user_id) DO UPDATE SET likes_count = profiles.likes_count - (SELECT count(*) FROM del)
		RETURNING likes_count`, userID, likerID).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("persistence: unlike profile: %w", err)
	}
	return n, nil
}

// ProfileLikedBy reports whether liker likes userID's profile.
func ProfileLikedBy(ctx context.Context, db bun.IDB, userID, likerID uuid.UUID) (bool, error) {
	ok, err := db.NewSelect().Model((*ProfileLike)(nil)).Where("user_id = ? AND liker_id = ?", userID, likerID).Exists(ctx)
	if err != nil {
		return false, fmt.Errorf("persistence: profile liked by: %w", err)
	}
	return ok, nil
}

// ProfileCounts are the numbers on a profile's stat tiles.
type ProfileCounts struct {
	Posts   int `bun:"posts"`
	Friends int `bun:"friends"`
}

// CountsOf counts userID's posts as viewer can list them on the profile,
// and userID's friends. A post a moderator removed is no one's to list, nor
// are a suspended account's, and one of a closed or secret group only its
// members': the count is what the profile's list (Posts) shows viewer.
func CountsOf(ctx context.Context, db bun.IDB, userID, viewer uuid.UUID) (ProfileCounts, error) {
	var c ProfileCounts
	err := db.QueryRowContext(ctx, `SELECT
		(SELECT count(*) FROM posts p WHERE p.user_id = ?0 AND p.removed_at IS NULL AND p.repost_of IS NULL AND `+notSuspendedSQL("p.user_id")+`
			AND (`+groupReadableBy("?1")+`)),
		(SELECT count(*) FROM friendships WHERE user_low = ?0) + (SELECT count(*) FROM friendships WHERE user_high = ?0)`,
		userID, viewer).Scan(&c.Posts, &c.Friends)
	if err != nil {
		return ProfileCounts{}, fmt.Errorf("persistence: profile counts: %w", err)
	}
	return c, nil
}
