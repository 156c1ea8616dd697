CREATE TYPE "public"."attendance_source" AS ENUM('roll-call', 'qr', 'online', 'correction');--> statement-breakpoint
CREATE TYPE "public"."attendance_status" AS ENUM('present', 'absent', 'late', 'excused');--> statement-breakpoint
CREATE TYPE "public"."class_session_status" AS ENUM('scheduled', 'cancelled');--> statement-breakpoint
CREATE TABLE "batch_contents" (
	"batch_id" uuid NOT NULL,
	"center_id" uuid NOT NULL,
	"content_id" uuid NOT NULL,
	"added_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "batch_contents_batch_id_content_id_pk" PRIMARY KEY("batch_id","content_id")
);
--> statement-breakpoint
ALTER TABLE "batch_contents" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "class_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"center_id" uuid NOT NULL,
	"batch_id" uuid NOT NULL,
	"slot_id" uuid,
	"on" date NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"subject" text NOT NULL,
	"teacher_id" uuid,
	"substitute_for_id" uuid,
	"room" text,
	"online" boolean DEFAULT false NOT NULL,
	"meeting_url" text,
	"status" "class_session_status" DEFAULT 'scheduled' NOT NULL,
	"rescheduled_from" timestamp with time zone,
	"change_note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "class_sessions_times_check" CHECK ("class_sessions"."starts_at" < "class_sessions"."ends_at")
);
--> statement-breakpoint
ALTER TABLE "class_sessions" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "holidays" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"center_id" uuid NOT NULL,
	"batch_id" uuid,
	"on" date NOT NULL,
	"name" text NOT NULL,
	"created_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "holidays" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "timetable_slots" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"batch_id" uuid NOT NULL,
	"center_id" uuid NOT NULL,
	"weekday" integer NOT NULL,
	"start_minute" integer NOT NULL,
	"end_minute" integer NOT NULL,
	"subject" text NOT NULL,
	"teacher_id" uuid,
	"room" text,
	"online" boolean DEFAULT false NOT NULL,
	"meeting_url" text,
	"retired_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "timetable_slots_weekday_check" CHECK ("timetable_slots"."weekday" between 1 and 7),
	CONSTRAINT "timetable_slots_minutes_check" CHECK ("timetable_slots"."start_minute" >= 0 and "timetable_slots"."end_minute" <= 1440 and "timetable_slots"."start_minute" < "timetable_slots"."end_minute")
);
--> statement-breakpoint
ALTER TABLE "timetable_slots" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "attendance_mark_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" uuid NOT NULL,
	"center_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"from_status" "attendance_status",
	"to_status" "attendance_status" NOT NULL,
	"source" "attendance_source" NOT NULL,
	"reason" text,
	"changed_by_id" uuid,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "attendance_mark_changes" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "attendance_marks" (
	"session_id" uuid NOT NULL,
	"center_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"status" "attendance_status" NOT NULL,
	"minutes_late" integer,
	"online_minutes" integer,
	"source" "attendance_source" NOT NULL,
	"seq" bigint DEFAULT 0 NOT NULL,
	"marked_by_id" uuid,
	"marked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "attendance_marks_session_id_user_id_pk" PRIMARY KEY("session_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "attendance_marks" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "attendance_policies" (
	"center_id" uuid PRIMARY KEY NOT NULL,
	"late_after_minutes" integer DEFAULT 10 NOT NULL,
	"online_minimum_minutes" integer DEFAULT 45 NOT NULL,
	"low_attendance_percent" integer DEFAULT 75 NOT NULL,
	"absence_alerts" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "attendance_policies_late_check" CHECK ("attendance_policies"."late_after_minutes" between 0 and 240),
	CONSTRAINT "attendance_policies_online_check" CHECK ("attendance_policies"."online_minimum_minutes" between 1 and 600),
	CONSTRAINT "attendance_policies_percent_check" CHECK ("attendance_policies"."low_attendance_percent" between 1 and 100)
);
--> statement-breakpoint
ALTER TABLE "attendance_policies" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "attendance_qr_scans" (
	"session_id" uuid NOT NULL,
	"center_id" uuid NOT NULL,
	"device_id" text NOT NULL,
	"user_id" uuid NOT NULL,
	"scanned_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "attendance_qr_scans_session_id_device_id_pk" PRIMARY KEY("session_id","device_id")
);
--> statement-breakpoint
ALTER TABLE "attendance_qr_scans" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "attendance_registers" (
	"session_id" uuid PRIMARY KEY NOT NULL,
	"center_id" uuid NOT NULL,
	"seq" integer DEFAULT 0 NOT NULL,
	"closed_at" timestamp with time zone,
	"closed_by_id" uuid,
	"alerts_sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "attendance_registers" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "online_attendance" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" uuid NOT NULL,
	"center_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"joined_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"left_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "online_attendance" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "batch_contents" ADD CONSTRAINT "batch_contents_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_contents" ADD CONSTRAINT "batch_contents_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_contents" ADD CONSTRAINT "batch_contents_content_id_contents_id_fk" FOREIGN KEY ("content_id") REFERENCES "public"."contents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_contents" ADD CONSTRAINT "batch_contents_added_by_id_users_id_fk" FOREIGN KEY ("added_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_sessions" ADD CONSTRAINT "class_sessions_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_sessions" ADD CONSTRAINT "class_sessions_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_sessions" ADD CONSTRAINT "class_sessions_slot_id_timetable_slots_id_fk" FOREIGN KEY ("slot_id") REFERENCES "public"."timetable_slots"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_sessions" ADD CONSTRAINT "class_sessions_teacher_id_users_id_fk" FOREIGN KEY ("teacher_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_sessions" ADD CONSTRAINT "class_sessions_substitute_for_id_users_id_fk" FOREIGN KEY ("substitute_for_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holidays" ADD CONSTRAINT "holidays_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holidays" ADD CONSTRAINT "holidays_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holidays" ADD CONSTRAINT "holidays_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timetable_slots" ADD CONSTRAINT "timetable_slots_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timetable_slots" ADD CONSTRAINT "timetable_slots_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timetable_slots" ADD CONSTRAINT "timetable_slots_teacher_id_users_id_fk" FOREIGN KEY ("teacher_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_mark_changes" ADD CONSTRAINT "attendance_mark_changes_session_id_class_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."class_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_mark_changes" ADD CONSTRAINT "attendance_mark_changes_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_mark_changes" ADD CONSTRAINT "attendance_mark_changes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_mark_changes" ADD CONSTRAINT "attendance_mark_changes_changed_by_id_users_id_fk" FOREIGN KEY ("changed_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_marks" ADD CONSTRAINT "attendance_marks_session_id_class_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."class_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_marks" ADD CONSTRAINT "attendance_marks_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_marks" ADD CONSTRAINT "attendance_marks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_marks" ADD CONSTRAINT "attendance_marks_marked_by_id_users_id_fk" FOREIGN KEY ("marked_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_policies" ADD CONSTRAINT "attendance_policies_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_qr_scans" ADD CONSTRAINT "attendance_qr_scans_session_id_class_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."class_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_qr_scans" ADD CONSTRAINT "attendance_qr_scans_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_qr_scans" ADD CONSTRAINT "attendance_qr_scans_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_registers" ADD CONSTRAINT "attendance_registers_session_id_class_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."class_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_registers" ADD CONSTRAINT "attendance_registers_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_registers" ADD CONSTRAINT "attendance_registers_closed_by_id_users_id_fk" FOREIGN KEY ("closed_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "online_attendance" ADD CONSTRAINT "online_attendance_session_id_class_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."class_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "online_attendance" ADD CONSTRAINT "online_attendance_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "online_attendance" ADD CONSTRAINT "online_attendance_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "batch_contents_content_idx" ON "batch_contents" USING btree ("content_id");--> statement-breakpoint
CREATE UNIQUE INDEX "class_sessions_slot_on_key" ON "class_sessions" USING btree ("slot_id","on");--> statement-breakpoint
CREATE INDEX "class_sessions_batch_starts_idx" ON "class_sessions" USING btree ("batch_id","starts_at");--> statement-breakpoint
CREATE INDEX "class_sessions_center_starts_idx" ON "class_sessions" USING btree ("center_id","starts_at");--> statement-breakpoint
CREATE INDEX "class_sessions_teacher_starts_idx" ON "class_sessions" USING btree ("teacher_id","starts_at");--> statement-breakpoint
CREATE INDEX "holidays_center_on_idx" ON "holidays" USING btree ("center_id","on");--> statement-breakpoint
CREATE INDEX "timetable_slots_batch_idx" ON "timetable_slots" USING btree ("batch_id");--> statement-breakpoint
CREATE INDEX "timetable_slots_center_weekday_idx" ON "timetable_slots" USING btree ("center_id","weekday");--> statement-breakpoint
CREATE INDEX "attendance_mark_changes_session_idx" ON "attendance_mark_changes" USING btree ("session_id","user_id");--> statement-breakpoint
CREATE INDEX "attendance_marks_user_idx" ON "attendance_marks" USING btree ("user_id","marked_at");--> statement-breakpoint
CREATE INDEX "attendance_registers_center_idx" ON "attendance_registers" USING btree ("center_id","closed_at");--> statement-breakpoint
CREATE INDEX "online_attendance_session_user_idx" ON "online_attendance" USING btree ("session_id","user_id");--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "batch_contents" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "batch_contents"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "batch_contents"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "class_sessions" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "class_sessions"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "class_sessions"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "holidays" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "holidays"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "holidays"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "timetable_slots" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "timetable_slots"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "timetable_slots"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "attendance_mark_changes" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "attendance_mark_changes"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "attendance_mark_changes"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "attendance_marks" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "attendance_marks"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "attendance_marks"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "attendance_policies" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "attendance_policies"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "attendance_policies"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "attendance_qr_scans" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "attendance_qr_scans"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "attendance_qr_scans"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "attendance_registers" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "attendance_registers"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "attendance_registers"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "online_attendance" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "online_attendance"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "online_attendance"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);--> statement-breakpoint
-- Even a connection that stays the owner is subject to the policy (as 0032 did for tenant tables).
ALTER TABLE "timetable_slots" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "holidays" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "class_sessions" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "attendance_policies" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "attendance_registers" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "attendance_marks" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "attendance_mark_changes" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "attendance_qr_scans" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "online_attendance" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "batch_contents" FORCE ROW LEVEL SECURITY;
