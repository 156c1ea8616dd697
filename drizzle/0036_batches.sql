CREATE TYPE "public"."batch_student_status" AS ENUM('admitted', 'waitlisted', 'moved', 'left');--> statement-breakpoint
CREATE TABLE "batch_students" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"batch_id" uuid NOT NULL,
	"center_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"status" "batch_student_status" NOT NULL,
	"position" integer,
	"waitlisted_at" timestamp with time zone,
	"admitted_at" timestamp with time zone,
	"left_at" timestamp with time zone,
	"moved_to_batch_id" uuid,
	"added_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "batch_students" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "batch_teachers" (
	"batch_id" uuid NOT NULL,
	"center_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "batch_teachers_batch_id_user_id_pk" PRIMARY KEY("batch_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "batch_teachers" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"center_id" uuid NOT NULL,
	"name" text NOT NULL,
	"course" text,
	"starts_on" date NOT NULL,
	"ends_on" date,
	"capacity" integer,
	"medium" text,
	"centre" text,
	"created_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "batches_dates_check" CHECK ("batches"."ends_on" is null or "batches"."ends_on" >= "batches"."starts_on"),
	CONSTRAINT "batches_capacity_check" CHECK ("batches"."capacity" is null or "batches"."capacity" > 0)
);
--> statement-breakpoint
ALTER TABLE "batches" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "batch_students" ADD CONSTRAINT "batch_students_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_students" ADD CONSTRAINT "batch_students_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_students" ADD CONSTRAINT "batch_students_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_students" ADD CONSTRAINT "batch_students_moved_to_batch_id_batches_id_fk" FOREIGN KEY ("moved_to_batch_id") REFERENCES "public"."batches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_students" ADD CONSTRAINT "batch_students_added_by_id_users_id_fk" FOREIGN KEY ("added_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_teachers" ADD CONSTRAINT "batch_teachers_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_teachers" ADD CONSTRAINT "batch_teachers_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_teachers" ADD CONSTRAINT "batch_teachers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batches" ADD CONSTRAINT "batches_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batches" ADD CONSTRAINT "batches_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "batch_students_live_key" ON "batch_students" USING btree ("batch_id","user_id") WHERE "batch_students"."status" in ('admitted', 'waitlisted');--> statement-breakpoint
CREATE INDEX "batch_students_batch_idx" ON "batch_students" USING btree ("batch_id","status","position");--> statement-breakpoint
CREATE INDEX "batch_students_user_idx" ON "batch_students" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "batch_teachers_user_idx" ON "batch_teachers" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "batches_center_starts_idx" ON "batches" USING btree ("center_id","starts_on");--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "batch_students" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "batch_students"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "batch_students"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "batch_teachers" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "batch_teachers"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "batch_teachers"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "batches" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "batches"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "batches"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);--> statement-breakpoint
-- Even a connection that stays the owner is subject to the policy (as 0032 did for tenant tables).
ALTER TABLE "batches" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "batch_teachers" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "batch_students" FORCE ROW LEVEL SECURITY;
