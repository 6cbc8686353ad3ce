-- A group's chat (issue 29 with issue 18's groups): a group conversation
-- tied to a group, whose members are the group's members (its admins the
-- group's owner and admins), kept in step in the transaction of every
-- membership change. Switching it off closes it (closed_at): everyone
-- leaves, keeping the history up to then; switching it on again reopens the
-- same conversation. Deleting the group deletes it.
ALTER TABLE conversations ADD COLUMN group_id uuid REFERENCES groups (id) ON DELETE CASCADE;
ALTER TABLE conversations ADD COLUMN closed_at timestamptz;
ALTER TABLE conversations ADD CONSTRAINT conversations_group_chat_check CHECK (group_id IS NULL OR kind = 'group');
ALTER TABLE conversations ADD CONSTRAINT conversations_closed_check CHECK (closed_at IS NULL OR group_id IS NOT NULL);
CREATE UNIQUE INDEX conversations_group_id_key ON conversations (group_id) WHERE group_id IS NOT NULL;
