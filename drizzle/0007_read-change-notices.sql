-- Every change to what the signed-in reads show is announced on "pathshala_reads", so that
-- instances keeping those reads in memory (server/db/read-cache.ts) drop them, whichever code
-- path, instance or tool made the change. Each changed row is named by tags ("content:<id>",
-- "creator:<id>", "student:<id>", "center:<id>"), a change to the role counts by "roles", and
-- "*" says a statement changed too many rows to name, or truncated the table.
--
-- One function announces for both channels, so the session triggers of 0006 move to it:
-- announce_changes(channel, prefix, column[, prefix, column…]) names each changed row by
-- prefix || its column, once per distinct tag; announce_changes(channel, tag), on a trigger
-- without a transition table, announces that one tag.
CREATE FUNCTION "announce_changes"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  channel text := TG_ARGV[0];
  tag text;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify(channel, '*');
  ELSIF TG_NARGS = 2 THEN
    PERFORM pg_notify(channel, TG_ARGV[1]);
  ELSIF (SELECT count(*) FROM "changed") > 1000 THEN
    PERFORM pg_notify(channel, '*');
  ELSE
    FOR tag IN
      SELECT DISTINCT TG_ARGV[i] || (to_jsonb(changed_row) ->> TG_ARGV[i + 1])
      FROM "changed" AS changed_row, generate_series(1, TG_NARGS - 2, 2) AS i
    LOOP
      PERFORM pg_notify(channel, tag);
    END LOOP;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE TRIGGER "sessions_announce_updates" AFTER UPDATE ON "sessions" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_sessions', 's:', 'id');--> statement-breakpoint
CREATE OR REPLACE TRIGGER "sessions_announce_deletes" AFTER DELETE ON "sessions" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_sessions', 's:', 'id');--> statement-breakpoint
CREATE OR REPLACE TRIGGER "sessions_announce_truncate" AFTER TRUNCATE ON "sessions" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_sessions');--> statement-breakpoint
CREATE OR REPLACE TRIGGER "users_announce_updates" AFTER UPDATE ON "users" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_sessions', 'u:', 'id');--> statement-breakpoint
CREATE OR REPLACE TRIGGER "users_announce_deletes" AFTER DELETE ON "users" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_sessions', 'u:', 'id');--> statement-breakpoint
CREATE OR REPLACE TRIGGER "users_announce_truncate" AFTER TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_sessions');--> statement-breakpoint
DROP FUNCTION "announce_session_changes"();--> statement-breakpoint
-- An update is announced by its rows before and after (a content moved to another creator).
CREATE TRIGGER "contents_announce_inserts" AFTER INSERT ON "contents" REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_reads', 'content:', 'id', 'creator:', 'creator_id');--> statement-breakpoint
CREATE TRIGGER "contents_announce_updates_old" AFTER UPDATE ON "contents" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_reads', 'content:', 'id', 'creator:', 'creator_id');--> statement-breakpoint
CREATE TRIGGER "contents_announce_updates_new" AFTER UPDATE ON "contents" REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_reads', 'content:', 'id', 'creator:', 'creator_id');--> statement-breakpoint
CREATE TRIGGER "contents_announce_deletes" AFTER DELETE ON "contents" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_reads', 'content:', 'id', 'creator:', 'creator_id');--> statement-breakpoint
CREATE TRIGGER "contents_announce_truncate" AFTER TRUNCATE ON "contents" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_reads');--> statement-breakpoint
CREATE TRIGGER "enrollments_announce_inserts" AFTER INSERT ON "enrollments" REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_reads', 'student:', 'student_id');--> statement-breakpoint
CREATE TRIGGER "enrollments_announce_updates" AFTER UPDATE ON "enrollments" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_reads', 'student:', 'student_id');--> statement-breakpoint
CREATE TRIGGER "enrollments_announce_deletes" AFTER DELETE ON "enrollments" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_reads', 'student:', 'student_id');--> statement-breakpoint
CREATE TRIGGER "enrollments_announce_truncate" AFTER TRUNCATE ON "enrollments" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_reads');--> statement-breakpoint
CREATE TRIGGER "centers_announce_updates" AFTER UPDATE ON "centers" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_reads', 'center:', 'id');--> statement-breakpoint
CREATE TRIGGER "centers_announce_deletes" AFTER DELETE ON "centers" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_reads', 'center:', 'id');--> statement-breakpoint
CREATE TRIGGER "centers_announce_truncate" AFTER TRUNCATE ON "centers" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_reads');--> statement-breakpoint
CREATE TRIGGER "user_role_counts_announce" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "user_role_counts" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_reads', 'roles');
