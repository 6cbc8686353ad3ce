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

// A group's chat is a group conversation with group_id set whose members
// are the group's members. Every change of a group membership or role
// (SetMembership, DeleteMembership, SetMemberRole, and an account's
// deletion) brings the chat in line in the same transaction, under the
// conversation row's lock, which a send's batch takes too: a person removed
// from the group gets no message committed after the removal.

// GroupChatOf answers the chat of group, open or closed; domain.ErrNotFound
// when it never had one.
func GroupChatOf(ctx context.Context, db bun.IDB, group uuid.UUID) (*Conversation, error) {
	c := new(Conversation)
	if err := db.NewSelect().Model(c).Where("c.group_id = ?", group).Scan(ctx); err != nil {
		return nil, notFound(err, "persistence: group chat")
	}
	return c, nil
}

// lockOpenGroupChat locks group's open chat; nil when it has none.
func lockOpenGroupChat(ctx context.Context, tx bun.IDB, group uuid.UUID) (*Conversation, error) {
	c := new(Conversation)
	err := tx.NewSelect().Model(c).Where("c.group_id = ? AND c.closed_at IS NULL", group).For("UPDATE").Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("persistence: lock group chat: %w", err)
	}
	return c, nil
}

// groupChatJoinSQL makes the group's members (?3: all, or only the user ?4)
// members of the chat ?0 whose last seq is ?1, admins when the group's
// owner or admins, and answers who changed. A new member reads from now
// on; one coming back reads on from where they were when nothing was sent
// since they left (the chat was closed meanwhile, say), else from now on.
const groupChatJoinSQL = `INSERT INTO conversation_members AS m (conversation_id, user_id, role, joined_seq, read_seq)
	SELECT ?0, gm.user_id, CASE WHEN gm.role IN ('owner', 'admin') THEN 'admin' ELSE 'member' END, ?1, ?1
	FROM group_members gm WHERE gm.group_id = ?2 AND gm.status = 'member' AND (?3 OR gm.user_id = ?4)
	ON CONFLICT (conversation_id, user_id) DO UPDATE SET role = EXCLUDED.role,
		joined_seq = CASE WHEN m.left_seq IS NULL OR m.left_seq = ?1 THEN m.joined_seq ELSE EXCLUDED.joined_seq END,
		read_seq = CASE WHEN m.left_seq IS NULL OR m.left_seq = ?1 THEN m.read_seq ELSE greatest(m.read_seq, EXCLUDED.read_seq) END,
		joined_at = CASE WHEN m.left_seq IS NULL THEN m.joined_at ELSE now() END,
		left_seq = NULL, left_at = NULL
	WHERE m.left_seq IS NOT NULL OR m.role <> EXCLUDED.role
	RETURNING m.user_id`

// groupChatLeaveSQL ends the chat ?0 (last seq ?1) for its members who are
// no longer members of the group ?2 (?3: any, or only the user ?4).
const groupChatLeaveSQL = `UPDATE conversation_members m SET left_seq = ?1, left_at = now(), role = 'member'
	WHERE m.conversation_id = ?0 AND m.left_seq IS NULL AND (?3 OR m.user_id = ?4)
		AND NOT EXISTS (SELECT FROM group_members gm WHERE gm.group_id = ?2 AND gm.user_id = m.user_id AND gm.status = 'member')
	RETURNING m.user_id`

// syncGroupChat brings group's open chat in line with the group, for every
// member (all) or for user only; it answers the chat's id (uuid.Nil when
// the group has no open chat) and who joined, changed role or left.
func syncGroupChat(ctx context.Context, tx bun.IDB, group uuid.UUID, all bool, user uuid.UUID) (uuid.UUID, []uuid.UUID, error) {
	c, err := lockOpenGroupChat(ctx, tx, group)
	if err != nil || c == nil {
		return uuid.Nil, nil, err
	}
	var changed, left []uuid.UUID
	if err := tx.NewRaw(groupChatJoinSQL, c.ID, c.LastSeq, group, all, user).Scan(ctx, &changed); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return uuid.Nil, nil, fmt.Errorf("persistence: group chat members in: %w", err)
	}
	if err := tx.NewRaw(groupChatLeaveSQL, c.ID, c.LastSeq, group, all, user).Scan(ctx, &left); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return uuid.Nil, nil, fmt.Errorf("persistence: group chat members out: %w", err)
	}
	changed = append(changed, left...)
	if len(changed) > 0 {
		if err := TouchConversation(ctx, tx, c.ID, ""); err != nil {
			return uuid.Nil, nil, err
		}
	}
	return c.ID, changed, nil
}

