-- Back to one like row per liker is not recoverable (the roll-ups kept only
-- their newest likers); the down migration restores the old shape with the
-- newest liker as each roll-up's sender.
CREATE OR REPLACE FUNCTION notifications_unread_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM users u WHERE u.id IN (SELECT user_id FROM new_rows UNION SELECT user_id FROM old_rows)
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
DROP INDEX IF EXISTS notifications_user_idx;
CREATE INDEX notifications_user_idx ON notifications (user_id, created_at DESC, id DESC);
DROP INDEX IF EXISTS notifications_like_rollup_key;
UPDATE notifications SET sender_id = actor_ids[1] WHERE type = 'like' AND sender_id IS NULL;
DELETE FROM notifications WHERE type = 'like' AND sender_id IS NULL;
CREATE UNIQUE INDEX notifications_like_key ON notifications (user_id, sender_id, post_id) WHERE type = 'like';
ALTER TABLE notifications DROP COLUMN IF EXISTS actor_count, DROP COLUMN IF EXISTS actor_ids, DROP COLUMN IF EXISTS updated_at;
