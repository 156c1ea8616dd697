CREATE TYPE "public"."team_status" AS ENUM('pending', 'accepted', 'removed');--> statement-breakpoint
CREATE TABLE "hidden_contents" (
	"center_id" uuid NOT NULL,
	"content_id" uuid NOT NULL,
	"hidden_by_id" uuid,
	"hidden_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hidden_contents_center_id_content_id_pk" PRIMARY KEY("center_id","content_id")
);
--> statement-breakpoint
ALTER TABLE "hidden_contents" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "team_members" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"center_id" uuid NOT NULL,
	"email" text NOT NULL,
	"invited_by_id" uuid,
	"member_id" uuid,
	"status" "team_status" DEFAULT 'pending' NOT NULL,
	"token_hash" text,
	"token_expires_at" timestamp with time zone,
	"invited_at" timestamp with time zone DEFAULT now() NOT NULL,
	"accepted_at" timestamp with time zone,
	"removed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "team_members" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "hidden_contents" ADD CONSTRAINT "hidden_contents_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hidden_contents" ADD CONSTRAINT "hidden_contents_content_id_contents_id_fk" FOREIGN KEY ("content_id") REFERENCES "public"."contents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hidden_contents" ADD CONSTRAINT "hidden_contents_hidden_by_id_users_id_fk" FOREIGN KEY ("hidden_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_invited_by_id_users_id_fk" FOREIGN KEY ("invited_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_member_id_users_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "hidden_contents_content_idx" ON "hidden_contents" USING btree ("content_id");--> statement-breakpoint
CREATE UNIQUE INDEX "team_members_center_email_key" ON "team_members" USING btree ("center_id","email") WHERE "team_members"."status" <> 'removed';--> statement-breakpoint
CREATE UNIQUE INDEX "team_members_center_member_key" ON "team_members" USING btree ("center_id","member_id") WHERE "team_members"."status" = 'accepted';--> statement-breakpoint
CREATE INDEX "team_members_member_idx" ON "team_members" USING btree ("member_id") WHERE "team_members"."status" = 'accepted';--> statement-breakpoint
CREATE UNIQUE INDEX "team_members_token_key" ON "team_members" USING btree ("token_hash") WHERE "team_members"."token_hash" is not null;--> statement-breakpoint
CREATE INDEX "contents_center_created_idx" ON "contents" USING btree ("center_id","created_at" DESC NULLS LAST) WHERE "contents"."archived_at" is null;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "hidden_contents" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "hidden_contents"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "hidden_contents"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "team_members" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "team_members"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "team_members"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);