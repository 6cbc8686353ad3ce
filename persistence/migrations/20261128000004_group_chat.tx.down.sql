DELETE FROM conversations WHERE group_id IS NOT NULL;
DROP INDEX conversations_group_id_key;
ALTER TABLE conversations DROP CONSTRAINT conversations_closed_check;
ALTER TABLE conversations DROP CONSTRAINT conversations_group_chat_check;
ALTER TABLE conversations DROP COLUMN closed_at;
ALTER TABLE conversations DROP COLUMN group_id;
