-- Web Push for messages (issue 29): a member with no socket open is pushed
-- a new message, coalesced per conversation and device. One push_outbox row
-- per (device, conversation) stands for "this conversation has news for this
-- device": each new message moves its wanted_seq instead of queueing another
-- row, and the sender composes what the lock screen shows ("3 new messages
-- from Asha") from the conversation at send time, so an unsent or read
-- message is never pushed.
ALTER TABLE push_outbox ALTER COLUMN notification_id DROP NOT NULL;
ALTER TABLE push_outbox ADD COLUMN conversation_id uuid REFERENCES conversations (id) ON DELETE CASCADE;
-- The newest message the row stands for, and the newest a push in flight
-- covers (set when a sender takes the row): a row whose wanted_seq moved
-- past sending_seq while its push was out is sent again.
ALTER TABLE push_outbox ADD COLUMN wanted_seq bigint;
ALTER TABLE push_outbox ADD COLUMN sending_seq bigint;
ALTER TABLE push_outbox ADD CONSTRAINT push_outbox_subject_check
    CHECK ((notification_id IS NULL) <> (conversation_id IS NULL));
ALTER TABLE push_outbox ADD CONSTRAINT push_outbox_wanted_seq_check
    CHECK ((conversation_id IS NULL) = (wanted_seq IS NULL));
CREATE UNIQUE INDEX push_outbox_conversation_key ON push_outbox (subscription_id, conversation_id)
    WHERE conversation_id IS NOT NULL;
CREATE INDEX push_outbox_conversation_id_idx ON push_outbox (conversation_id)
    WHERE conversation_id IS NOT NULL;

-- Queues (or moves) a push per subscribed device of every member of the new
-- messages' conversations but their senders, muted members and those who
-- left, and wakes the senders (the NOTIFY is delivered on commit). A
-- statement trigger: the writer inserts a conversation's batch in one
-- statement, which costs one pass here. A sender holds a row's lock only
-- for the moment it takes it (never while the push service answers), so the
-- update below never waits on a push service.
CREATE FUNCTION push_outbox_enqueue_messages() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO push_outbox (id, conversation_id, subscription_id, wanted_seq)
    SELECT gen_random_uuid(), n.conversation_id, s.id, max(n.seq)
    FROM new_messages n
    JOIN conversation_members m ON m.conversation_id = n.conversation_id AND m.left_seq IS NULL
        AND NOT m.muted AND m.user_id IS DISTINCT FROM n.sender_id AND n.seq > m.joined_seq
    JOIN push_subscriptions s ON s.user_id = m.user_id
    GROUP BY n.conversation_id, s.id
    ON CONFLICT (subscription_id, conversation_id) WHERE conversation_id IS NOT NULL
    DO UPDATE SET wanted_seq = greatest(push_outbox.wanted_seq, EXCLUDED.wanted_seq),
        expires_at = EXCLUDED.expires_at;
    IF FOUND THEN
        PERFORM pg_notify('push_outbox', '');
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER push_outbox_enqueue_messages AFTER INSERT ON messages
    REFERENCING NEW TABLE AS new_messages
    FOR EACH STATEMENT EXECUTE FUNCTION push_outbox_enqueue_messages();
