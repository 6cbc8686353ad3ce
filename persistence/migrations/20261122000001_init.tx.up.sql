-- The whole schema of the first release. IDs are UUIDv7 made by the
-- application (time ordered, so they index well); timestamps are timestamptz.
-- Everything a user owns hangs off users with ON DELETE CASCADE, so deleting
-- the account removes it all in one statement.

CREATE TABLE users (
    id                uuid PRIMARY KEY,
    name              text NOT NULL,
    email             text NOT NULL,
    email_verified_at timestamptz,
    password_hash     text NOT NULL,
    role              text NOT NULL CHECK (role IN ('student', 'faculty')),
    university_id     text,
    college_id        text NOT NULL DEFAULT '',
    department        text NOT NULL DEFAULT '',
    course            text NOT NULL DEFAULT '',
    batch             text NOT NULL DEFAULT '',
    avatar_url        text NOT NULL DEFAULT '',
    avatar_key        text NOT NULL DEFAULT '',
    cover_url         text NOT NULL DEFAULT '',
    cover_key         text NOT NULL DEFAULT '',
    bio               text NOT NULL DEFAULT '',
    location          text NOT NULL DEFAULT '',
    -- Part of every JWT; bumping it revokes all of the user's tokens.
    token_version     integer NOT NULL DEFAULT 0,
    -- Wrong one-time codes across codes: a resend does not reset it.
    otp_failures      integer NOT NULL DEFAULT 0 CHECK (otp_failures >= 0),
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));
CREATE UNIQUE INDEX users_university_id_key ON users (upper(university_id)) WHERE university_id IS NOT NULL;

CREATE TABLE profiles (
    user_id            uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    education          jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(education) = 'object'),
    skills             jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(skills) = 'array'),
    achievements       jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(achievements) = 'array'),
    interests          jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(interests) = 'array'),
    likes_count        integer NOT NULL DEFAULT 0 CHECK (likes_count >= 0),
    setup_completed_at timestamptz,
    updated_at         timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE experience (
    id           uuid PRIMARY KEY,
    user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    title        text NOT NULL DEFAULT '',
    organization text NOT NULL DEFAULT '',
    location     text NOT NULL DEFAULT '',
    start_date   text NOT NULL DEFAULT '',
    end_date     text NOT NULL DEFAULT '',
    description  text NOT NULL DEFAULT '',
    position     integer NOT NULL DEFAULT 0,
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX experience_user_id_idx ON experience (user_id, position);

CREATE TABLE posts (
    id             uuid PRIMARY KEY,
    user_id        uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    content        text NOT NULL DEFAULT '' CHECK (char_length(content) <= 2000),
    visibility     text NOT NULL DEFAULT 'public',
    -- Moved in the same transaction as the rows they count.
    likes_count    integer NOT NULL DEFAULT 0 CHECK (likes_count >= 0),
    comments_count integer NOT NULL DEFAULT 0 CHECK (comments_count >= 0),
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now()
);
-- Keyset pagination: the feed, and one author's posts.
CREATE INDEX posts_feed_idx ON posts (created_at DESC, id DESC);
CREATE INDEX posts_user_feed_idx ON posts (user_id, created_at DESC, id DESC);

CREATE TABLE post_images (
    id            uuid PRIMARY KEY,
    post_id       uuid NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
    position      smallint NOT NULL CHECK (position BETWEEN 0 AND 2),
    storage_key   text NOT NULL,
    url           text NOT NULL,
    type          text NOT NULL DEFAULT 'image',
    content_type  text NOT NULL DEFAULT '',
    width         integer NOT NULL DEFAULT 0 CHECK (width >= 0),
    height        integer NOT NULL DEFAULT 0 CHECK (height >= 0),
    size_bytes    bigint NOT NULL DEFAULT 0 CHECK (size_bytes >= 0),
    created_at    timestamptz NOT NULL DEFAULT now(),
    UNIQUE (post_id, position)
);

CREATE TABLE post_likes (
    post_id    uuid NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (post_id, user_id)
);
CREATE INDEX post_likes_user_id_idx ON post_likes (user_id);

CREATE TABLE comments (
    id         uuid PRIMARY KEY,
    post_id    uuid NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    content    text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX comments_post_idx ON comments (post_id, created_at, id);
CREATE INDEX comments_user_id_idx ON comments (user_id);

CREATE TABLE friend_requests (
    id          uuid PRIMARY KEY,
    sender_id   uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    receiver_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    status      text NOT NULL DEFAULT 'pending'
                CHECK (status IN ('pending', 'accepted', 'declined', 'cancelled')),
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    CHECK (sender_id <> receiver_id)
);
CREATE UNIQUE INDEX friend_requests_pending_key ON friend_requests (sender_id, receiver_id) WHERE status = 'pending';
CREATE INDEX friend_requests_received_pending_idx ON friend_requests (receiver_id, created_at DESC, id DESC) WHERE status = 'pending';
CREATE INDEX friend_requests_sent_pending_idx ON friend_requests (sender_id, created_at DESC, id DESC) WHERE status = 'pending';
-- For the cascades, which see every status.
CREATE INDEX friend_requests_sender_id_idx ON friend_requests (sender_id);
CREATE INDEX friend_requests_receiver_id_idx ON friend_requests (receiver_id);

-- One row per pair, the smaller id first, so a pair cannot appear twice.
CREATE TABLE friendships (
    user_low   uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    user_high  uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_low, user_high),
    CHECK (user_low < user_high)
);
CREATE INDEX friendships_user_high_idx ON friendships (user_high);

CREATE TABLE profile_likes (
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    liker_id   uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, liker_id),
    CHECK (user_id <> liker_id)
);
CREATE INDEX profile_likes_liker_id_idx ON profile_likes (liker_id);

