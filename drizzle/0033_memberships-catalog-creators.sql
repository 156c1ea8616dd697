-- The institute's site lists what its owner and creators sell: only their rows change it. A student
-- made by a sign-up, an enrolment, an order or a sitting must not empty the institute's cached site.
CREATE FUNCTION "announce_catalog_team_changes"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  center text;
BEGIN
  FOR center IN SELECT DISTINCT "center_id"::text FROM "changed" WHERE "role" IN ('owner', 'creator') LOOP
    PERFORM pg_notify('pathshala_catalog', center);
  END LOOP;
  RETURN NULL;
END $$;--> statement-breakpoint
DROP TRIGGER "memberships_announce_catalog_inserts" ON "memberships";--> statement-breakpoint
DROP TRIGGER "memberships_announce_catalog_updates" ON "memberships";--> statement-breakpoint
DROP TRIGGER "memberships_announce_catalog_deletes" ON "memberships";--> statement-breakpoint
CREATE TRIGGER "memberships_announce_catalog_inserts" AFTER INSERT ON "memberships" REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_catalog_team_changes"();--> statement-breakpoint
CREATE TRIGGER "memberships_announce_catalog_updates" AFTER UPDATE ON "memberships" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_catalog_team_changes"();--> statement-breakpoint
CREATE TRIGGER "memberships_announce_catalog_deletes" AFTER DELETE ON "memberships" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_catalog_team_changes"();
