-- Center and catalog changes are announced by the database, as session and read changes are
-- (0006, 0007), whichever code path, instance or tool made them:
--   "pathshala_centers" names each changed center (hosts resolve to centers: every instance's
--   host cache is emptied), including new ones, which may answer a host that was unknown;
--   "pathshala_catalog" names each institute whose site lists something that changed: its
--   contents, its team (a creator's content is shown only while they are an accepted member)
--   and what its owner hid (server/services/site-visibility.ts).
-- "*" says a statement changed too many rows to name, or truncated the table.
--
-- announce_changes (0007) now skips a row whose column is null (content assigned to no
-- institute): an empty announcement would read as "*".
CREATE OR REPLACE FUNCTION "announce_changes"() RETURNS trigger LANGUAGE plpgsql AS $$
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
      SELECT DISTINCT named.tag FROM (
        SELECT TG_ARGV[i] || (to_jsonb(changed_row) ->> TG_ARGV[i + 1]) AS tag
        FROM "changed" AS changed_row, generate_series(1, TG_NARGS - 2, 2) AS i
      ) AS named
      WHERE named.tag IS NOT NULL
    LOOP
      PERFORM pg_notify(channel, tag);
    END LOOP;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "centers_announce_center_inserts" AFTER INSERT ON "centers" REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_centers', '', 'id');--> statement-breakpoint
CREATE TRIGGER "centers_announce_center_updates" AFTER UPDATE ON "centers" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_centers', '', 'id');--> statement-breakpoint
CREATE TRIGGER "centers_announce_center_deletes" AFTER DELETE ON "centers" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_centers', '', 'id');--> statement-breakpoint
CREATE TRIGGER "centers_announce_center_truncate" AFTER TRUNCATE ON "centers" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_centers');--> statement-breakpoint
-- A content moved from one institute to another changes both catalogs.
CREATE TRIGGER "contents_announce_catalog_inserts" AFTER INSERT ON "contents" REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_catalog', '', 'center_id');--> statement-breakpoint
CREATE TRIGGER "contents_announce_catalog_updates_old" AFTER UPDATE ON "contents" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_catalog', '', 'center_id');--> statement-breakpoint
CREATE TRIGGER "contents_announce_catalog_updates_new" AFTER UPDATE ON "contents" REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_catalog', '', 'center_id');--> statement-breakpoint
CREATE TRIGGER "contents_announce_catalog_deletes" AFTER DELETE ON "contents" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_catalog', '', 'center_id');--> statement-breakpoint
CREATE TRIGGER "contents_announce_catalog_truncate" AFTER TRUNCATE ON "contents" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_catalog');--> statement-breakpoint
CREATE TRIGGER "team_members_announce_catalog_inserts" AFTER INSERT ON "team_members" REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_catalog', '', 'center_id');--> statement-breakpoint
CREATE TRIGGER "team_members_announce_catalog_updates" AFTER UPDATE ON "team_members" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_catalog', '', 'center_id');--> statement-breakpoint
CREATE TRIGGER "team_members_announce_catalog_deletes" AFTER DELETE ON "team_members" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_catalog', '', 'center_id');--> statement-breakpoint
CREATE TRIGGER "team_members_announce_catalog_truncate" AFTER TRUNCATE ON "team_members" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_catalog');--> statement-breakpoint
CREATE TRIGGER "hidden_contents_announce_catalog_inserts" AFTER INSERT ON "hidden_contents" REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_catalog', '', 'center_id');--> statement-breakpoint
CREATE TRIGGER "hidden_contents_announce_catalog_updates" AFTER UPDATE ON "hidden_contents" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_catalog', '', 'center_id');--> statement-breakpoint
CREATE TRIGGER "hidden_contents_announce_catalog_deletes" AFTER DELETE ON "hidden_contents" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_catalog', '', 'center_id');--> statement-breakpoint
CREATE TRIGGER "hidden_contents_announce_catalog_truncate" AFTER TRUNCATE ON "hidden_contents" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_catalog');
