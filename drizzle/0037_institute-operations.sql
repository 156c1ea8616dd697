CREATE TYPE "public"."attendance_source" AS ENUM('roll-call', 'qr', 'online', 'correction');--> statement-breakpoint
CREATE TYPE "public"."attendance_status" AS ENUM('present', 'absent', 'late', 'excused');--> statement-breakpoint
CREATE TYPE "public"."class_session_status" AS ENUM('scheduled', 'cancelled');--> statement-breakpoint
CREATE TYPE "public"."fee_cheque_status" AS ENUM('held', 'deposited', 'cleared', 'bounced', 'returned');--> statement-breakpoint
CREATE TYPE "public"."fee_entry_kind" AS ENUM('due', 'discount', 'payment', 'late-fee', 'waiver', 'reversal', 'charge');--> statement-breakpoint
CREATE TYPE "public"."fee_link_status" AS ENUM('created', 'partially_paid', 'paid', 'expired', 'cancelled');--> statement-breakpoint
CREATE TYPE "public"."fee_payment_mode" AS ENUM('cash', 'cheque', 'dd', 'upi', 'bank', 'online');--> statement-breakpoint
ALTER TYPE "public"."order_subject" ADD VALUE 'fee';--> statement-breakpoint
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
CREATE TABLE "fee_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"center_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"fee_plan_id" uuid NOT NULL,
	"plan_name" text NOT NULL,
	"created_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "fee_accounts" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "fee_cheque_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"cheque_id" uuid NOT NULL,
	"center_id" uuid NOT NULL,
	"from_status" "fee_cheque_status",
	"to_status" "fee_cheque_status" NOT NULL,
	"note" text,
	"by_id" uuid,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "fee_cheque_events" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "fee_cheques" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"center_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"kind" text DEFAULT 'cheque' NOT NULL,
	"number" text NOT NULL,
	"bank" text NOT NULL,
	"cheque_date" date NOT NULL,
	"amount" integer NOT NULL,
	"status" "fee_cheque_status" NOT NULL,
	"receipt_id" uuid,
	"created_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fee_cheques_amount_check" CHECK ("fee_cheques"."amount" > 0),
	CONSTRAINT "fee_cheques_kind_check" CHECK ("fee_cheques"."kind" in ('cheque', 'dd'))
);
--> statement-breakpoint
ALTER TABLE "fee_cheques" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "fee_dues" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"center_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"label" text NOT NULL,
	"amount" integer NOT NULL,
	"due_on" date NOT NULL,
	"gst_rate" integer NOT NULL,
	"late_fee" jsonb,
	CONSTRAINT "fee_dues_amount_check" CHECK ("fee_dues"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "fee_dues" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "fee_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"center_id" uuid NOT NULL,
	"due_id" uuid NOT NULL,
	"kind" "fee_entry_kind" NOT NULL,
	"amount" integer NOT NULL,
	"receipt_id" uuid,
	"reverses_id" uuid,
	"discount" jsonb,
	"reason" text,
	"approved_by_id" uuid,
	"created_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fee_entries_amount_check" CHECK ("fee_entries"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "fee_entries" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "fee_payment_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"center_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"due_id" uuid,
	"amount" integer NOT NULL,
	"accept_partial" boolean DEFAULT false NOT NULL,
	"merchant_account_id" uuid,
	"gateway_link_id" text NOT NULL,
	"short_url" text NOT NULL,
	"status" "fee_link_status" DEFAULT 'created' NOT NULL,
	"expires_at" timestamp with time zone,
	"created_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fee_payment_links_amount_check" CHECK ("fee_payment_links"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "fee_payment_links" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "fee_plans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"center_id" uuid NOT NULL,
	"name" text NOT NULL,
	"heads" jsonb NOT NULL,
	"instalments" jsonb NOT NULL,
	"total" integer NOT NULL,
	"gst_rate" integer NOT NULL,
	"late_fee" jsonb,
	"created_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived_at" timestamp with time zone,
	CONSTRAINT "fee_plans_total_check" CHECK ("fee_plans"."total" > 0)
);
--> statement-breakpoint
ALTER TABLE "fee_plans" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "fee_receipt_reversals" (
	"receipt_id" uuid PRIMARY KEY NOT NULL,
	"center_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"reversed_by_id" uuid,
	"reversed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "fee_receipt_reversals" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "fee_receipts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"center_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"number" text NOT NULL,
	"financial_year" text NOT NULL,
	"seq" integer NOT NULL,
	"amount" integer NOT NULL,
	"mode" "fee_payment_mode" NOT NULL,
	"reference" text,
	"paid_on" date NOT NULL,
	"cheque_date" date,
	"received_by_id" uuid,
	"gateway_payment_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fee_receipts_amount_check" CHECK ("fee_receipts"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "fee_receipts" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "fee_settings" (
	"center_id" uuid PRIMARY KEY NOT NULL,
	"remind_days_before" integer DEFAULT 3 NOT NULL,
	"remind_on_day" boolean DEFAULT true NOT NULL,
	"remind_days_after" integer DEFAULT 3 NOT NULL,
	"defaulter_after_days" integer DEFAULT 15 NOT NULL,
	"defaulter_policy" text,
	"bounce_fee" integer DEFAULT 0 NOT NULL,
	"allow_partial_online" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fee_settings_days_check" CHECK ("fee_settings"."remind_days_before" between 0 and 30 and "fee_settings"."remind_days_after" between 0 and 60 and "fee_settings"."defaulter_after_days" between 1 and 365),
	CONSTRAINT "fee_settings_bounce_check" CHECK ("fee_settings"."bounce_fee" >= 0)
);
--> statement-breakpoint
ALTER TABLE "fee_settings" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "fee_account_id" uuid;--> statement-breakpoint
ALTER TABLE "batches" ADD COLUMN "fee_plan_id" uuid;--> statement-breakpoint
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
ALTER TABLE "fee_accounts" ADD CONSTRAINT "fee_accounts_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_accounts" ADD CONSTRAINT "fee_accounts_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_accounts" ADD CONSTRAINT "fee_accounts_fee_plan_id_fee_plans_id_fk" FOREIGN KEY ("fee_plan_id") REFERENCES "public"."fee_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_accounts" ADD CONSTRAINT "fee_accounts_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_cheque_events" ADD CONSTRAINT "fee_cheque_events_cheque_id_fee_cheques_id_fk" FOREIGN KEY ("cheque_id") REFERENCES "public"."fee_cheques"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_cheque_events" ADD CONSTRAINT "fee_cheque_events_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_cheque_events" ADD CONSTRAINT "fee_cheque_events_by_id_users_id_fk" FOREIGN KEY ("by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_cheques" ADD CONSTRAINT "fee_cheques_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_cheques" ADD CONSTRAINT "fee_cheques_account_id_fee_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."fee_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_cheques" ADD CONSTRAINT "fee_cheques_receipt_id_fee_receipts_id_fk" FOREIGN KEY ("receipt_id") REFERENCES "public"."fee_receipts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_cheques" ADD CONSTRAINT "fee_cheques_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_dues" ADD CONSTRAINT "fee_dues_account_id_fee_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."fee_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_dues" ADD CONSTRAINT "fee_dues_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_entries" ADD CONSTRAINT "fee_entries_account_id_fee_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."fee_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_entries" ADD CONSTRAINT "fee_entries_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_entries" ADD CONSTRAINT "fee_entries_due_id_fee_dues_id_fk" FOREIGN KEY ("due_id") REFERENCES "public"."fee_dues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_entries" ADD CONSTRAINT "fee_entries_receipt_id_fee_receipts_id_fk" FOREIGN KEY ("receipt_id") REFERENCES "public"."fee_receipts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_entries" ADD CONSTRAINT "fee_entries_reverses_id_fee_entries_id_fk" FOREIGN KEY ("reverses_id") REFERENCES "public"."fee_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_entries" ADD CONSTRAINT "fee_entries_approved_by_id_users_id_fk" FOREIGN KEY ("approved_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_entries" ADD CONSTRAINT "fee_entries_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_payment_links" ADD CONSTRAINT "fee_payment_links_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_payment_links" ADD CONSTRAINT "fee_payment_links_account_id_fee_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."fee_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_payment_links" ADD CONSTRAINT "fee_payment_links_due_id_fee_dues_id_fk" FOREIGN KEY ("due_id") REFERENCES "public"."fee_dues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_payment_links" ADD CONSTRAINT "fee_payment_links_merchant_account_id_merchant_accounts_id_fk" FOREIGN KEY ("merchant_account_id") REFERENCES "public"."merchant_accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_payment_links" ADD CONSTRAINT "fee_payment_links_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_plans" ADD CONSTRAINT "fee_plans_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_plans" ADD CONSTRAINT "fee_plans_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_receipt_reversals" ADD CONSTRAINT "fee_receipt_reversals_receipt_id_fee_receipts_id_fk" FOREIGN KEY ("receipt_id") REFERENCES "public"."fee_receipts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_receipt_reversals" ADD CONSTRAINT "fee_receipt_reversals_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_receipt_reversals" ADD CONSTRAINT "fee_receipt_reversals_reversed_by_id_users_id_fk" FOREIGN KEY ("reversed_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_receipts" ADD CONSTRAINT "fee_receipts_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_receipts" ADD CONSTRAINT "fee_receipts_account_id_fee_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."fee_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_receipts" ADD CONSTRAINT "fee_receipts_received_by_id_users_id_fk" FOREIGN KEY ("received_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_settings" ADD CONSTRAINT "fee_settings_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
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
CREATE UNIQUE INDEX "fee_accounts_student_plan_key" ON "fee_accounts" USING btree ("student_id","fee_plan_id");--> statement-breakpoint
CREATE INDEX "fee_accounts_center_idx" ON "fee_accounts" USING btree ("center_id","created_at");--> statement-breakpoint
CREATE INDEX "fee_cheque_events_cheque_idx" ON "fee_cheque_events" USING btree ("cheque_id","at");--> statement-breakpoint
CREATE INDEX "fee_cheques_center_status_idx" ON "fee_cheques" USING btree ("center_id","status","cheque_date");--> statement-breakpoint
CREATE INDEX "fee_cheques_account_idx" ON "fee_cheques" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "fee_dues_account_position_key" ON "fee_dues" USING btree ("account_id","position");--> statement-breakpoint
CREATE INDEX "fee_dues_center_due_idx" ON "fee_dues" USING btree ("center_id","due_on");--> statement-breakpoint
CREATE INDEX "fee_entries_account_idx" ON "fee_entries" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "fee_entries_due_idx" ON "fee_entries" USING btree ("due_id");--> statement-breakpoint
CREATE INDEX "fee_entries_receipt_idx" ON "fee_entries" USING btree ("receipt_id");--> statement-breakpoint
CREATE UNIQUE INDEX "fee_payment_links_gateway_key" ON "fee_payment_links" USING btree ("gateway_link_id");--> statement-breakpoint
CREATE INDEX "fee_payment_links_account_idx" ON "fee_payment_links" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "fee_plans_center_idx" ON "fee_plans" USING btree ("center_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "fee_receipts_number_key" ON "fee_receipts" USING btree ("center_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "fee_receipts_gateway_payment_key" ON "fee_receipts" USING btree ("gateway_payment_id") WHERE "fee_receipts"."gateway_payment_id" is not null;--> statement-breakpoint
CREATE INDEX "fee_receipts_account_idx" ON "fee_receipts" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "fee_receipts_center_paid_idx" ON "fee_receipts" USING btree ("center_id","paid_on");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_fee_account_id_fee_accounts_id_fk" FOREIGN KEY ("fee_account_id") REFERENCES "public"."fee_accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batches" ADD CONSTRAINT "batches_fee_plan_id_fee_plans_id_fk" FOREIGN KEY ("fee_plan_id") REFERENCES "public"."fee_plans"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_fee_check" CHECK ("orders"."subject"::text <> 'fee' or "orders"."fee_account_id" is not null);--> statement-breakpoint
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
CREATE POLICY "tenant_isolation" ON "fee_accounts" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "fee_accounts"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "fee_accounts"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "fee_cheque_events" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "fee_cheque_events"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "fee_cheque_events"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "fee_cheques" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "fee_cheques"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "fee_cheques"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "fee_dues" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "fee_dues"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "fee_dues"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "fee_entries" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "fee_entries"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "fee_entries"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "fee_payment_links" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "fee_payment_links"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "fee_payment_links"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "fee_plans" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "fee_plans"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "fee_plans"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "fee_receipt_reversals" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "fee_receipt_reversals"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "fee_receipt_reversals"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "fee_receipts" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "fee_receipts"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "fee_receipts"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "fee_settings" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "fee_settings"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "fee_settings"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);--> statement-breakpoint
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
ALTER TABLE "batch_contents" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "fee_plans" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "fee_accounts" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "fee_dues" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "fee_receipts" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "fee_receipt_reversals" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "fee_entries" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "fee_settings" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "fee_cheques" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "fee_cheque_events" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "fee_payment_links" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
-- A fee account's ledger, dues and receipts are append only: a mistake is a new entry (a
-- reversal, a waiver), never an edit, so every balance can be traced to what happened. Only the
-- institute's own removal, cascading down (a trigger deeper than this one), takes them away.
CREATE OR REPLACE FUNCTION "fees_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND pg_trigger_depth() > 1 THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION '% rows are never changed or deleted: record a reversal or a waiver instead', TG_TABLE_NAME
    USING ERRCODE = 'restrict_violation';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "fee_accounts_append_only" BEFORE UPDATE OR DELETE ON "fee_accounts" FOR EACH ROW EXECUTE FUNCTION "fees_append_only"();--> statement-breakpoint
CREATE TRIGGER "fee_dues_append_only" BEFORE UPDATE OR DELETE ON "fee_dues" FOR EACH ROW EXECUTE FUNCTION "fees_append_only"();--> statement-breakpoint
CREATE TRIGGER "fee_entries_append_only" BEFORE UPDATE OR DELETE ON "fee_entries" FOR EACH ROW EXECUTE FUNCTION "fees_append_only"();--> statement-breakpoint
CREATE TRIGGER "fee_receipts_append_only" BEFORE UPDATE OR DELETE ON "fee_receipts" FOR EACH ROW EXECUTE FUNCTION "fees_append_only"();--> statement-breakpoint
CREATE TRIGGER "fee_receipt_reversals_append_only" BEFORE UPDATE OR DELETE ON "fee_receipt_reversals" FOR EACH ROW EXECUTE FUNCTION "fees_append_only"();--> statement-breakpoint
CREATE TRIGGER "fee_cheque_events_append_only" BEFORE UPDATE OR DELETE ON "fee_cheque_events" FOR EACH ROW EXECUTE FUNCTION "fees_append_only"();
