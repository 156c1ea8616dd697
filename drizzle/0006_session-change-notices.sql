-- Every change to a session or a user is announced on "pathshala_sessions", so that instances
-- keeping checked sessions in memory (server/auth/session-cache.ts) drop them, whichever code
-- path, instance or tool made the change. Statement triggers name each changed row, or say "*"
-- when a statement changed too many rows to name (or truncated the table).
CREATE FUNCTION "announce_session_changes"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed_id text;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify('pathshala_sessions', '*');
    RETURN NULL;
  END IF;
  IF (SELECT count(*) FROM "changed") > 1000 THEN
    PERFORM pg_notify('pathshala_sessions', '*');
    RETURN NULL;
  END IF;
  FOR changed_id IN SELECT DISTINCT "id"::text FROM "changed" LOOP
    PERFORM pg_notify('pathshala_sessions', TG_ARGV[0] || changed_id);
  END LOOP;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "sessions_announce_updates" AFTER UPDATE ON "sessions" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_session_changes"('s:');--> statement-breakpoint
CREATE TRIGGER "sessions_announce_deletes" AFTER DELETE ON "sessions" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_session_changes"('s:');--> statement-breakpoint
CREATE TRIGGER "sessions_announce_truncate" AFTER TRUNCATE ON "sessions" FOR EACH STATEMENT EXECUTE FUNCTION "announce_session_changes"('s:');--> statement-breakpoint
CREATE TRIGGER "users_announce_updates" AFTER UPDATE ON "users" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_session_changes"('u:');--> statement-breakpoint
CREATE TRIGGER "users_announce_deletes" AFTER DELETE ON "users" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_session_changes"('u:');--> statement-breakpoint
CREATE TRIGGER "users_announce_truncate" AFTER TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "announce_session_changes"('u:');
