-- Every node caches who may read a group's posts (app.Gates): a change of a
-- membership row, of a group's visibility, or a group's deletion is sent on
-- the safety channel at commit so the caches forget it. Identical payloads
-- of one transaction arrive once.
CREATE FUNCTION group_members_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    r record;
BEGIN
    IF TG_OP = 'DELETE' THEN
        r := OLD;
    ELSE
        r := NEW;
    END IF;
    PERFORM pg_notify('campus_block', 'member-changed:' || r.group_id || ':' || r.user_id);
    RETURN NULL;
END
$$;
CREATE TRIGGER group_members_notify AFTER INSERT OR UPDATE OR DELETE ON group_members
    FOR EACH ROW EXECUTE FUNCTION group_members_notify();

CREATE FUNCTION groups_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('campus_block', 'group-changed:' || OLD.id);
    RETURN NULL;
END
$$;
CREATE TRIGGER groups_visibility_notify AFTER UPDATE OF visibility ON groups
    FOR EACH ROW WHEN (OLD.visibility IS DISTINCT FROM NEW.visibility) EXECUTE FUNCTION groups_notify();
CREATE TRIGGER groups_delete_notify AFTER DELETE ON groups
    FOR EACH ROW EXECUTE FUNCTION groups_notify();
