DROP TRIGGER IF EXISTS push_outbox_enqueue ON notifications;
DROP FUNCTION IF EXISTS push_outbox_enqueue();
DROP TABLE IF EXISTS push_outbox;
DROP TABLE IF EXISTS push_subscriptions;
