CREATE TYPE "public"."member_role" AS ENUM('owner', 'staff', 'teacher', 'creator', 'student', 'parent');--> statement-breakpoint
CREATE TYPE "public"."member_status" AS ENUM('invited', 'active', 'removed');--> statement-breakpoint
CREATE TABLE "memberships" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"center_id" uuid NOT NULL,
	"user_id" uuid,
	"role" "member_role" NOT NULL,
	"duty" text,
	"status" "member_status" DEFAULT 'active' NOT NULL,
	"email" text,
	"phone" text,
	"invited_by_id" uuid,
	"token_hash" text,
	"token_expires_at" timestamp with time zone,
	"invited_at" timestamp with time zone,
	"accepted_at" timestamp with time zone,
	"removed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "memberships" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_invited_by_id_users_id_fk" FOREIGN KEY ("invited_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "memberships_live_key" ON "memberships" USING btree ("center_id","user_id","role") WHERE "memberships"."status" = 'active';--> statement-breakpoint
CREATE UNIQUE INDEX "memberships_invited_email_key" ON "memberships" USING btree ("center_id","role","email") WHERE "memberships"."status" = 'invited' and "memberships"."email" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "memberships_invited_phone_key" ON "memberships" USING btree ("center_id","role","phone") WHERE "memberships"."status" = 'invited' and "memberships"."phone" is not null;--> statement-breakpoint
CREATE INDEX "memberships_user_idx" ON "memberships" USING btree ("user_id","role") WHERE "memberships"."status" = 'active';--> statement-breakpoint
CREATE INDEX "memberships_center_role_idx" ON "memberships" USING btree ("center_id","role","status");--> statement-breakpoint
CREATE UNIQUE INDEX "memberships_token_key" ON "memberships" USING btree ("token_hash") WHERE "memberships"."token_hash" is not null;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "memberships" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "memberships"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "memberships"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);--> statement-breakpoint
-- Memberships (issue 40, decision 0039) bind even a connection that stays the owner, as the other tenant tables do.
ALTER TABLE "memberships" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
-- Every existing row, without loss. Each institute's owner is its owner.
INSERT INTO "memberships" ("center_id", "user_id", "role", "status", "accepted_at", "created_at", "updated_at")
SELECT "id", "owner_id", 'owner', 'active', "created_at", "created_at", now() FROM "centers" WHERE "owner_id" IS NOT NULL;--> statement-breakpoint
-- Each team row is a creator's: same id (links and pages that name it keep working), same token
-- hash and expiry (invitation links already sent still open), same history.
INSERT INTO "memberships" ("id", "center_id", "user_id", "role", "status", "email", "invited_by_id", "token_hash", "token_expires_at", "invited_at", "accepted_at", "removed_at", "created_at", "updated_at")
SELECT "id", "center_id", "member_id", 'creator',
  (CASE "status" WHEN 'pending' THEN 'invited' WHEN 'accepted' THEN 'active' ELSE 'removed' END)::"member_status",
  "email", "invited_by_id", "token_hash", "token_expires_at", "invited_at", "accepted_at", "removed_at", "created_at", "updated_at"
FROM "team_members";--> statement-breakpoint
-- Students: who signed up on an institute's site, bought from it (paid orders placed there), enrolled in
-- its content, or sat its tests. One row per student and institute, from the earliest of these.
INSERT INTO "memberships" ("center_id", "user_id", "role", "status", "accepted_at", "created_at", "updated_at")
SELECT s."center_id", s."user_id", 'student', 'active', min(s."at"), min(s."at"), now()
FROM (
  SELECT "signup_center_id" AS "center_id", "id" AS "user_id", "created_at" AS "at" FROM "users" WHERE "signup_center_id" IS NOT NULL
  UNION ALL
  SELECT "center_id", "student_id", coalesce("paid_at", "created_at") FROM "content_orders" WHERE "status" = 'paid' AND "center_id" IS NOT NULL
  UNION ALL
  SELECT c."center_id", e."student_id", e."created_at" FROM "enrollments" e JOIN "contents" c ON c."id" = e."content_id" WHERE c."center_id" IS NOT NULL
  UNION ALL
  SELECT "center_id", "student_id", "started_at" FROM "attempts" WHERE "center_id" IS NOT NULL
) s
JOIN "users" u ON u."id" = s."user_id" AND u."role" = 'student'
GROUP BY s."center_id", s."user_id";--> statement-breakpoint
-- From now on, every path that makes an owner or a student makes the membership too (trials,
-- plan purchases, sign-ups on a site, enrolments, paid orders, sittings), whichever code wrote the row.
CREATE FUNCTION "keep_owner_membership"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD."owner_id" IS NOT NULL THEN
    UPDATE "memberships" SET "status" = 'removed', "removed_at" = now(), "updated_at" = now()
      WHERE "center_id" = NEW."id" AND "user_id" = OLD."owner_id" AND "role" = 'owner' AND "status" = 'active';
  END IF;
  IF NEW."owner_id" IS NOT NULL THEN
    INSERT INTO "memberships" ("center_id", "user_id", "role", "status", "accepted_at")
      VALUES (NEW."id", NEW."owner_id", 'owner', 'active', now()) ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "centers_owner_membership" AFTER INSERT ON "centers" FOR EACH ROW EXECUTE FUNCTION "keep_owner_membership"();--> statement-breakpoint
