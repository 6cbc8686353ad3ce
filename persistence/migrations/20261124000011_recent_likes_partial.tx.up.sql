-- post_likes_recent_idx (post_id, created_at) serves the big screen's
-- "likes in the last minutes" only, but the planner also took it for the
-- like statement's (post_id, user_id) lookups whenever the statistics said
-- the post had a like or two (a post that turns hot after the last
-- analyze): it then read every entry of the hot post, dead ones included,
-- for each batch, instead of one primary-key probe per liker. As a partial
-- index whose predicate only a created_at condition implies, it is out of
-- those plans for good and still serves the window count (created_at > …
-- implies created_at IS NOT NULL).
DROP INDEX post_likes_recent_idx;
CREATE INDEX post_likes_recent_idx ON post_likes (post_id, created_at) WHERE created_at IS NOT NULL;
