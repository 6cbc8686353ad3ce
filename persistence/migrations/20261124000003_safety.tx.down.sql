DELETE FROM notifications WHERE type = 'moderation';
ALTER TABLE notifications DROP CONSTRAINT notifications_type_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_type_check
    CHECK (type IN ('friend_request', 'friend_accepted', 'like', 'comment', 'other'));
ALTER TABLE notifications DROP COLUMN note;
DROP TABLE moderation_audit;
DROP TABLE reports;
ALTER TABLE comments DROP COLUMN removed_at;
ALTER TABLE posts DROP COLUMN removed_at;
DROP TABLE account_suspensions;
DROP TABLE account_capabilities;
DROP TABLE user_mutes;
DROP TABLE user_blocks;
