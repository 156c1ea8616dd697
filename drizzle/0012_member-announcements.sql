-- A team membership is announced by its member's account too ("creator:<member_id>" on
-- "pathshala_reads"), beside its institute (migration 0010), so that the institutes a creator
-- may assign to (TeamService.assignableBusinesses, kept per creator) are dropped on every instance
-- when the creator joins or leaves a team. An invitation not yet accepted names no account: its
-- announcement is empty and drops nothing. An update is announced by its rows before and after
-- (an acceptance gives the row its member).
CREATE TRIGGER "team_members_announce_member_inserts" AFTER INSERT ON "team_members" REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_reads', 'creator:', 'member_id');--> statement-breakpoint
CREATE TRIGGER "team_members_announce_member_updates_old" AFTER UPDATE ON "team_members" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_reads', 'creator:', 'member_id');--> statement-breakpoint
CREATE TRIGGER "team_members_announce_member_updates_new" AFTER UPDATE ON "team_members" REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_reads', 'creator:', 'member_id');--> statement-breakpoint
CREATE TRIGGER "team_members_announce_member_deletes" AFTER DELETE ON "team_members" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_reads', 'creator:', 'member_id');
