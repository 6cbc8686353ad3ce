DELETE FROM search_outbox WHERE entity = 'group';
ALTER TABLE search_outbox DROP CONSTRAINT search_outbox_entity_check;
ALTER TABLE search_outbox ADD CONSTRAINT search_outbox_entity_check
    CHECK (entity IN ('user', 'post', 'comment'));
DELETE FROM notifications WHERE type LIKE 'group\_%';
ALTER TABLE notifications DROP CONSTRAINT notifications_type_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_type_check
    CHECK (type IN ('friend_request', 'friend_accepted', 'like', 'comment', 'other', 'moderation'));
ALTER TABLE notifications DROP COLUMN group_id;
DROP INDEX post_likes_recent_idx;
ALTER TABLE groups DROP CONSTRAINT groups_pinned_post_fkey;
DELETE FROM posts WHERE group_id IS NOT NULL;
ALTER TABLE posts DROP COLUMN group_id;
DROP TABLE group_members;
DROP TABLE groups;
