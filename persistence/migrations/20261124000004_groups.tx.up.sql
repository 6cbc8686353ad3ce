-- Groups: courses, clubs, departments and event spaces (issue 18).

CREATE TABLE groups (
    id             uuid PRIMARY KEY,
    -- Stored lower-case; unique.
    handle         text NOT NULL UNIQUE CHECK (handle ~ '^[a-z0-9][a-z0-9-]{1,28}[a-z0-9]$'),
    name           text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 80),
    description    text NOT NULL DEFAULT '' CHECK (char_length(description) <= 2000),
    kind           text NOT NULL CHECK (kind IN ('course', 'club', 'department', 'event', 'other')),
    visibility     text NOT NULL CHECK (visibility IN ('public', 'closed', 'secret')),
    avatar_url     text NOT NULL DEFAULT '',
    avatar_key     text NOT NULL DEFAULT '',
    cover_url      text NOT NULL DEFAULT '',
    cover_key      text NOT NULL DEFAULT '',
    starts_at      timestamptz,
    ends_at        timestamptz,
    -- A course group opened to a program and batch ('' when not).
    course_program text NOT NULL DEFAULT '',
    course_batch   text NOT NULL DEFAULT '',
    pinned_post_id uuid,
    -- Counters move in the same transaction as the rows they count.
    members_count  int NOT NULL DEFAULT 0 CHECK (members_count >= 0),
    posts_count    int NOT NULL DEFAULT 0 CHECK (posts_count >= 0),
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    CHECK ((kind = 'event') = (starts_at IS NOT NULL AND ends_at IS NOT NULL)),
    CHECK (ends_at IS NULL OR ends_at > starts_at)
);
-- Directory order (newest first, keyset) and the course suggestions.
CREATE INDEX groups_list_idx ON groups (created_at DESC, id DESC);
CREATE INDEX groups_course_idx ON groups (course_program, course_batch) WHERE course_program <> '';

-- One row per (group, user): a member (with a role), a pending join
-- request or a pending invitation.
CREATE TABLE group_members (
    group_id       uuid NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
    user_id        uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    status         text NOT NULL CHECK (status IN ('member', 'requested', 'invited')),
    role           text NOT NULL DEFAULT 'member' CHECK (role IN ('owner', 'admin', 'member')),
    follow_closely boolean NOT NULL DEFAULT false,
    invited_by     uuid REFERENCES users (id) ON DELETE SET NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    -- When the person became a member (the members list's order).
    joined_at      timestamptz,
    PRIMARY KEY (group_id, user_id),
    CHECK (status = 'member' OR role = 'member'),
    CHECK ((status = 'member') = (joined_at IS NOT NULL))
);
-- A group has one owner.
CREATE UNIQUE INDEX group_members_owner_key ON group_members (group_id) WHERE role = 'owner';
-- "My groups" (the feed's filter, the directory's me) and the lists.
CREATE INDEX group_members_user_idx ON group_members (user_id, status, group_id);
CREATE INDEX group_members_list_idx ON group_members (group_id, status, joined_at DESC, user_id DESC);
CREATE INDEX group_members_requests_idx ON group_members (group_id, status, created_at DESC, user_id DESC);

-- A post may belong to a group.
ALTER TABLE posts ADD COLUMN group_id uuid REFERENCES groups (id) ON DELETE CASCADE;
-- The group's feed, newest first (keyset), and the hot list of the big screen.
CREATE INDEX posts_group_feed_idx ON posts (group_id, created_at DESC, id DESC) WHERE group_id IS NOT NULL;
ALTER TABLE groups ADD CONSTRAINT groups_pinned_post_fkey
    FOREIGN KEY (pinned_post_id) REFERENCES posts (id) ON DELETE SET NULL;
-- The big screen's "likes in the last 10 minutes".
CREATE INDEX post_likes_recent_idx ON post_likes (post_id, created_at);

-- Group notifications carry their group.
ALTER TABLE notifications ADD COLUMN group_id uuid REFERENCES groups (id) ON DELETE CASCADE;
ALTER TABLE notifications DROP CONSTRAINT notifications_type_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_type_check
    CHECK (type IN ('friend_request', 'friend_accepted', 'like', 'comment', 'other', 'moderation',
        'group_join_request', 'group_join_approved', 'group_invitation', 'group_post'));
CREATE INDEX notifications_group_idx ON notifications (group_id) WHERE group_id IS NOT NULL;

-- Groups enter the search index.
ALTER TABLE search_outbox DROP CONSTRAINT search_outbox_entity_check;
ALTER TABLE search_outbox ADD CONSTRAINT search_outbox_entity_check
    CHECK (entity IN ('user', 'post', 'comment', 'group'));
