-- Profile likes notify (issue 16): one `profile_like` notification per
-- person, rolled up like post likes (20261124000002_rollup): updated in place
-- with the newest likers in actor_ids and how many like the profile in
-- actor_count, rather than a row per like.
ALTER TABLE notifications DROP CONSTRAINT notifications_type_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_type_check
    CHECK (type IN ('friend_request', 'friend_accepted', 'like', 'comment', 'other', 'moderation',
        'group_join_request', 'group_join_approved', 'group_invitation', 'group_post', 'profile_like'));
CREATE UNIQUE INDEX notifications_profile_like_rollup_key ON notifications (user_id) WHERE type = 'profile_like';
