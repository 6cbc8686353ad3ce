-- University sign-in (issue 28). An identity at a university's identity
-- provider (OIDC issuer + sub, or SAML entity + principal) belongs to at
-- most one account; an account may have several. The id names a row in the
-- API (the provider's key is a URL and the subject is the provider's).
CREATE TABLE user_identities (
    provider text NOT NULL,
    subject text NOT NULL,
    id uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    email text NOT NULL,
    linked_at timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (provider, subject)
);
CREATE INDEX user_identities_user_id_idx ON user_identities (user_id);

-- A sign-in under way: what the callback needs (the nonce, the PKCE
-- verifier, the SAML request id) kept here rather than in the browser, so
-- any node can finish it and it is used once (deleted as it is read). Keyed
-- by the state's hash; binding_hash is the hash of a cookie of the browser
-- that started it, checked when the sign-in is redeemed.
CREATE TABLE sso_flows (
    state_hash bytea PRIMARY KEY,
    provider text NOT NULL,
    binding_hash bytea NOT NULL,
    nonce text NOT NULL DEFAULT '',
    verifier text NOT NULL DEFAULT '',
    request_id text NOT NULL DEFAULT '',
    return_to text NOT NULL,
    link_user_id uuid REFERENCES users (id) ON DELETE CASCADE,
    expires_at timestamptz NOT NULL
);
CREATE INDEX sso_flows_expires_at_idx ON sso_flows (expires_at);

-- A finished sign-in waiting for the browser to redeem it (kind signin), or
-- an identity waiting for proof that its person owns the account with its
-- address (kind link). Single use, short-lived, bound to the browser.
CREATE TABLE sso_tickets (
    ticket_hash bytea PRIMARY KEY,
    kind text NOT NULL CHECK (kind IN ('signin', 'link')),
    binding_hash bytea NOT NULL,
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    identity jsonb NOT NULL,
    return_to text NOT NULL,
    expires_at timestamptz NOT NULL
);
CREATE INDEX sso_tickets_expires_at_idx ON sso_tickets (expires_at);

-- SAML assertion ids seen, until they expire: an assertion is accepted once.
CREATE TABLE sso_replay (
    assertion_id text PRIMARY KEY,
    expires_at timestamptz NOT NULL
);
CREATE INDEX sso_replay_expires_at_idx ON sso_replay (expires_at);

-- A code proves the address of an account a university sign-in links to.
ALTER TABLE otp_codes DROP CONSTRAINT otp_codes_purpose_check;
ALTER TABLE otp_codes ADD CONSTRAINT otp_codes_purpose_check
    CHECK (purpose IN ('signup', 'reset', 'email_change', 'password_change', 'delete_account', 'link_sign_in'));
