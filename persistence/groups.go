package persistence

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"campus/domain"
)

// Group is a course, club, department, event space or other group
// (issue 18). MembersCount and PostsCount move in the same transaction as
// the rows they count.
type Group struct {
	bun.BaseModel `bun:"table:groups,alias:g"`

	ID            uuid.UUID `bun:"id,pk,type:uuid,nullzero"`
	Handle        string    `bun:"handle,notnull"`
	Name          string    `bun:"name,notnull"`
	Description   string    `bun:"description,notnull"`
	Kind          string    `bun:"kind,notnull"`
	Visibility    string    `bun:"visibility,notnull"`
	AvatarURL     string    `bun:"avatar_url,notnull"`
	AvatarKey     string    `bun:"avatar_key,notnull"`
	CoverURL      string    `bun:"cover_url,notnull"`
	CoverKey      string    `bun:"cover_key,notnull"`
	StartsAt      time.Time `bun:"starts_at,nullzero"`
	EndsAt        time.Time `bun:"ends_at,nullzero"`
	CourseProgram string    `bun:"course_program,notnull"`
	CourseBatch   string    `bun:"course_batch,notnull"`
	PinnedPostID  uuid.UUID `bun:"pinned_post_id,type:uuid,nullzero"`
	MembersCount  int       `bun:"members_count,notnull"`
	PostsCount    int       `bun:"posts_count,notnull"`
	CreatedAt     time.Time `bun:"created_at,nullzero,notnull,default:current_timestamp"`
	UpdatedAt     time.Time `bun:"updated_at,nullzero,notnull,default:current_timestamp"`
}

// GroupMember is one person's row in a group: a member, a join request or
// an invitation.
type GroupMember struct {
	bun.BaseModel `bun:"table:group_members,alias:gm"`

	GroupID       uuid.UUID `bun:"group_id,pk,type:uuid,nullzero"`
	UserID        uuid.UUID `bun:"user_id,pk,type:uuid,nullzero"`
	Status        string    `bun:"status,notnull"`
	Role          string    `bun:"role,notnull"`
	FollowClosely bool      `bun:"follow_closely,notnull"`
	InvitedBy     uuid.UUID `bun:"invited_by,type:uuid,nullzero"`
	CreatedAt     time.Time `bun:"created_at,nullzero,notnull,default:current_timestamp"`
	JoinedAt      time.Time `bun:"joined_at,nullzero"`

	User *User `bun:"rel:belongs-to,join:user_id=id"`
}

// EntityGroup is the search outbox's entity of groups.
const EntityGroup = "group"

// Group notification types.
const (
	NotifyGroupJoinRequest  = "group_join_request"
	NotifyGroupJoinApproved = "group_join_approved"
	NotifyGroupInvitation   = "group_invitation"
	NotifyGroupPost         = "group_post"
)

// GroupRow is a group as one viewer sees it: the group and the viewer's
// standing in it.
type GroupRow struct {
	Group `bun:",extend"`

	MyStatus string `bun:"my_status,scanonly"` // "" when none
	MyRole   string `bun:"my_role,scanonly"`
	MyFollow bool   `bun:"my_follow,scanonly"`
	// ChatID is the group's open chat (uuid.Nil when it has none).
	ChatID uuid.UUID `bun:"chat_id,scanonly,type:uuid,nullzero"`
}

// Membership is the viewer's standing as the domain rules take it.
func (r *GroupRow) Membership() domain.Membership {
	return domain.Membership{Status: statusOrNone(r.MyStatus), Role: r.MyRole}
}

func statusOrNone(s string) string {
	if s == "" {
		return domain.StatusNone
	}
	return s
}

// groupRows selects groups with viewer's standing (?0 is the viewer).
func groupRows(db bun.IDB, out any, viewer uuid.UUID) *bun.SelectQuery {
	return db.NewSelect().Model(out).ColumnExpr("g.*").
		ColumnExpr("coalesce(me.status, '') AS my_status, coalesce(me.role, '') AS my_role, coalesce(me.follow_closely, false) AS my_follow").
		ColumnExpr("(SELECT gc.id FROM conversations gc WHERE gc.group_id = g.id AND gc.closed_at IS NULL) AS chat_id").
		Join("LEFT JOIN group_members AS me ON me.group_id = g.id AND me.user_id = ?", viewer)
}

