-- Mail waiting for delivery, written in the same transaction as the code or
-- the change it announces, so a committed signup always has its mail and a
-- rolled-back one never does. Senders on every node claim rows with
-- FOR UPDATE SKIP LOCKED and delete them once the SMTP server has accepted
-- them. The body carries a live code, as sensitive as the hash in otp_codes:
-- a row lives only until it is delivered or no longer useful (expires_at, or
-- its code retired by a newer one or used), never longer.
CREATE TABLE mail_outbox (
    id              uuid PRIMARY KEY,
    -- What the mail is for (a code purpose or a notice): for logs only.
    kind            text NOT NULL,
    -- The account it belongs to; its mail goes with a deleted account.
    user_id         uuid REFERENCES users (id) ON DELETE CASCADE,
    -- The code it carries, if any; retired codes are not worth sending.
    code_id         uuid REFERENCES otp_codes (id) ON DELETE CASCADE,
    recipient       text NOT NULL,
    subject         text NOT NULL,
    text_body       text NOT NULL,
    html_body       text NOT NULL DEFAULT '',
    attempts        integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    expires_at      timestamptz NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mail_outbox_due_idx ON mail_outbox (next_attempt_at, created_at);
CREATE INDEX mail_outbox_code_id_idx ON mail_outbox (code_id) WHERE code_id IS NOT NULL;
CREATE INDEX mail_outbox_user_id_idx ON mail_outbox (user_id) WHERE user_id IS NOT NULL;

-- Wakes the senders of every node once per inserting statement (delivered
-- on commit, so never for a rolled-back row).
CREATE FUNCTION mail_outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('mail_outbox', '');
    RETURN NULL;
END
$$;
CREATE TRIGGER mail_outbox_notify AFTER INSERT ON mail_outbox
    FOR EACH STATEMENT EXECUTE FUNCTION mail_outbox_notify();
