-- @mentions (issue 27): every account gets a handle, the name an @mention
-- uses; the mentions a post or comment makes are stored; a `mention`
-- notification rolls up per post like a like.

-- A handle is made from the name at sign-up ("Bikram Sen" -> bikramsen,
-- the next Bikram Sen bikramsen2) and does not follow later renames: links
-- and mentions made with it keep working. Lower-case letters, digits and
-- '_', 3-30 characters. p_id is the account the handle is for (its own
-- handle does not count as taken).
CREATE FUNCTION user_handle_base(p_name text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT coalesce(nullif(left(regexp_replace(translate(lower(p_name),
        'àáâãäåāăąçćčďđèéêëēėęěğìíîïīįıłñńňòóôõöøōőřśšşťùúûüūůűųýÿžźż',
        'aaaaaaaaacccddeeeeeeeegiiiiiiilnnnoooooooorssstuuuuuuuuyyzzz'), '[^a-z0-9]+', '', 'g'), 23), ''), 'user')
$$;

CREATE FUNCTION user_handle_for(p_name text, p_id uuid) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    base text := user_handle_base(p_name);
    n bigint;
BEGIN
    IF length(base) >= 3 AND NOT EXISTS (SELECT FROM users WHERE handle = base AND id <> p_id) THEN
        RETURN base;
    END IF;
    -- The next number after the highest one in use: asha, asha2, asha3; a
    -- name too short for a handle takes one long enough (al1, x10). The
    -- range (not LIKE, which a generic plan cannot take to the index) is
    -- the handles starting with base: '{' follows every letter and digit.
    SELECT greatest(coalesce(max(substr(handle, length(base) + 1)::bigint), 0) + 1,
            CASE length(base) WHEN 1 THEN 10 WHEN 2 THEN 1 ELSE 2 END)
        INTO n FROM users
        WHERE handle ~>=~ base AND handle ~<~ (base || '{') AND id <> p_id
            AND substr(handle, length(base) + 1) ~ '^[1-9][0-9]{0,6}$';
    RETURN base || n;
END
$$;

ALTER TABLE users ADD COLUMN handle text;
-- text_pattern_ops: prefix matches (the typeahead's, the next free number's) read it too.
CREATE UNIQUE INDEX users_handle_key ON users (handle text_pattern_ops);

DO $$
DECLARE
    r record;
BEGIN
    FOR r IN SELECT id, name FROM users ORDER BY created_at, id LOOP
        UPDATE users SET handle = user_handle_for(r.name, r.id) WHERE id = r.id;
    END LOOP;
END
$$;
ALTER TABLE users ALTER COLUMN handle SET NOT NULL;
ALTER TABLE users ADD CONSTRAINT users_handle_check CHECK (handle ~ '^[a-z0-9_]{3,30}$');

-- Every way an account is made (sign-up, university sign-in, seeding)
-- leaves the handle to this trigger; setting it to NULL makes it again
-- (an unverified sign-up replaced with another name). Two sign-ups of one
-- handle at once are serialized by an advisory lock on its bucket (32
-- buckets: a transaction making thousands of accounts holds at most 32
-- locks), so the second sees the first's handle.
CREATE FUNCTION users_handle() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.handle IS NULL OR NEW.handle = '' THEN
        PERFORM pg_advisory_xact_lock(20261201, abs(hashtext(user_handle_base(NEW.name))) % 32);
        NEW.handle := user_handle_for(NEW.name, NEW.id);
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER users_handle BEFORE INSERT OR UPDATE OF handle ON users
    FOR EACH ROW EXECUTE FUNCTION users_handle();

-- The typeahead matches the start of any word of a name.
CREATE INDEX users_name_words_idx ON users USING gin (to_tsvector('simple', name));

-- A mention of user_id by author_id in a post (comment_id NULL) or in one
-- of its comments. in_text turns false when an edit takes the mention out:
-- the row stays, so that putting it back does not notify again and the
-- post's cap on notified people counts it. notified: a notification was
-- asked for.
CREATE TABLE mentions (
    post_id    uuid NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
    comment_id uuid REFERENCES comments (id) ON DELETE CASCADE,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    author_id  uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    in_text    boolean NOT NULL DEFAULT true,
    notified   boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX mentions_post_key ON mentions (post_id, user_id) WHERE comment_id IS NULL;
CREATE UNIQUE INDEX mentions_comment_key ON mentions (comment_id, user_id) WHERE comment_id IS NOT NULL;
CREATE INDEX mentions_user_post_idx ON mentions (user_id, post_id);
CREATE INDEX mentions_author_id_idx ON mentions (author_id);

-- One `mention` notification per person and post, rolled up like likes:
-- actor_ids the newest people who mentioned them there, actor_count how
-- many did, comment_id the newest mention's comment (NULL: the post).
ALTER TABLE notifications DROP CONSTRAINT notifications_type_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_type_check
    CHECK (type IN ('friend_request', 'friend_accepted', 'like', 'comment', 'other', 'moderation',
        'group_join_request', 'group_join_approved', 'group_invitation', 'group_post', 'profile_like', 'mention'));
CREATE UNIQUE INDEX notifications_mention_rollup_key ON notifications (user_id, post_id) WHERE type = 'mention';

-- A roll-up names the comment of its newest mention, and a deleted comment
-- takes its notifications with it (the foreign key's cascade): a roll-up
-- that other mentions of that person on that post still stand behind stays,
-- without the comment, before the cascade runs.
CREATE FUNCTION comments_keep_mention_rollups() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE notifications n SET comment_id = NULL
    WHERE n.comment_id = OLD.id AND n.type = 'mention'
        AND EXISTS (SELECT FROM mentions m WHERE m.user_id = n.user_id AND m.post_id = n.post_id AND m.notified
            AND m.comment_id IS DISTINCT FROM OLD.id);
    RETURN OLD;
END
$$;
CREATE TRIGGER comments_keep_mention_rollups BEFORE DELETE ON comments
    FOR EACH ROW EXECUTE FUNCTION comments_keep_mention_rollups();
