-- Each user's unread notification count, kept on the user's row by triggers
-- on notifications, so that every path moves it: inserts, marking read,
-- deletes and the cascades of deleting a post or an account. Counting the
-- unread rows for every new notification read all of them, and a popular
-- author at a campus event has thousands.
ALTER TABLE users ADD COLUMN unread_notifications integer NOT NULL DEFAULT 0;

UPDATE users u SET unread_notifications = c.n
FROM (SELECT user_id, count(*) AS n FROM notifications WHERE NOT is_read GROUP BY user_id) c
WHERE u.id = c.user_id;

-- Each function locks the users rows it moves in id order first, so that
-- two statements moving several users' counters (the cascades of deleting
-- accounts) cannot deadlock; then it moves each by its change.
CREATE FUNCTION notifications_unread_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM users u WHERE u.id IN (SELECT user_id FROM new_rows WHERE NOT is_read)
        ORDER BY u.id FOR NO KEY UPDATE;
    UPDATE users u SET unread_notifications = u.unread_notifications + d.n
    FROM (SELECT user_id, count(*) AS n FROM new_rows WHERE NOT is_read GROUP BY user_id) d
    WHERE u.id = d.user_id;
    RETURN NULL;
END $$;

CREATE FUNCTION notifications_unread_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM users u WHERE u.id IN (SELECT user_id FROM old_rows WHERE NOT is_read)
        ORDER BY u.id FOR NO KEY UPDATE;
    UPDATE users u SET unread_notifications = u.unread_notifications - d.n
    FROM (SELECT user_id, count(*) AS n FROM old_rows WHERE NOT is_read GROUP BY user_id) d
    WHERE u.id = d.user_id;
    RETURN NULL;
END $$;

CREATE FUNCTION notifications_unread_update() RETURNS trigger LANGUAGE plpgsql AS $$
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

CREATE TRIGGER notifications_unread_insert AFTER INSERT ON notifications
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION notifications_unread_insert();
CREATE TRIGGER notifications_unread_delete AFTER DELETE ON notifications
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION notifications_unread_delete();
CREATE TRIGGER notifications_unread_update AFTER UPDATE ON notifications
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION notifications_unread_update();
