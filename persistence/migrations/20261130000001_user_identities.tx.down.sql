DELETE FROM otp_codes WHERE purpose = 'link_sign_in';
ALTER TABLE otp_codes DROP CONSTRAINT otp_codes_purpose_check;
ALTER TABLE otp_codes ADD CONSTRAINT otp_codes_purpose_check
    CHECK (purpose IN ('signup', 'reset', 'email_change', 'password_change', 'delete_account'));
DROP TABLE sso_replay;
DROP TABLE sso_tickets;
DROP TABLE sso_flows;
DROP TABLE user_identities;
