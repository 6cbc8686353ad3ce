-- Accounts: the cluster-wide signing secret, and the time of the last wrong
-- code so the per-account failure counter can expire.
CREATE TABLE app_secrets (
    name       text PRIMARY KEY,
    value      bytea NOT NULL CHECK (octet_length(value) >= 32),
    created_at timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE users ADD COLUMN otp_failed_at timestamptz;

-- Codes are looked up per account and purpose.
CREATE INDEX otp_codes_user_purpose_idx ON otp_codes (user_id, purpose, created_at DESC);