// InsertGroup stores g with owner as its owner (one member), and queues it
// for search. A taken handle is domain.ErrConflict.
func InsertGroup(ctx context.Context, tx bun.IDB, g *Group, owner uuid.UUID) error {
	g.MembersCount = 1
	if _, err := tx.NewInsert().Model(g).Returning("created_at, updated_at").Exec(ctx); err != nil {
		if _, ok := IsUniqueViolation(err); ok {
			return domain.Conflict(domain.MsgGroupHandleTaken)
		}
		return fmt.Errorf("persistence: insert group: %w", err)
	}
	m := &GroupMember{GroupID: g.ID, UserID: owner, Status: domain.StatusMember, Role: domain.RoleOwner, JoinedAt: time.Now()}
	if _, err := tx.NewInsert().Model(m).Exec(ctx); err != nil {
		return fmt.Errorf("persistence: insert group owner: %w", err)
	}
	return AddOutbox(ctx, tx, EntityGroup, g.ID, OpUpsert)
}

// GroupByHandle loads the group with viewer's standing; domain.ErrNotFound
// if none.
func GroupByHandle(ctx context.Context, db bun.IDB, handle string, viewer uuid.UUID) (*GroupRow, error) {
	r := new(GroupRow)
	if err := groupRows(db, r, viewer).Where("g.handle = ?", handle).Scan(ctx); err != nil {
		return nil, notFound(err, "persistence: group by handle")
	}
	return r, nil
}

// GroupByID loads the group with viewer's standing; domain.ErrNotFound if
// none.
func GroupByID(ctx context.Context, db bun.IDB, id, viewer uuid.UUID) (*GroupRow, error) {
	r := new(GroupRow)
	if err := groupRows(db, r, viewer).Where("g.id = ?", id).Scan(ctx); err != nil {
		return nil, notFound(err, "persistence: group by id")
	}
	return r, nil
}

// LockGroup locks the group's row for the rest of tx (membership changes
// of one group are serialized by it) and loads it with viewer's standing.
func LockGroup(ctx context.Context, tx bun.IDB, handle string, viewer uuid.UUID) (*GroupRow, error) {
	var id uuid.UUID
	if err := tx.QueryRowContext(ctx, "SELECT id FROM groups WHERE handle = ? FOR UPDATE", handle).Scan(&id); err != nil {
		return nil, notFound(err, "persistence: lock group")
	}
	return GroupByID(ctx, tx, id, viewer)
}

// MemberOf answers userID's row in the group (Status StatusNone when none).
func MemberOf(ctx context.Context, db bun.IDB, groupID, userID uuid.UUID) (GroupMember, error) {
	var m GroupMember
	err := db.NewSelect().Model(&m).Where("group_id = ? AND user_id = ?", groupID, userID).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return GroupMember{GroupID: groupID, UserID: userID, Status: domain.StatusNone}, nil
	}
	if err != nil {
		return m, fmt.Errorf("persistence: group member: %w", err)
	}
	return m, nil
}

// Standing is m as the domain rules take it.
func (m GroupMember) Standing() domain.Membership {
	return domain.Membership{Status: statusOrNone(m.Status), Role: m.Role}
}

