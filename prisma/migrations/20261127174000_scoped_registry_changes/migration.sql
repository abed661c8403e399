-- A change to agents or units says which ones it touched, so each process drops only the cached
-- answers that depend on them (docs/design/effective-tools.md#caching). The payload is a JSON array
-- of subjects: `Agent:<id>` for an agent row, `Unit:<namespace>/<name>` for a unit row (agents and
-- units name their unit, so a unit is known by its name, before and after the change). Any other
-- payload (the other registry tables' revision number, a TRUNCATE, a statement too large for one
-- NOTIFY) means everyone. Old and new rows both count: an agent leaving a unit, a unit renamed.
CREATE FUNCTION toolroom_registry_subjects_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  subjects jsonb;
  payload text;
BEGIN
  IF TG_TABLE_NAME = 'Agent' THEN
    IF TG_OP = 'INSERT' THEN
      SELECT jsonb_agg(DISTINCT 'Agent:' || id) INTO subjects FROM new_rows;
    ELSIF TG_OP = 'DELETE' THEN
      SELECT jsonb_agg(DISTINCT 'Agent:' || id) INTO subjects FROM old_rows;
    ELSE
      SELECT jsonb_agg(DISTINCT 'Agent:' || id) INTO subjects FROM (SELECT id FROM old_rows UNION SELECT id FROM new_rows) AS touched;
    END IF;
  ELSE
    IF TG_OP = 'INSERT' THEN
      SELECT jsonb_agg(DISTINCT 'Unit:' || namespace || '/' || name) INTO subjects FROM new_rows;
    ELSIF TG_OP = 'DELETE' THEN
      SELECT jsonb_agg(DISTINCT 'Unit:' || namespace || '/' || name) INTO subjects FROM old_rows;
    ELSE
      SELECT jsonb_agg(DISTINCT 'Unit:' || namespace || '/' || name) INTO subjects
        FROM (SELECT namespace, name FROM old_rows UNION SELECT namespace, name FROM new_rows) AS touched;
    END IF;
  END IF;
  -- A statement that touched nothing changed nothing.
  IF subjects IS NULL THEN RETURN NULL; END IF;
  payload := subjects::text;
  -- NOTIFY payloads stop at 8000 bytes: a statement touching more subjects than fit touches everyone.
  IF octet_length(payload) > 7900 THEN payload := nextval('registry_revision')::text; END IF;
  PERFORM pg_notify('toolroom_registry', payload);
  RETURN NULL;
END $$;

DROP TRIGGER "Agent_registry_changed" ON "Agent";
DROP TRIGGER "Unit_registry_changed" ON "Unit";

CREATE TRIGGER "Agent_registry_inserted" AFTER INSERT ON "Agent" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION toolroom_registry_subjects_changed();
CREATE TRIGGER "Agent_registry_updated" AFTER UPDATE ON "Agent" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION toolroom_registry_subjects_changed();
CREATE TRIGGER "Agent_registry_deleted" AFTER DELETE ON "Agent" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION toolroom_registry_subjects_changed();
CREATE TRIGGER "Agent_registry_truncated" AFTER TRUNCATE ON "Agent" FOR EACH STATEMENT EXECUTE FUNCTION toolroom_registry_changed();

CREATE TRIGGER "Unit_registry_inserted" AFTER INSERT ON "Unit" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION toolroom_registry_subjects_changed();
CREATE TRIGGER "Unit_registry_updated" AFTER UPDATE ON "Unit" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION toolroom_registry_subjects_changed();
CREATE TRIGGER "Unit_registry_deleted" AFTER DELETE ON "Unit" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION toolroom_registry_subjects_changed();
CREATE TRIGGER "Unit_registry_truncated" AFTER TRUNCATE ON "Unit" FOR EACH STATEMENT EXECUTE FUNCTION toolroom_registry_changed();
