-- Institutes' teams (0009): the policies bind even a connection that stays the owner, as 0003
-- does for the other tenant-owned tables.
ALTER TABLE "team_members" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "hidden_contents" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
-- Before teams, any creator could assign content to any institute. So that an upgrade does not
-- empty the institutes' sites, each creator who has content on an institute now is made an
-- accepted member of its team (no inviter's link: invited_by is the owner, token_hash null);
-- owners review them on their Team page and can remove them (decision 0016).
INSERT INTO "team_members" ("center_id", "email", "invited_by_id", "member_id", "status", "invited_at", "accepted_at")
SELECT DISTINCT ON (c."center_id", c."creator_id") c."center_id", u."email", ce."owner_id", c."creator_id", 'accepted', now(), now()
FROM "contents" c
JOIN "users" u ON u."id" = c."creator_id" AND u."role" = 'creator'
JOIN "centers" ce ON ce."id" = c."center_id"
WHERE c."center_id" IS NOT NULL AND c."archived_at" IS NULL
ON CONFLICT DO NOTHING;--> statement-breakpoint
-- Who is on a team and what the owner hid decide what an institute's pages show: every change is
-- announced by its institute's tag on "pathshala_reads" (0007), so kept reads of it are dropped.
CREATE TRIGGER "team_members_announce_inserts" AFTER INSERT ON "team_members" REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_reads', 'center:', 'center_id');--> statement-breakpoint
CREATE TRIGGER "team_members_announce_updates" AFTER UPDATE ON "team_members" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_reads', 'center:', 'center_id');--> statement-breakpoint
CREATE TRIGGER "team_members_announce_deletes" AFTER DELETE ON "team_members" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_reads', 'center:', 'center_id');--> statement-breakpoint
CREATE TRIGGER "team_members_announce_truncate" AFTER TRUNCATE ON "team_members" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_reads');--> statement-breakpoint
CREATE TRIGGER "hidden_contents_announce_inserts" AFTER INSERT ON "hidden_contents" REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_reads', 'center:', 'center_id');--> statement-breakpoint
CREATE TRIGGER "hidden_contents_announce_deletes" AFTER DELETE ON "hidden_contents" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_reads', 'center:', 'center_id');--> statement-breakpoint
CREATE TRIGGER "hidden_contents_announce_truncate" AFTER TRUNCATE ON "hidden_contents" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_reads');
