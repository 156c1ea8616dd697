CREATE TYPE "public"."billing" AS ENUM('monthly', 'quarterly', 'yearly');--> statement-breakpoint
CREATE TYPE "public"."center_status" AS ENUM('active', 'inactive');--> statement-breakpoint
CREATE TYPE "public"."content_type" AS ENUM('pdf', 'video', 'live');--> statement-breakpoint
CREATE TYPE "public"."enquiry_status" AS ENUM('new', 'contacted', 'enrolled');--> statement-breakpoint
CREATE TYPE "public"."payment_status" AS ENUM('created', 'paid', 'failed');--> statement-breakpoint
CREATE TYPE "public"."role" AS ENUM('student', 'creator', 'business', 'admin');--> statement-breakpoint
CREATE TYPE "public"."session_kind" AS ENUM('web', 'access', 'refresh');--> statement-breakpoint
CREATE TABLE "rate_limit_hits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"bucket" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" "session_kind" NOT NULL,
	"host" text NOT NULL,
	"family_id" uuid,
	"persistent" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"absolute_expires_at" timestamp with time zone NOT NULL,
	"rotated_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"ip" text,
	"user_agent" text
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"role" "role" NOT NULL,
	"avatar_key" text,
	"signup_center_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "centers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"institute_name" text NOT NULL,
	"custom_domain" text,
	"website" text,
	"super_admin_path" text DEFAULT '/admin' NOT NULL,
	"owner_id" uuid,
	"plan_id" uuid,
	"plan_name" text,
	"billing" "billing",
	"status" "center_status" DEFAULT 'active' NOT NULL,
	"starts_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"template_id" text DEFAULT 't1' NOT NULL,
	"site_profile" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"site_version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "enquiries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"center_id" uuid NOT NULL,
	"name" text NOT NULL,
	"phone" text NOT NULL,
	"email" text NOT NULL,
	"program" text,
	"message" text,
	"status" "enquiry_status" DEFAULT 'new' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "template_selections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"center_id" uuid NOT NULL,
	"user_id" uuid,
	"template_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pricing_plans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"currency" text DEFAULT 'INR' NOT NULL,
	"monthly_price" integer NOT NULL,
	"quarterly_price" integer NOT NULL,
	"yearly_price" integer NOT NULL,
	"active_duration" "billing" DEFAULT 'monthly' NOT NULL,
	"quarterly_months" integer DEFAULT 3 NOT NULL,
	"yearly_years" integer DEFAULT 1 NOT NULL,
	"features" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"is_popular" boolean DEFAULT false NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "purchases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"center_id" uuid,
	"plan_id" uuid,
	"plan_name" text NOT NULL,
	"billing" "billing" NOT NULL,
	"duration_days" integer NOT NULL,
	"amount" integer NOT NULL,
	"currency" text DEFAULT 'INR' NOT NULL,
	"institute_name" text NOT NULL,
	"owner_name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text,
	"domain" text NOT NULL,
	"gateway_order_id" text NOT NULL,
	"gateway_payment_id" text,
	"status" "payment_status" DEFAULT 'created' NOT NULL,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" text PRIMARY KEY NOT NULL,
	"event" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "content_orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"content_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"creator_id" uuid NOT NULL,
	"center_id" uuid,
	"amount" integer NOT NULL,
	"currency" text DEFAULT 'INR' NOT NULL,
	"gateway_order_id" text NOT NULL,
	"gateway_payment_id" text,
	"status" "payment_status" DEFAULT 'created' NOT NULL,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"creator_id" uuid NOT NULL,
	"center_id" uuid,
	"type" "content_type" NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"price" integer DEFAULT 0 NOT NULL,
	"file_key" text,
	"file_name" text,
	"file_size" bigint,
	"file_mime" text,
	"thumbnail_key" text,
	"live_link" text,
	"live_starts_at" timestamp with time zone,
	"is_active" boolean DEFAULT true NOT NULL,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "enrollments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"student_id" uuid NOT NULL,
	"content_id" uuid NOT NULL,
	"order_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "admin_notification_state" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"purchases_seen_at" timestamp with time zone,
	"selections_seen_at" timestamp with time zone,
	"purchases_cleared_at" timestamp with time zone,
	"selections_cleared_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_meta" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "seminar_bookings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"full_name" text NOT NULL,
	"email" text NOT NULL,
	"phone_number" text NOT NULL,
	"city" text NOT NULL,
	"country" text NOT NULL,
	"date" date NOT NULL,
	"time" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_signup_center_id_centers_id_fk" FOREIGN KEY ("signup_center_id") REFERENCES "public"."centers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "centers" ADD CONSTRAINT "centers_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "centers" ADD CONSTRAINT "centers_plan_id_pricing_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."pricing_plans"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enquiries" ADD CONSTRAINT "enquiries_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_selections" ADD CONSTRAINT "template_selections_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_selections" ADD CONSTRAINT "template_selections_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_plan_id_pricing_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."pricing_plans"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_orders" ADD CONSTRAINT "content_orders_content_id_contents_id_fk" FOREIGN KEY ("content_id") REFERENCES "public"."contents"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_orders" ADD CONSTRAINT "content_orders_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_orders" ADD CONSTRAINT "content_orders_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_orders" ADD CONSTRAINT "content_orders_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contents" ADD CONSTRAINT "contents_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contents" ADD CONSTRAINT "contents_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrollments" ADD CONSTRAINT "enrollments_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrollments" ADD CONSTRAINT "enrollments_content_id_contents_id_fk" FOREIGN KEY ("content_id") REFERENCES "public"."contents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrollments" ADD CONSTRAINT "enrollments_order_id_content_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."content_orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_notification_state" ADD CONSTRAINT "admin_notification_state_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rate_limit_hits_bucket_time_idx" ON "rate_limit_hits" USING btree ("bucket","created_at");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_family_idx" ON "sessions" USING btree ("family_id") WHERE "sessions"."family_id" is not null;--> statement-breakpoint
