DROP INDEX post_likes_recent_idx;
CREATE INDEX post_likes_recent_idx ON post_likes (post_id, created_at);