CREATE TABLE notifications (
    id         uuid PRIMARY KEY,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    type       text NOT NULL CHECK (type IN ('friend_request', 'friend_accepted', 'like', 'comment', 'other')),
    sender_id  uuid REFERENCES users (id) ON DELETE CASCADE,
    post_id    uuid REFERENCES posts (id) ON DELETE CASCADE,
    comment_id uuid REFERENCES comments (id) ON DELETE CASCADE,
    is_read    boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX notifications_user_idx ON notifications (user_id, created_at DESC, id DESC);
CREATE INDEX notifications_unread_idx ON notifications (user_id) WHERE NOT is_read;
-- One like notification per liker per post, however often they toggle.
CREATE UNIQUE INDEX notifications_like_key ON notifications (user_id, sender_id, post_id) WHERE type = 'like';
-- For the cascades.
CREATE INDEX notifications_sender_id_idx ON notifications (sender_id) WHERE sender_id IS NOT NULL;
CREATE INDEX notifications_post_id_idx ON notifications (post_id) WHERE post_id IS NOT NULL;
CREATE INDEX notifications_comment_id_idx ON notifications (comment_id) WHERE comment_id IS NOT NULL;

CREATE TABLE otp_codes (
    id          uuid PRIMARY KEY,
    user_id     uuid REFERENCES users (id) ON DELETE CASCADE,
    -- The address the code was sent to (the new one for an e-mail change).
    email       text NOT NULL,
    purpose     text NOT NULL
                CHECK (purpose IN ('signup', 'reset', 'email_change', 'password_change', 'delete_account')),
    code_hash   bytea NOT NULL,
    attempts    integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    expires_at  timestamptz NOT NULL,
    consumed_at timestamptz,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX otp_codes_lookup_idx ON otp_codes (email, purpose, created_at DESC);
CREATE INDEX otp_codes_user_id_idx ON otp_codes (user_id) WHERE user_id IS NOT NULL;

-- What the search index still has to catch up on, written in the same
-- transaction as the change; indexers tail it by id.
CREATE TABLE search_outbox (
    id         bigserial PRIMARY KEY,
    entity     text NOT NULL CHECK (entity IN ('user', 'post', 'comment')),
    entity_id  uuid NOT NULL,
    op         text NOT NULL CHECK (op IN ('upsert', 'delete')),
    created_at timestamptz NOT NULL DEFAULT now()
);

-- Wakes the indexers once per inserting statement (delivered on commit),
-- so they need not poll.
CREATE FUNCTION search_outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('search_outbox', '');
    RETURN NULL;
END
$$;
CREATE TRIGGER search_outbox_notify AFTER INSERT ON search_outbox
    FOR EACH STATEMENT EXECUTE FUNCTION search_outbox_notify();
