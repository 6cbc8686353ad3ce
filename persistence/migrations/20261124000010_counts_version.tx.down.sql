ALTER TABLE posts DROP COLUMN counts_version;