CREATE INDEX "sessions_expires_idx" ON "sessions" USING btree ("absolute_expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "users" USING btree ("email");--> statement-breakpoint
CREATE INDEX "users_role_created_idx" ON "users" USING btree ("role","created_at");--> statement-breakpoint
CREATE INDEX "users_signup_center_idx" ON "users" USING btree ("signup_center_id");--> statement-breakpoint
CREATE UNIQUE INDEX "centers_slug_key" ON "centers" USING btree ("slug");--> statement-breakpoint
CREATE UNIQUE INDEX "centers_custom_domain_key" ON "centers" USING btree ("custom_domain") WHERE "centers"."custom_domain" is not null;--> statement-breakpoint
CREATE INDEX "centers_owner_idx" ON "centers" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "centers_created_idx" ON "centers" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "enquiries_center_created_idx" ON "enquiries" USING btree ("center_id","created_at");--> statement-breakpoint
CREATE INDEX "template_selections_created_idx" ON "template_selections" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "template_selections_center_idx" ON "template_selections" USING btree ("center_id","created_at");--> statement-breakpoint
CREATE INDEX "pricing_plans_active_order_idx" ON "pricing_plans" USING btree ("is_active","sort_order");--> statement-breakpoint
CREATE UNIQUE INDEX "purchases_gateway_order_key" ON "purchases" USING btree ("gateway_order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "purchases_gateway_payment_key" ON "purchases" USING btree ("gateway_payment_id") WHERE "purchases"."gateway_payment_id" is not null;--> statement-breakpoint
CREATE INDEX "purchases_user_created_idx" ON "purchases" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "purchases_center_idx" ON "purchases" USING btree ("center_id");--> statement-breakpoint
CREATE INDEX "purchases_plan_idx" ON "purchases" USING btree ("plan_id");--> statement-breakpoint
CREATE INDEX "purchases_paid_idx" ON "purchases" USING btree ("paid_at") WHERE "purchases"."status" = 'paid';--> statement-breakpoint
CREATE UNIQUE INDEX "content_orders_gateway_order_key" ON "content_orders" USING btree ("gateway_order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "content_orders_gateway_payment_key" ON "content_orders" USING btree ("gateway_payment_id") WHERE "content_orders"."gateway_payment_id" is not null;--> statement-breakpoint
CREATE INDEX "content_orders_creator_paid_idx" ON "content_orders" USING btree ("creator_id","paid_at") WHERE "content_orders"."status" = 'paid';--> statement-breakpoint
CREATE INDEX "content_orders_content_idx" ON "content_orders" USING btree ("content_id");--> statement-breakpoint
CREATE INDEX "content_orders_student_idx" ON "content_orders" USING btree ("student_id");--> statement-breakpoint
CREATE INDEX "content_orders_center_paid_idx" ON "content_orders" USING btree ("center_id","paid_at") WHERE "content_orders"."status" = 'paid';--> statement-breakpoint
CREATE INDEX "contents_creator_created_idx" ON "contents" USING btree ("creator_id","created_at");--> statement-breakpoint
CREATE INDEX "contents_center_type_idx" ON "contents" USING btree ("center_id","type") WHERE "contents"."is_active" and "contents"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "contents_catalog_idx" ON "contents" USING btree ("type","created_at") WHERE "contents"."is_active" and "contents"."archived_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "enrollments_student_content_key" ON "enrollments" USING btree ("student_id","content_id");--> statement-breakpoint
CREATE INDEX "enrollments_student_created_idx" ON "enrollments" USING btree ("student_id","created_at");--> statement-breakpoint
CREATE INDEX "enrollments_content_idx" ON "enrollments" USING btree ("content_id");--> statement-breakpoint
CREATE UNIQUE INDEX "seminar_bookings_email_date_key" ON "seminar_bookings" USING btree ("email","date");--> statement-breakpoint
CREATE INDEX "seminar_bookings_created_idx" ON "seminar_bookings" USING btree ("created_at");