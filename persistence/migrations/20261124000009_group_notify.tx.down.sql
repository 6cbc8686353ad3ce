DROP TRIGGER IF EXISTS groups_delete_notify ON groups;
DROP TRIGGER IF EXISTS groups_visibility_notify ON groups;
DROP FUNCTION IF EXISTS groups_notify();
DROP TRIGGER IF EXISTS group_members_notify ON group_members;
DROP FUNCTION IF EXISTS group_members_notify();
