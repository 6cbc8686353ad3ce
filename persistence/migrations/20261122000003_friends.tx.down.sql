DROP INDEX IF EXISTS notifications_friend_request_idx;
DROP INDEX IF EXISTS friend_requests_pending_pair_key;
