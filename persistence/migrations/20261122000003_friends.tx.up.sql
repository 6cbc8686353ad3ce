-- Friends: at most one pending request per pair of people, whichever way it
-- points, so two people asking each other at once can never leave two
-- crossing requests. Crossing requests made before this index (none are
-- expected) keep only the older one.
UPDATE friend_requests f SET status = 'cancelled', updated_at = now()
WHERE f.status = 'pending' AND EXISTS (
    SELECT 1 FROM friend_requests g
    WHERE g.status = 'pending' AND g.sender_id = f.receiver_id AND g.receiver_id = f.sender_id
      AND (g.created_at, g.id) < (f.created_at, f.id));

CREATE UNIQUE INDEX friend_requests_pending_pair_key
    ON friend_requests (least(sender_id, receiver_id), greatest(sender_id, receiver_id))
    WHERE status = 'pending';

-- A request's notification is found by (recipient, sender) when the request
-- is declined, cancelled or accepted.
CREATE INDEX notifications_friend_request_idx ON notifications (user_id, sender_id) WHERE type = 'friend_request';
