DROP TABLE IF EXISTS mail_outbox;
DROP FUNCTION IF EXISTS mail_outbox_notify();
