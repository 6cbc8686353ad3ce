DROP INDEX notifications_repost_rollup_key;
DELETE FROM notifications WHERE type = 'repost';
DO $$
DECLARE def text;
BEGIN
    SELECT pg_get_constraintdef(oid) INTO def FROM pg_constraint
    WHERE conname = 'notifications_type_check' AND conrelid = 'notifications'::regclass;
    IF def IS NULL OR position('''repost''' IN def) = 0 THEN
        RETURN;
    END IF;
    EXECUTE 'ALTER TABLE notifications DROP CONSTRAINT notifications_type_check';
    EXECUTE 'ALTER TABLE notifications ADD CONSTRAINT notifications_type_check '
        || replace(def, ', ''repost''::text', '');
END $$;
DELETE FROM posts WHERE repost_of IS NOT NULL;
DROP INDEX posts_reposts_by_user_idx;
DROP INDEX posts_repost_key;
ALTER TABLE posts DROP CONSTRAINT posts_repost_outside_groups,
    DROP COLUMN reposts_count, DROP COLUMN repost_of;
DROP TABLE post_bookmarks;
