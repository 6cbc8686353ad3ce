DROP TRIGGER IF EXISTS notifications_unread_update ON notifications;
DROP TRIGGER IF EXISTS notifications_unread_delete ON notifications;
DROP TRIGGER IF EXISTS notifications_unread_insert ON notifications;
DROP FUNCTION IF EXISTS notifications_unread_update();
DROP FUNCTION IF EXISTS notifications_unread_delete();
DROP FUNCTION IF EXISTS notifications_unread_insert();
ALTER TABLE users DROP COLUMN IF EXISTS unread_notifications;
