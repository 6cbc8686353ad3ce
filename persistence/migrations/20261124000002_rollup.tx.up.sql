-- Like notifications roll up (docs/architecture.md §6.1): one row per (recipient, post)
-- updated in place, holding the newest likers and how many like the post,
-- instead of one row per liker. At a campus event a popular author got a
-- row, a counter move and a push per like.

-- updated_at orders the list: a roll-up moves to the top when it changes.
ALTER TABLE notifications ADD COLUMN updated_at timestamptz;
UPDATE notifications SET updated_at = created_at;
ALTER TABLE notifications ALTER COLUMN updated_at SET NOT NULL,
    ALTER COLUMN updated_at SET DEFAULT now();
-- actor_ids: the newest likers of a roll-up, newest first (at most three,
-- what the text and the avatars show); empty on other kinds, whose one
-- actor is sender_id. actor_count: how many people the row stands for.
ALTER TABLE notifications ADD COLUMN actor_ids uuid[] NOT NULL DEFAULT '{}',
    ADD COLUMN actor_count integer NOT NULL DEFAULT 1 CHECK (actor_count >= 0);

-- Collapse the existing like rows: the newest of each (user, post) stays,
-- with its newest three likers, the count of rows, unread if any was; the
-- rest go. The unread triggers keep the counters exact through both.
WITH g AS (
    SELECT user_id, post_id,
        (array_agg(id ORDER BY created_at DESC, id DESC))[1] AS keep,
        (array_agg(sender_id ORDER BY created_at DESC, id DESC) FILTER (WHERE sender_id IS NOT NULL))[1:3] AS actors,
        count(*) AS n, max(created_at) AS at, bool_and(is_read) AS all_read
    FROM notifications WHERE type = 'like'
    GROUP BY user_id, post_id
)
UPDATE notifications n SET actor_ids = coalesce(g.actors, '{}'), actor_count = g.n,
    updated_at = g.at, is_read = g.all_read, sender_id = NULL
FROM g WHERE n.id = g.keep;
DELETE FROM notifications n USING (
    SELECT id, row_number() OVER (PARTITION BY user_id, post_id ORDER BY created_at DESC, id DESC) AS r
    FROM notifications WHERE type = 'like') x
WHERE n.id = x.id AND x.r > 1;

-- A roll-up has no single sender: a sender_id would take the whole row with
-- it when that one liker deletes their account (DeleteAccount takes the
-- liker out of actor_ids instead).
DROP INDEX notifications_like_key;
CREATE UNIQUE INDEX notifications_like_rollup_key ON notifications (user_id, post_id) WHERE type = 'like';
DROP INDEX notifications_user_idx;
CREATE INDEX notifications_user_idx ON notifications (user_id, updated_at DESC, id DESC);

-- The update trigger locked the recipient's users row for every updated
-- notification, even when its unread state did not change; a roll-up is
-- updated by every batch of likes, so it locks only the users whose counter
-- actually moves (unread ↔ read transitions), in id order as before.
CREATE OR REPLACE FUNCTION notifications_unread_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM users u WHERE u.id IN (
            SELECT user_id FROM (
                SELECT user_id, CASE WHEN is_read THEN 0 ELSE 1 END AS x FROM new_rows
                UNION ALL
                SELECT user_id, CASE WHEN is_read THEN 0 ELSE -1 END FROM old_rows) m
            GROUP BY user_id HAVING sum(x) <> 0)
        ORDER BY u.id FOR NO KEY UPDATE;
    UPDATE users u SET unread_notifications = u.unread_notifications + d.n
    FROM (SELECT user_id, sum(x) AS n FROM (
            SELECT user_id, CASE WHEN is_read THEN 0 ELSE 1 END AS x FROM new_rows
            UNION ALL
            SELECT user_id, CASE WHEN is_read THEN 0 ELSE -1 END FROM old_rows) m
          GROUP BY user_id HAVING sum(x) <> 0) d
    WHERE u.id = d.user_id;
    RETURN NULL;
END $$;