// SetMembership makes userID's row say status (with role for a member),
// inserting or updating it, moves the members counter by the change and
// keeps the group's chat in step.
// Only the group's lock holder calls it.
func SetMembership(ctx context.Context, tx bun.IDB, groupID, userID uuid.UUID, status, role string, invitedBy uuid.UUID) error {
	if role == "" {
		role = domain.RoleMember
	}
	var was sql.NullString
	var inviter any // NULL unless someone invited
	if invitedBy != uuid.Nil {
		inviter = invitedBy
	}
	err := tx.QueryRowContext(ctx, `WITH old AS (
		SELECT status FROM group_members WHERE group_id = ?0 AND user_id = ?1
	), up AS (
		INSERT INTO group_members (group_id, user_id, status, role, invited_by, joined_at)
		VALUES (?0, ?1, ?2, ?3, ?4::uuid, CASE WHEN ?2 = 'member' THEN now() END)
		ON CONFLICT (group_id, user_id) DO UPDATE SET status = EXCLUDED.status, role = EXCLUDED.role,
			invited_by = coalesce(EXCLUDED.invited_by, group_members.invited_by),
			created_at = CASE WHEN group_members.status = EXCLUDED.status THEN group_members.created_at ELSE now() END,
			joined_at = CASE WHEN EXCLUDED.status <> 'member' THEN NULL
				ELSE coalesce(group_members.joined_at, now()) END
		RETURNING 1
	)
	SELECT (SELECT status FROM old) FROM up`, groupID, userID, status, role, inviter).Scan(&was)
	if err != nil {
		return fmt.Errorf("persistence: set group membership: %w", err)
	}
	if err := moveMembers(ctx, tx, groupID, was.String == domain.StatusMember, status == domain.StatusMember); err != nil {
		return err
	}
	return SyncGroupChatMember(ctx, tx, groupID, userID)
}

// DeleteMembership removes userID's row in the group (membership, request
// or invitation), takes them out of the group's chat, and answers what it
// was (StatusNone when there was none).
func DeleteMembership(ctx context.Context, tx bun.IDB, groupID, userID uuid.UUID) (string, error) {
	var was string
	err := tx.QueryRowContext(ctx, "DELETE FROM group_members WHERE group_id = ? AND user_id = ? RETURNING status",
		groupID, userID).Scan(&was)
	if errors.Is(err, sql.ErrNoRows) {
		return domain.StatusNone, nil
	}
	if err != nil {
		return "", fmt.Errorf("persistence: delete group membership: %w", err)
	}
	if err := moveMembers(ctx, tx, groupID, was == domain.StatusMember, false); err != nil {
		return "", err
	}
	return was, SyncGroupChatMember(ctx, tx, groupID, userID)
}

func moveMembers(ctx context.Context, tx bun.IDB, groupID uuid.UUID, was, is bool) error {
	delta := 0
	switch {
	case was && !is:
		delta = -1
	case is && !was:
		delta = 1
	}
	if delta == 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, "UPDATE groups SET members_count = members_count + ? WHERE id = ?", delta, groupID); err != nil {
		return fmt.Errorf("persistence: group members count: %w", err)
	}
	return nil
}

// SetMemberRole gives a member a role (the group's owner and admins are
// its chat's admins).
func SetMemberRole(ctx context.Context, tx bun.IDB, groupID, userID uuid.UUID, role string) error {
	if _, err := tx.ExecContext(ctx, "UPDATE group_members SET role = ? WHERE group_id = ? AND user_id = ? AND status = 'member'",
		role, groupID, userID); err != nil {
		return fmt.Errorf("persistence: set group role: %w", err)
	}
	return SyncGroupChatMember(ctx, tx, groupID, userID)
}