CREATE TRIGGER "centers_owner_membership_changes" AFTER UPDATE OF "owner_id" ON "centers" FOR EACH ROW WHEN (OLD."owner_id" IS DISTINCT FROM NEW."owner_id") EXECUTE FUNCTION "keep_owner_membership"();--> statement-breakpoint
CREATE FUNCTION "make_student_membership"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  center uuid;
  student uuid;
BEGIN
  IF TG_TABLE_NAME = 'users' THEN
    center := NEW."signup_center_id"; student := NEW."id";
  ELSIF TG_TABLE_NAME = 'enrollments' THEN
    SELECT c."center_id" INTO center FROM "contents" c WHERE c."id" = NEW."content_id"; student := NEW."student_id";
  ELSE
    center := NEW."center_id"; student := NEW."student_id";
  END IF;
  IF center IS NOT NULL THEN
    INSERT INTO "memberships" ("center_id", "user_id", "role", "status", "accepted_at")
      SELECT center, u."id", 'student', 'active', now() FROM "users" u
      WHERE u."id" = student AND u."role" = 'student'
        AND NOT EXISTS (SELECT 1 FROM "memberships" m WHERE m."center_id" = center AND m."user_id" = student AND m."role" = 'student' AND m."status" = 'active')
      ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "users_student_membership" AFTER INSERT OR UPDATE OF "signup_center_id" ON "users" FOR EACH ROW WHEN (NEW."signup_center_id" IS NOT NULL) EXECUTE FUNCTION "make_student_membership"();--> statement-breakpoint
CREATE TRIGGER "enrollments_student_membership" AFTER INSERT ON "enrollments" FOR EACH ROW EXECUTE FUNCTION "make_student_membership"();--> statement-breakpoint
CREATE TRIGGER "content_orders_student_membership" AFTER INSERT OR UPDATE OF "status" ON "content_orders" FOR EACH ROW WHEN (NEW."status" = 'paid' AND NEW."center_id" IS NOT NULL) EXECUTE FUNCTION "make_student_membership"();--> statement-breakpoint
CREATE TRIGGER "attempts_student_membership" AFTER INSERT ON "attempts" FOR EACH ROW WHEN (NEW."center_id" IS NOT NULL) EXECUTE FUNCTION "make_student_membership"();--> statement-breakpoint
-- Who is on a team decides what an institute's pages show, and a creator's institutes are kept per
-- creator: changes are announced as 0010 and 0012 did for team_members.
CREATE TRIGGER "memberships_announce_inserts" AFTER INSERT ON "memberships" REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_reads', 'center:', 'center_id');--> statement-breakpoint
CREATE TRIGGER "memberships_announce_updates" AFTER UPDATE ON "memberships" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_reads', 'center:', 'center_id');--> statement-breakpoint
CREATE TRIGGER "memberships_announce_deletes" AFTER DELETE ON "memberships" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_reads', 'center:', 'center_id');--> statement-breakpoint
CREATE TRIGGER "memberships_announce_truncate" AFTER TRUNCATE ON "memberships" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_reads');--> statement-breakpoint
-- A creator joining or leaving changes what the institute's site lists (0011 did this for team_members).
CREATE TRIGGER "memberships_announce_catalog_inserts" AFTER INSERT ON "memberships" REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_catalog', '', 'center_id');--> statement-breakpoint
CREATE TRIGGER "memberships_announce_catalog_updates" AFTER UPDATE ON "memberships" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_catalog', '', 'center_id');--> statement-breakpoint
CREATE TRIGGER "memberships_announce_catalog_deletes" AFTER DELETE ON "memberships" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_catalog', '', 'center_id');--> statement-breakpoint
CREATE TRIGGER "memberships_announce_catalog_truncate" AFTER TRUNCATE ON "memberships" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_catalog');--> statement-breakpoint
CREATE TRIGGER "memberships_announce_member_inserts" AFTER INSERT ON "memberships" REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_reads', 'creator:', 'user_id');--> statement-breakpoint
CREATE TRIGGER "memberships_announce_member_updates_old" AFTER UPDATE ON "memberships" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_reads', 'creator:', 'user_id');--> statement-breakpoint
CREATE TRIGGER "memberships_announce_member_updates_new" AFTER UPDATE ON "memberships" REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_reads', 'creator:', 'user_id');--> statement-breakpoint
CREATE TRIGGER "memberships_announce_member_deletes" AFTER DELETE ON "memberships" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "announce_changes"('pathshala_reads', 'creator:', 'user_id');
