-- Messages: direct and group conversations (issue 29). Private between their
-- members, stored here, never in the search index, not end-to-end encrypted.

CREATE TABLE conversations (
    id         uuid PRIMARY KEY,
    kind       text NOT NULL CHECK (kind IN ('direct', 'group')),
    -- A group's name; '' for a direct conversation (clients show the other
    -- person's name).
    title      text NOT NULL DEFAULT '' CHECK (char_length(title) <= 80),
    -- A direct conversation's two people, the lower id first; NULL for a
    -- group. The unique index below makes it one conversation per pair,
    -- whoever starts it.
    user_low   uuid REFERENCES users (id) ON DELETE CASCADE,
    user_high  uuid REFERENCES users (id) ON DELETE CASCADE,
    created_by uuid REFERENCES users (id) ON DELETE SET NULL,
    -- The newest message's seq: moved by the sends' own transaction
    -- (last_seq = last_seq + n RETURNING), so seqs are gapless and a twin
    -- grain cannot hand out one twice.
    last_seq   bigint NOT NULL DEFAULT 0 CHECK (last_seq >= 0),
    created_at timestamptz NOT NULL DEFAULT now(),
    -- Moves with every new message, rename and member change: the list's order.
    updated_at timestamptz NOT NULL DEFAULT now(),
    CHECK ((kind = 'direct') = (user_low IS NOT NULL AND user_high IS NOT NULL)),
    CHECK (user_low < user_high),
    CHECK (kind = 'direct' OR char_length(title) >= 1)
);
CREATE UNIQUE INDEX conversations_direct_pair_key ON conversations (user_low, user_high) WHERE kind = 'direct';

-- One row per (conversation, person) who is or was a member. A member sees
-- the messages after joined_seq; one who left (or was removed) keeps a row
-- with left_seq, the last message they may read.
CREATE TABLE conversation_members (
    conversation_id uuid NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    user_id         uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role            text NOT NULL DEFAULT 'member' CHECK (role IN ('admin', 'member')),
    joined_seq      bigint NOT NULL DEFAULT 0 CHECK (joined_seq >= 0),
    -- The read pointer only moves forward (GREATEST).
    read_seq        bigint NOT NULL DEFAULT 0 CHECK (read_seq >= 0),
    left_seq        bigint,
    left_at         timestamptz,
    muted           boolean NOT NULL DEFAULT false,
    joined_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (conversation_id, user_id),
    CHECK ((left_seq IS NULL) = (left_at IS NULL)),
    CHECK (left_seq IS NULL OR left_seq >= joined_seq)
);
-- A person's conversations (the list, the unread total).
CREATE INDEX conversation_members_user_idx ON conversation_members (user_id, conversation_id);

CREATE TABLE messages (
    conversation_id uuid NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    -- Gapless per conversation, from 1.
    seq             bigint NOT NULL CHECK (seq >= 1),
    id              uuid NOT NULL UNIQUE,
    -- NULL once the sender's account is deleted: the message stays, so
    -- that the seqs stay gapless.
    sender_id       uuid REFERENCES users (id) ON DELETE SET NULL,
    -- Made by the sending client; a retry with the same one returns the
    -- original (the unique key below decides, also between twin grains).
    client_id       text NOT NULL CHECK (char_length(client_id) BETWEEN 1 AND 64),
    -- '' once unsent: the text is gone for everyone.
    body            text NOT NULL CHECK (char_length(body) <= 5000),
    reply_to_seq    bigint CHECK (reply_to_seq >= 1 AND reply_to_seq < seq),
    edited_at       timestamptz,
    unsent_at       timestamptz,
    -- A moderator removed it after a report (kept for the audit trail,
    -- shown to members as unsent).
    removed_at      timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (conversation_id, seq),
    UNIQUE (conversation_id, sender_id, client_id),
    CHECK (unsent_at IS NULL OR body = '')
);

-- One reaction per person per message: putting another replaces it.
CREATE TABLE message_reactions (
    conversation_id uuid NOT NULL,
    seq             bigint NOT NULL,
    user_id         uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    emoji           text NOT NULL CHECK (octet_length(emoji) BETWEEN 1 AND 64),
    created_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (conversation_id, seq, user_id),
    FOREIGN KEY (conversation_id, seq) REFERENCES messages (conversation_id, seq) ON DELETE CASCADE
);

-- Who may start a conversation with a person (friends always): absent is
-- 'friends'.
CREATE TABLE message_settings (
    user_id    uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    allow_from text NOT NULL CHECK (allow_from IN ('friends', 'course', 'department', 'everyone')),
    updated_at timestamptz NOT NULL DEFAULT now()
);

-- Messages can be reported; the report keeps a copy of the message, which
-- is all a moderator ever sees of a conversation.
ALTER TABLE reports DROP CONSTRAINT reports_item_type_check;
ALTER TABLE reports ADD CONSTRAINT reports_item_type_check
    CHECK (item_type IN ('post', 'comment', 'profile', 'message'));
ALTER TABLE reports ADD COLUMN snapshot text NOT NULL DEFAULT '';
