DELETE FROM notifications WHERE type = 'profile_like';
DROP INDEX notifications_profile_like_rollup_key;
ALTER TABLE notifications DROP CONSTRAINT notifications_type_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_type_check
    CHECK (type IN ('friend_request', 'friend_accepted', 'like', 'comment', 'other', 'moderation',
        'group_join_request', 'group_join_approved', 'group_invitation', 'group_post'));
