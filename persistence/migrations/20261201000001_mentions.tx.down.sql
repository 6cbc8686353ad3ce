DROP TRIGGER comments_keep_mention_rollups ON comments;
DROP FUNCTION comments_keep_mention_rollups();
DELETE FROM notifications WHERE type = 'mention';
DROP INDEX notifications_mention_rollup_key;
ALTER TABLE notifications DROP CONSTRAINT notifications_type_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_type_check
    CHECK (type IN ('friend_request', 'friend_accepted', 'like', 'comment', 'other', 'moderation',
        'group_join_request', 'group_join_approved', 'group_invitation', 'group_post', 'profile_like'));
DROP TABLE mentions;
DROP INDEX users_name_words_idx;
DROP TRIGGER users_handle ON users;
DROP FUNCTION users_handle();
ALTER TABLE users DROP COLUMN handle;
DROP FUNCTION user_handle_for(text, uuid);
DROP FUNCTION user_handle_base(text);
