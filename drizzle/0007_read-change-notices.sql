-- Every change to what the signed-in reads show is announced on "pathshala_reads", so that
-- instances keeping those reads in memory (server/db/read-cache.ts) drop them, whichever code
-- path, instance or tool made the change. Each changed row is named by tags ("content:<id>",
-- "creator:<id>", "student:<id>", "center:<id>", "roles"); "*" when a statement changed too many
-- rows to name, or truncated the table.
CREATE FUNCTION "announce_read_changes"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tag text;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify('pathshala_reads', '*');
    RETURN NULL;
  END IF;
  IF TG_TABLE_NAME = 'user_role_counts' THEN
    PERFORM pg_notify('pathshala_reads', 'roles');
    RETURN NULL;
  END IF;
  IF (SELECT count(*) FROM "changed") > 1000 THEN
    PERFORM pg_notify('pathshala_reads', '*');
    RETURN NULL;
  END IF;
  IF TG_TABLE_NAME = 'contents' THEN
    FOR tag IN SELECT 'content:' || "id" FROM "changed" UNION SELECT 'creator:' || "creator_id" FROM "changed" LOOP
      PERFORM pg_notify('pathshala_reads', tag);
    END LOOP;
  ELSIF TG_TABLE_NAME = 'enrollments' THEN
    FOR tag IN SELECT DISTINCT 'student:' || "student_id" FROM "changed" LOOP
      PERFORM pg_notify('pathshala_reads', tag);
    END LOOP;
  ELSIF TG_TABLE_NAME = 'centers' THEN
    FOR tag IN SELECT DISTINCT 'center:' || "id" FROM "changed" LOOP
      PERFORM pg_notify('pathshala_reads', tag);
    END LOOP;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- An update is announced by its rows before and after (a content moved to another creator).
CREATE TRIGGER "contents_announce_inserts" AFTER INSERT ON "contents" REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_read_changes"();--> statement-breakpoint
CREATE TRIGGER "contents_announce_updates_old" AFTER UPDATE ON "contents" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_read_changes"();--> statement-breakpoint
CREATE TRIGGER "contents_announce_updates_new" AFTER UPDATE ON "contents" REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_read_changes"();--> statement-breakpoint
CREATE TRIGGER "contents_announce_deletes" AFTER DELETE ON "contents" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_read_changes"();--> statement-breakpoint
CREATE TRIGGER "contents_announce_truncate" AFTER TRUNCATE ON "contents" FOR EACH STATEMENT EXECUTE FUNCTION "announce_read_changes"();--> statement-breakpoint
CREATE TRIGGER "enrollments_announce_inserts" AFTER INSERT ON "enrollments" REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_read_changes"();--> statement-breakpoint
CREATE TRIGGER "enrollments_announce_updates" AFTER UPDATE ON "enrollments" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_read_changes"();--> statement-breakpoint
CREATE TRIGGER "enrollments_announce_deletes" AFTER DELETE ON "enrollments" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_read_changes"();--> statement-breakpoint
CREATE TRIGGER "enrollments_announce_truncate" AFTER TRUNCATE ON "enrollments" FOR EACH STATEMENT EXECUTE FUNCTION "announce_read_changes"();--> statement-breakpoint
CREATE TRIGGER "centers_announce_updates" AFTER UPDATE ON "centers" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_read_changes"();--> statement-breakpoint
CREATE TRIGGER "centers_announce_deletes" AFTER DELETE ON "centers" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_read_changes"();--> statement-breakpoint
CREATE TRIGGER "centers_announce_truncate" AFTER TRUNCATE ON "centers" FOR EACH STATEMENT EXECUTE FUNCTION "announce_read_changes"();--> statement-breakpoint
CREATE TRIGGER "user_role_counts_announce" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "user_role_counts" FOR EACH STATEMENT EXECUTE FUNCTION "announce_read_changes"();
