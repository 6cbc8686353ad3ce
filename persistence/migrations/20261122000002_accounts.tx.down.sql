DROP INDEX IF EXISTS otp_codes_user_purpose_idx;
ALTER TABLE users DROP COLUMN IF EXISTS otp_failed_at;
DROP TABLE IF EXISTS app_secrets;
