-- Bookmarks and reposts (issue 27).

-- A bookmark is private: one row per (reader, post), listed newest saved
-- first. A post that goes takes its bookmarks with it. The key is post
-- first, as post_likes': a page's "saved by this reader" is one probe of
-- both columns per post (and the cascade of a deleted post reads it too).
CREATE TABLE post_bookmarks (
    post_id    uuid NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (post_id, user_id)
);
-- The Saved list's keyset, newest saved first (and a deleted account's cascade).
CREATE INDEX post_bookmarks_list_idx ON post_bookmarks (user_id, created_at DESC, post_id DESC);

-- A repost is a row of posts whose repost_of is the original (as Mastodon
-- keeps a reblog as a status): it takes its place in the feed and on the
-- reposter's profile with the feed's own keyset, its content the optional
-- comment. Only posts outside groups are reposted, one repost per person
-- and post; deleting the original deletes its reposts.
ALTER TABLE posts ADD COLUMN repost_of uuid REFERENCES posts (id) ON DELETE CASCADE,
    ADD COLUMN reposts_count integer NOT NULL DEFAULT 0 CHECK (reposts_count >= 0),
    ADD CONSTRAINT posts_repost_outside_groups CHECK (repost_of IS NULL OR group_id IS NULL);
CREATE UNIQUE INDEX posts_repost_key ON posts (repost_of, user_id) WHERE repost_of IS NOT NULL;
-- Whether a reader reposted anything at all: a page's readers who did not
-- are not probed post by post.
CREATE INDEX posts_reposts_by_user_idx ON posts (user_id, created_at) WHERE repost_of IS NOT NULL;

-- Reposts notify the original's author, rolled up per post like likes. The
-- kinds are read from the constraint as it stands, so this migration adds
-- 'repost' to whatever other migrations of the same days added.
DO $$
DECLARE def text;
BEGIN
    SELECT pg_get_constraintdef(oid) INTO def FROM pg_constraint
    WHERE conname = 'notifications_type_check' AND conrelid = 'notifications'::regclass;
    IF def IS NULL OR position('''repost''' IN def) > 0 THEN
        RETURN;
    END IF;
    EXECUTE 'ALTER TABLE notifications DROP CONSTRAINT notifications_type_check';
    EXECUTE 'ALTER TABLE notifications ADD CONSTRAINT notifications_type_check '
        || regexp_replace(def, '\](\)+)$', ', ''repost''::text]\1');
END $$;
CREATE UNIQUE INDEX notifications_repost_rollup_key ON notifications (user_id, post_id) WHERE type = 'repost';
