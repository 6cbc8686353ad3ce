-- Safety: blocks, mutes, reports, moderator capabilities, suspensions,
-- removed content and the moderation audit log (issue 17).

-- One row per (blocker, blocked); a block hides both people from each other.
CREATE TABLE user_blocks (
    blocker_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    blocked_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (blocker_id, blocked_id),
    CHECK (blocker_id <> blocked_id)
);
-- The other direction of "is there a block between these two".
CREATE INDEX user_blocks_blocked_idx ON user_blocks (blocked_id, blocker_id);
-- The blocker's list, newest first (keyset).
CREATE INDEX user_blocks_list_idx ON user_blocks (blocker_id, created_at DESC, blocked_id DESC);

-- A mute only hides the muted person's posts from the muter's feed.
CREATE TABLE user_mutes (
    muter_id   uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    muted_id   uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (muter_id, muted_id),
    CHECK (muter_id <> muted_id)
);
CREATE INDEX user_mutes_list_idx ON user_mutes (muter_id, created_at DESC, muted_id DESC);

-- Moderator and admin capabilities; an account may hold both.
CREATE TABLE account_capabilities (
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    capability text NOT NULL CHECK (capability IN ('moderator', 'admin')),
    granted_by uuid REFERENCES users (id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, capability)
);

-- A suspended account cannot sign in until until_at (NULL: for good).
CREATE TABLE account_suspensions (
    user_id    uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    until_at   timestamptz,
    reason     text NOT NULL,
    created_by uuid REFERENCES users (id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);

-- Removed content is kept for the audit trail and hidden from everyone but
-- moderators.
ALTER TABLE posts ADD COLUMN removed_at timestamptz;
ALTER TABLE comments ADD COLUMN removed_at timestamptz;

CREATE TABLE reports (
    id             uuid PRIMARY KEY,
    reporter_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    item_type      text NOT NULL CHECK (item_type IN ('post', 'comment', 'profile')),
    item_id        uuid NOT NULL,
    -- Whose content it is: the person a suspension would hit.
    item_author_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    reason         text NOT NULL CHECK (reason IN ('spam', 'harassment', 'hate', 'nudity', 'self_harm', 'other')),
    details        text NOT NULL DEFAULT '' CHECK (char_length(details) <= 1000),
    status         text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'dismissed', 'actioned')),
    resolved_by    uuid REFERENCES users (id) ON DELETE SET NULL,
    resolved_at    timestamptz,
    created_at     timestamptz NOT NULL DEFAULT now()
);
-- One open report per reporter per item.
CREATE UNIQUE INDEX reports_open_key ON reports (reporter_id, item_type, item_id) WHERE status = 'open';
CREATE INDEX reports_open_item_idx ON reports (item_type, item_id) WHERE status = 'open';
CREATE INDEX reports_item_author_idx ON reports (item_author_id);

-- Every moderation action: who, what, when and why. Actor and target are
-- kept as plain ids so the log outlives deleted accounts.
CREATE TABLE moderation_audit (
    id         uuid PRIMARY KEY,
    actor_id   uuid NOT NULL,
    action     text NOT NULL,
    item_type  text NOT NULL,
    item_id    uuid NOT NULL,
    target_id  uuid,
    reason     text NOT NULL DEFAULT '',
    -- What the item said when the action was taken.
    snapshot   text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX moderation_audit_idx ON moderation_audit (created_at DESC, id DESC);

-- The author of removed content is told why.
ALTER TABLE notifications ADD COLUMN note text NOT NULL DEFAULT '';
ALTER TABLE notifications DROP CONSTRAINT notifications_type_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_type_check
    CHECK (type IN ('friend_request', 'friend_accepted', 'like', 'comment', 'other', 'moderation'));