// SyncGroupChatMember brings user's membership of group's open chat in
// line with their standing in the group.
func SyncGroupChatMember(ctx context.Context, tx bun.IDB, group, user uuid.UUID) error {
	_, _, err := syncGroupChat(ctx, tx, group, false, user)
	return err
}

// OpenGroupChat switches group's chat on: a new group conversation titled
// name, made by creator, or the closed one reopened (renamed to name), with
// the group's members as its members. It answers the chat and whether it
// was off before.
func OpenGroupChat(ctx context.Context, tx bun.IDB, group uuid.UUID, name string, creator uuid.UUID) (*Conversation, bool, error) {
	c := &Conversation{ID: NewID(), Kind: domain.ConversationGroup, Title: name, GroupID: group, CreatedBy: creator}
	res, err := tx.NewInsert().Model(c).On("CONFLICT (group_id) WHERE group_id IS NOT NULL DO NOTHING").
		Returning("created_at, updated_at").Exec(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("persistence: open group chat: %w", err)
	}
	opened := true
	if n, _ := res.RowsAffected(); n == 0 {
		var was sql.NullTime
		if err := tx.QueryRowContext(ctx, `SELECT closed_at FROM conversations WHERE group_id = ? FOR UPDATE`, group).Scan(&was); err != nil {
			return nil, false, fmt.Errorf("persistence: open group chat: %w", err)
		}
		opened = was.Valid
		if _, err := tx.ExecContext(ctx, `UPDATE conversations SET closed_at = NULL, title = ?, updated_at = now()
			WHERE group_id = ?`, name, group); err != nil {
			return nil, false, fmt.Errorf("persistence: reopen group chat: %w", err)
		}
	}
	if _, _, err := syncGroupChat(ctx, tx, group, true, uuid.Nil); err != nil {
		return nil, false, err
	}
	c, err = GroupChatOf(ctx, tx, group)
	if err != nil {
		return nil, false, err
	}
	return c, opened, nil
}

// CloseGroupChat switches group's chat off: every member leaves it,
// keeping the history up to now. It answers the chat's id and who left
// (uuid.Nil and none when it was not on).
func CloseGroupChat(ctx context.Context, tx bun.IDB, group uuid.UUID) (uuid.UUID, []uuid.UUID, error) {
	c, err := lockOpenGroupChat(ctx, tx, group)
	if err != nil || c == nil {
		return uuid.Nil, nil, err
	}
	var left []uuid.UUID
	if err := tx.NewRaw(`UPDATE conversation_members SET left_seq = ?, left_at = now(), role = 'member'
		WHERE conversation_id = ? AND left_seq IS NULL RETURNING user_id`, c.LastSeq, c.ID).Scan(ctx, &left); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return uuid.Nil, nil, fmt.Errorf("persistence: close group chat: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE conversations SET closed_at = now(), updated_at = now() WHERE id = ?`, c.ID); err != nil {
		return uuid.Nil, nil, fmt.Errorf("persistence: close group chat: %w", err)
	}
	return c.ID, left, nil
}

// RenameGroupChat gives group's chat (open or closed) the group's new name.
func RenameGroupChat(ctx context.Context, tx bun.IDB, group uuid.UUID, name string) (uuid.UUID, error) {
	var id uuid.UUID
	err := tx.QueryRowContext(ctx, `UPDATE conversations SET title = ?, updated_at = now()
		WHERE group_id = ? AND title <> ? RETURNING id`, name, group, name).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return uuid.Nil, nil
	}
	if err != nil {
		return uuid.Nil, fmt.Errorf("persistence: rename group chat: %w", err)
	}
	return id, nil
}
