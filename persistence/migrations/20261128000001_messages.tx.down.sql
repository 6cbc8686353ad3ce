DELETE FROM reports WHERE item_type = 'message';
ALTER TABLE reports DROP COLUMN snapshot;
ALTER TABLE reports DROP CONSTRAINT reports_item_type_check;
ALTER TABLE reports ADD CONSTRAINT reports_item_type_check
    CHECK (item_type IN ('post', 'comment', 'profile'));
DROP TABLE message_settings;
DROP TABLE message_reactions;
DROP TABLE messages;
DROP TABLE conversation_members;
DROP TABLE conversations;