// SetFollowClosely sets whether a member is told of every new post.
func SetFollowClosely(ctx context.Context, db bun.IDB, groupID, userID uuid.UUID, closely bool) (bool, error) {
	res, err := db.ExecContext(ctx, "UPDATE group_members SET follow_closely = ? WHERE group_id = ? AND user_id = ? AND status = 'member'",
		closely, groupID, userID)
	if err != nil {
		return false, fmt.Errorf("persistence: follow group: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// UpdateGroup writes the editable fields of g and queues it for search.
func UpdateGroup(ctx context.Context, tx bun.IDB, g *Group) error {
	_, err := tx.NewUpdate().Model(g).
		Column("name", "description", "visibility", "starts_at", "ends_at", "course_program", "course_batch").
		Set("updated_at = now()").WherePK().Exec(ctx)
	if err != nil {
		return fmt.Errorf("persistence: update group: %w", err)
	}
	return AddOutbox(ctx, tx, EntityGroup, g.ID, OpUpsert)
}

// SetGroupImage sets the group's avatar or cover (column "avatar" or
// "cover") and answers the key it replaces.
func SetGroupImage(ctx context.Context, tx bun.IDB, groupID uuid.UUID, column, url, key string) (string, error) {
	if column != "avatar" && column != "cover" {
		return "", fmt.Errorf("persistence: group image %q", column)
	}
	var old string
	err := tx.QueryRowContext(ctx, `UPDATE groups g SET `+column+`_url = ?, `+column+`_key = ?, updated_at = now()
		FROM (SELECT `+column+`_key AS k FROM groups WHERE id = ? FOR UPDATE) AS o
		WHERE g.id = ? RETURNING o.k`, url, key, groupID, groupID).Scan(&old)
	if err != nil {
		return "", notFound(err, "persistence: set group image")
	}
	return old, AddOutbox(ctx, tx, EntityGroup, groupID, OpUpsert)
}

// SetPinnedPost pins postID (uuid.Nil unpins) if it is a post of the group;
// false when it is not.
func SetPinnedPost(ctx context.Context, tx bun.IDB, groupID, postID uuid.UUID) (bool, error) {
	if postID == uuid.Nil {
		_, err := tx.ExecContext(ctx, "UPDATE groups SET pinned_post_id = NULL WHERE id = ?", groupID)
		return err == nil, wrapErr(err, "persistence: unpin")
	}
	res, err := tx.ExecContext(ctx, `UPDATE groups SET pinned_post_id = ?0 WHERE id = ?1
		AND EXISTS (SELECT FROM posts WHERE id = ?0 AND group_id = ?1 AND removed_at IS NULL)`, postID, groupID)
	if err != nil {
		return false, fmt.Errorf("persistence: pin: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

func wrapErr(err error, what string) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", what, err)
}

// DeleteGroup removes the group with its posts (telling search about them
// and their comments) and memberships, and answers the storage keys of the
// images to delete once the transaction commits.
func DeleteGroup(ctx context.Context, tx bun.IDB, g *Group) ([]string, error) {
	var keys []string
	if err := tx.NewSelect().Model((*PostImage)(nil)).Column("storage_key").
		Where("post_id IN (SELECT id FROM posts WHERE group_id = ?)", g.ID).Scan(ctx, &keys); err != nil {
		return nil, fmt.Errorf("persistence: group image keys: %w", err)
	}
	// The chat goes with the group (ON DELETE CASCADE): its images' files too.
	var chatKeys []string
	if err := tx.NewRaw(`SELECT mi.storage_key FROM message_images mi JOIN conversations c ON c.id = mi.conversation_id
		WHERE c.group_id = ?`, g.ID).Scan(ctx, &chatKeys); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("persistence: group chat image keys: %w", err)
	}
	keys = append(keys, chatKeys...)
	for _, k := range []string{g.AvatarKey, g.CoverKey} {
		if k != "" {
			keys = append(keys, k)
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO search_outbox (entity, entity_id, op)
		SELECT ?, c.id, ? FROM comments c JOIN posts p ON p.id = c.post_id WHERE p.group_id = ?
		UNION ALL SELECT ?, id, ? FROM posts WHERE group_id = ?`,
		EntityComment, OpDelete, g.ID, EntityPost, OpDelete, g.ID); err != nil {
		return nil, fmt.Errorf("persistence: outbox group posts: %w", err)
	}
	if err := AddOutbox(ctx, tx, EntityGroup, g.ID, OpDelete); err != nil {
		return nil, err
	}
	if _, err := tx.NewDelete().Model((*Group)(nil)).Where("id = ?", g.ID).Exec(ctx); err != nil {
		return nil, fmt.Errorf("persistence: delete group: %w", err)
	}
	return keys, nil
}

// GroupListQuery selects a page of groups for a viewer, newest first.
type GroupListQuery struct {
	Viewer uuid.UUID
	// Mine: only groups the viewer is a member of; else the directory:
	// every public and closed group, and secret ones the viewer is a
	// member of or invited to.
	Mine bool
	// IDs, when set, limits the list to these groups (search hits) and
	// keeps their order; After is ignored then.
	IDs   []uuid.UUID
	After Keyset
	Limit int
}

// Groups answers a page of groups and whether there are more.
func Groups(ctx context.Context, db bun.IDB, q GroupListQuery) ([]*GroupRow, bool, error) {
	var out []*GroupRow
	s := groupRows(db, &out, q.Viewer)
	if q.Mine {
		s = s.Where("me.status = 'member'")
	} else {
		s = s.Where("g.visibility <> 'secret' OR me.status IN ('member', 'invited')")
	}
	if q.IDs != nil {
		if len(q.IDs) == 0 {
			return nil, false, nil
		}
		s = s.Where("g.id IN (?)", bun.In(q.IDs))
		if err := s.Scan(ctx); err != nil {
			return nil, false, fmt.Errorf("persistence: groups by id: %w", err)
		}
		pos := make(map[uuid.UUID]int, len(q.IDs))
		for i, id := range q.IDs {
			pos[id] = i
		}
		sorted := make([]*GroupRow, 0, len(out))
		for _, id := range q.IDs {
			for _, r := range out {
				if r.ID == id {
					sorted = append(sorted, r)
				}
			}
		}
		return sorted, false, nil
	}
	if !q.After.IsZero() {
		s = s.Where("(g.created_at, g.id) < (?, ?)", q.After.At, q.After.ID)
	}
	if err := s.OrderExpr("g.created_at DESC, g.id DESC").Limit(int64(q.Limit) + 1).Scan(ctx); err != nil {
		return nil, false, fmt.Errorf("persistence: groups: %w", err)
	}
	more := len(out) > q.Limit
	if more {
		out = out[:q.Limit]
	}
	return out, more, nil
}

// GroupMembers answers a page of the group's rows of one status (members
// by joined_at, requests by created_at, newest first), with their users,
// optionally only of one role.
func GroupMembers(ctx context.Context, db bun.IDB, groupID uuid.UUID, status, role string, after Keyset, limit int) ([]*GroupMember, bool, error) {
	var out []*GroupMember
	at := "gm.created_at"
	if status == domain.StatusMember {
		at = "gm.joined_at"
	}
	q := db.NewSelect().Model(&out).Relation("User", authorColumns).
		Where("gm.group_id = ? AND gm.status = ?", groupID, status)
	if role != "" {
		q = q.Where("gm.role = ?", role)
	}
	if !after.IsZero() {
		q = q.Where("("+at+", gm.user_id) < (?, ?)", after.At, after.ID)
	}
	if err := q.OrderExpr(at + " DESC, gm.user_id DESC").Limit(int64(limit) + 1).Scan(ctx); err != nil {
		return nil, false, fmt.Errorf("persistence: group members: %w", err)
	}
	more := len(out) > limit
	if more {
		out = out[:limit]
	}
	return out, more, nil
}

// GroupAdmins answers the ids of the group's owner and admins.
func GroupAdmins(ctx context.Context, db bun.IDB, groupID uuid.UUID) ([]uuid.UUID, error) {
	var ids []uuid.UUID
	err := db.NewSelect().Model((*GroupMember)(nil)).Column("user_id").
		Where("group_id = ? AND status = 'member' AND role IN ('owner', 'admin')", groupID).Scan(ctx, &ids)
	if err != nil {
		return nil, fmt.Errorf("persistence: group admins: %w", err)
	}
	return ids, nil
}

// CloseFollowers answers the members of the group who follow it closely,
// but not except (the author of the new post) nor anyone with a block
// between them and except.
func CloseFollowers(ctx context.Context, db bun.IDB, groupID, except uuid.UUID) ([]uuid.UUID, error) {
	var ids []uuid.UUID
	err := db.NewSelect().Model((*GroupMember)(nil)).Column("user_id").
		Where("group_id = ? AND status = 'member' AND follow_closely AND user_id <> ?", groupID, except).
		Where("NOT EXISTS (SELECT FROM user_blocks b WHERE (b.blocker_id = gm.user_id AND b.blocked_id = ?0) OR (b.blocker_id = ?0 AND b.blocked_id = gm.user_id))", except).
		Scan(ctx, &ids)
	if err != nil {
		return nil, fmt.Errorf("persistence: group close followers: %w", err)
	}
	return ids, nil
}

// MemberGroupIDs answers the groups userID is a member of, in id order.
func MemberGroupIDs(ctx context.Context, db bun.IDB, userID uuid.UUID) ([]uuid.UUID, error) {
	var ids []uuid.UUID
	err := db.NewSelect().Model((*GroupMember)(nil)).Column("group_id").
		Where("user_id = ? AND status = 'member'", userID).Order("group_id").Scan(ctx, &ids)
	if err != nil {
		return nil, fmt.Errorf("persistence: member groups: %w", err)
	}
	return ids, nil
}

// GroupSuggestion is a group suggested to a viewer and why.
type GroupSuggestion struct {
	Group   *GroupRow
	Course  bool // the viewer's course and batch
	Friends int  // how many of the viewer's friends are members
}

// SuggestedGroups answers up to limit groups viewer is not in and may see:
// course groups opened to the viewer's program and batch first, then
// groups with the most of the viewer's friends.
func SuggestedGroups(ctx context.Context, db bun.IDB, viewer uuid.UUID, program, batch string, limit int) ([]GroupSuggestion, error) {
	var rows []struct {
		GroupRow `bun:",extend"`
		IsCourse bool `bun:"is_course,scanonly"`
		Friends  int  `bun:"friends,scanonly"`
	}
	err := groupRows(db, &rows, viewer).
		ColumnExpr("(g.course_program <> '' AND g.course_program = ? AND g.course_batch = ?) AS is_course", program, batch).
		ColumnExpr(`(SELECT count(*) FROM group_members f WHERE f.group_id = g.id AND f.status = 'member'
			AND f.user_id IN `+friendIDsOf+`) AS friends`, viewer).
		Where("me.status IS NULL OR me.status = 'invited'").
		Where("g.visibility <> 'secret' OR me.status = 'invited'").
		Where("NOT EXISTS (SELECT FROM group_members o JOIN user_blocks b ON (b.blocker_id = o.user_id AND b.blocked_id = ?0) OR (b.blocker_id = ?0 AND b.blocked_id = o.user_id) WHERE o.group_id = g.id AND o.role = 'owner')", viewer).
		OrderExpr("is_course DESC, friends DESC, g.members_count DESC, g.id").
		Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("persistence: suggested groups: %w", err)
	}
	out := make([]GroupSuggestion, 0, len(rows))
	for i := range rows {
		r := rows[i]
		if !r.IsCourse && r.Friends == 0 {
			continue
		}
		g := r.GroupRow
		out = append(out, GroupSuggestion{Group: &g, Course: r.IsCourse, Friends: r.Friends})
	}
	return out, nil
}

// friendIDsOf is friendIDs with the user as a positional ? argument.
const friendIDsOf = `(SELECT user_high FROM friendships WHERE user_low = ?0 UNION ALL SELECT user_low FROM friendships WHERE user_high = ?0)`

// HotGroupPosts answers the ids of the group's up to limit hottest posts:
// by likes in the last window, then by all likes, then newest. One query:
// the group's posts through their index, each one's recent likes counted
// through post_likes_recent_idx.
func HotGroupPosts(ctx context.Context, db bun.IDB, groupID uuid.UUID, window time.Duration, limit int) ([]uuid.UUID, error) {
	var ids []uuid.UUID
	rows, err := db.QueryContext(ctx, `SELECT p.id FROM posts p
		CROSS JOIN LATERAL (SELECT count(*) AS n FROM post_likes pl
			WHERE pl.post_id = p.id AND pl.created_at > now() - ?::interval) AS recent
		WHERE p.group_id = ? AND p.removed_at IS NULL
		ORDER BY recent.n DESC, p.likes_count DESC, p.created_at DESC, p.id DESC LIMIT ?`,
		fmt.Sprintf("%d milliseconds", window.Milliseconds()), groupID, limit)
	if err != nil {
		return nil, fmt.Errorf("persistence: hot group posts: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id uuid.UUID
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("persistence: hot group posts: %w", err)
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// PostsByIDs loads posts as viewer sees them, in the order of ids (missing
// and removed ones left out).
func PostsByIDs(ctx context.Context, db bun.IDB, ids []uuid.UUID, viewer uuid.UUID) ([]*PostRow, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	rows, err := queryPosts(ctx, db, postsSQL(" WHERE id = ANY($2::uuid[]) AND removed_at IS NULL", len(ids)),
		uuidArray([]uuid.UUID{viewer}), uuidArray(ids))
	if err != nil {
		return nil, fmt.Errorf("persistence: posts by ids: %w", err)
	}
	byID := make(map[uuid.UUID]*PostRow, len(rows))
	for _, r := range rows {
		byID[r.ID] = r
	}
	out := make([]*PostRow, 0, len(rows))
	for _, id := range ids {
		if r := byID[id]; r != nil {
			out = append(out, r)
		}
	}
	return out, nil
}

// BoardViewer is what one viewer's big screen of a group takes fresh from
// the database on every call (the rest is shared, app.Groups.Live): the
// group's visibility, the viewer's standing in it, and, for each of the
// board's posts still there (not removed), its counts, whether the viewer
// likes it and whether a block stands between them and its author.
type BoardViewer struct {
	Visibility, Status, Role string
	Follow                   bool
	Posts                    map[uuid.UUID]BoardPost
}

// BoardPost is one post of a BoardViewer.
type BoardPost struct {
	Likes, Comments int
	CountsVersion   int64 // of Likes and Comments
	Liked, Hidden   bool
}

// boardViewerSQL answers one row per post of $3 in group $1 still there (or
// one with null post columns when there is none), each with the group's
// visibility and viewer $2's standing; no row when group $1 does not have
// handle $4 (any more). Index probes only: one query per screen and second.
const boardViewerSQL = `SELECT g.visibility, coalesce(me.status, ''), coalesce(me.role, ''), coalesce(me.follow_closely, false),
	p.id, p.likes_count, p.comments_count, p.counts_version,
	EXISTS (SELECT FROM post_likes pl WHERE pl.post_id = p.id AND pl.user_id = $2),
	EXISTS (SELECT FROM user_blocks b WHERE b.blocker_id = $2 AND b.blocked_id = p.user_id)
		OR EXISTS (SELECT FROM user_blocks b WHERE b.blocker_id = p.user_id AND b.blocked_id = $2)
FROM groups g
LEFT JOIN group_members me ON me.group_id = g.id AND me.user_id = $2
LEFT JOIN posts p ON p.id = ANY($3::uuid[]) AND p.group_id = g.id AND p.removed_at IS NULL
WHERE g.id = $1 AND g.handle = $4`

// BoardViewerOf reads viewer's BoardViewer of group (whose handle must
// still be handle) for the posts ids; domain.ErrNotFound if the group is
// gone or has another handle now.
func BoardViewerOf(ctx context.Context, db bun.IDB, group uuid.UUID, handle string, viewer uuid.UUID, ids []uuid.UUID) (BoardViewer, error) {
	rows, err := prepared(ctx, db, boardViewerSQL, group, viewer, uuidArray(ids), handle)
	if err != nil {
		return BoardViewer{}, fmt.Errorf("persistence: board viewer: %w", err)
	}
	defer rows.Close()
	v := BoardViewer{Posts: make(map[uuid.UUID]BoardPost, len(ids))}
	found := false
	for rows.Next() {
		var id uuid.NullUUID
		var likes, comments, version sql.NullInt64
		var liked, hidden sql.NullBool
		if err := rows.Scan(&v.Visibility, &v.Status, &v.Role, &v.Follow, &id, &likes, &comments, &version, &liked, &hidden); err != nil {
			return BoardViewer{}, fmt.Errorf("persistence: board viewer: %w", err)
		}
		found = true
		if id.Valid {
			v.Posts[id.UUID] = BoardPost{Likes: int(likes.Int64), Comments: int(comments.Int64), CountsVersion: version.Int64,
				Liked: liked.Bool, Hidden: hidden.Bool}
		}
	}
	if err := rows.Err(); err != nil {
		return BoardViewer{}, fmt.Errorf("persistence: board viewer: %w", err)
	}
	if !found {
		return BoardViewer{}, notFound(sql.ErrNoRows, "persistence: board viewer")
	}
	return v, nil
}
