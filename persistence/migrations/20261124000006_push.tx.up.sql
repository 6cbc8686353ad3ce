-- Web Push (issue 16). One row per device that turned push on: the browser's
-- push service endpoint and the keys its payloads are encrypted to (RFC 8291).
-- The endpoint is unique: a device signed in to another account moves its
-- subscription there instead of receiving both accounts' notifications.
CREATE TABLE push_subscriptions (
    id         uuid PRIMARY KEY,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    endpoint   text NOT NULL UNIQUE CHECK (length(endpoint) <= 2048),
    -- base64url of the browser's P-256 public key (65 bytes) and of its
    -- 16-byte authentication secret.
    p256dh     text NOT NULL,
    auth       text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX push_subscriptions_user_id_idx ON push_subscriptions (user_id);

-- Pushes waiting for delivery: one row per new notification and subscribed
-- device of its recipient, written by the trigger below in the transaction
-- that creates the notification, whichever use case created it. Senders on
-- every node claim rows with FOR UPDATE SKIP LOCKED, skip (delete) those
-- whose user has a socket open on some node (the notification reached them
-- live), send the rest and delete them; failures are retried until
-- expires_at. A deleted notification or subscription takes its rows along.
CREATE TABLE push_outbox (
    id              uuid PRIMARY KEY,
    notification_id uuid NOT NULL REFERENCES notifications (id) ON DELETE CASCADE,
    subscription_id uuid NOT NULL REFERENCES push_subscriptions (id) ON DELETE CASCADE,
    attempts        integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    -- A notification pushed hours late is noise: give up after an hour.
    expires_at      timestamptz NOT NULL DEFAULT now() + interval '1 hour',
    created_at      timestamptz NOT NULL DEFAULT now(),
    UNIQUE (notification_id, subscription_id)
);
CREATE INDEX push_outbox_due_idx ON push_outbox (next_attempt_at, created_at);
CREATE INDEX push_outbox_subscription_id_idx ON push_outbox (subscription_id);

-- Queues a push per subscribed device of the new notification's recipient
-- and wakes the senders (the NOTIFY is delivered on commit). Users without a
-- subscription cost one index lookup.
CREATE FUNCTION push_outbox_enqueue() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO push_outbox (id, notification_id, subscription_id)
    SELECT gen_random_uuid(), NEW.id, s.id FROM push_subscriptions s WHERE s.user_id = NEW.user_id
    ON CONFLICT DO NOTHING;
    IF FOUND THEN
        PERFORM pg_notify('push_outbox', '');
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER push_outbox_enqueue AFTER INSERT ON notifications
    FOR EACH ROW EXECUTE FUNCTION push_outbox_enqueue();
