CREATE TYPE "public"."consent_answer" AS ENUM('granted', 'refused', 'withdrawn');--> statement-breakpoint
CREATE TYPE "public"."guardian_relation" AS ENUM('mother', 'father', 'guardian');--> statement-breakpoint
CREATE TYPE "public"."guardian_status" AS ENUM('invited', 'active', 'declined', 'withdrawn', 'removed');--> statement-breakpoint
CREATE TABLE "guardians" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"center_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"parent_id" uuid,
	"name" text NOT NULL,
	"relation" "guardian_relation" NOT NULL,
	"phone" text NOT NULL,
	"status" "guardian_status" DEFAULT 'invited' NOT NULL,
	"invited_by_id" uuid,
	"token_hash" text,
	"token_expires_at" timestamp with time zone,
	"invited_at" timestamp with time zone DEFAULT now() NOT NULL,
	"linked_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "guardians" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "parent_consents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"center_id" uuid NOT NULL,
	"guardian_id" uuid NOT NULL,
	"parent_id" uuid,
	"answer" "consent_answer" NOT NULL,
	"notice_version" text NOT NULL,
	"notice_text" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "parent_consents" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "phone_codes" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "guardians" ADD CONSTRAINT "guardians_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guardians" ADD CONSTRAINT "guardians_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guardians" ADD CONSTRAINT "guardians_parent_id_users_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guardians" ADD CONSTRAINT "guardians_invited_by_id_users_id_fk" FOREIGN KEY ("invited_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "parent_consents" ADD CONSTRAINT "parent_consents_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "parent_consents" ADD CONSTRAINT "parent_consents_guardian_id_guardians_id_fk" FOREIGN KEY ("guardian_id") REFERENCES "public"."guardians"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "guardians_live_key" ON "guardians" USING btree ("center_id","student_id","phone") WHERE "guardians"."status" in ('invited', 'active');--> statement-breakpoint
CREATE INDEX "guardians_parent_idx" ON "guardians" USING btree ("parent_id","student_id") WHERE "guardians"."status" = 'active';--> statement-breakpoint
CREATE INDEX "guardians_student_idx" ON "guardians" USING btree ("student_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "guardians_token_key" ON "guardians" USING btree ("token_hash") WHERE "guardians"."token_hash" is not null;--> statement-breakpoint
CREATE INDEX "parent_consents_guardian_idx" ON "parent_consents" USING btree ("guardian_id","at");--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "guardians" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "guardians"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "guardians"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "parent_consents" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "parent_consents"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "parent_consents"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);--> statement-breakpoint
ALTER TABLE "guardians" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "parent_consents" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
-- What a parent was shown and answered is a record: never changed or deleted, except by the
-- removal of the institute or the child it belongs to, cascading down (a trigger deeper than this).
CREATE OR REPLACE FUNCTION "consents_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND pg_trigger_depth() > 1 THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION '% rows are never changed or deleted: record a new answer instead', TG_TABLE_NAME
    USING ERRCODE = 'restrict_violation';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "parent_consents_append_only" BEFORE UPDATE OR DELETE ON "parent_consents" FOR EACH ROW EXECUTE FUNCTION "consents_append_only"();
