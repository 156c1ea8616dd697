CREATE TYPE "public"."fee_entry_kind" AS ENUM('due', 'discount', 'payment', 'late-fee', 'waiver', 'reversal');--> statement-breakpoint
CREATE TYPE "public"."fee_payment_mode" AS ENUM('cash', 'cheque', 'dd', 'upi', 'bank', 'online');--> statement-breakpoint
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
CREATE TABLE "fee_plans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"center_id" uuid NOT NULL,
	"batch_id" uuid,
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
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fee_receipts_amount_check" CHECK ("fee_receipts"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "fee_receipts" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "fee_accounts" ADD CONSTRAINT "fee_accounts_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_accounts" ADD CONSTRAINT "fee_accounts_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_accounts" ADD CONSTRAINT "fee_accounts_fee_plan_id_fee_plans_id_fk" FOREIGN KEY ("fee_plan_id") REFERENCES "public"."fee_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_accounts" ADD CONSTRAINT "fee_accounts_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_dues" ADD CONSTRAINT "fee_dues_account_id_fee_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."fee_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_dues" ADD CONSTRAINT "fee_dues_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_entries" ADD CONSTRAINT "fee_entries_account_id_fee_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."fee_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_entries" ADD CONSTRAINT "fee_entries_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_entries" ADD CONSTRAINT "fee_entries_due_id_fee_dues_id_fk" FOREIGN KEY ("due_id") REFERENCES "public"."fee_dues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_entries" ADD CONSTRAINT "fee_entries_receipt_id_fee_receipts_id_fk" FOREIGN KEY ("receipt_id") REFERENCES "public"."fee_receipts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_entries" ADD CONSTRAINT "fee_entries_reverses_id_fee_entries_id_fk" FOREIGN KEY ("reverses_id") REFERENCES "public"."fee_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_entries" ADD CONSTRAINT "fee_entries_approved_by_id_users_id_fk" FOREIGN KEY ("approved_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_entries" ADD CONSTRAINT "fee_entries_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_plans" ADD CONSTRAINT "fee_plans_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_plans" ADD CONSTRAINT "fee_plans_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_plans" ADD CONSTRAINT "fee_plans_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_receipt_reversals" ADD CONSTRAINT "fee_receipt_reversals_receipt_id_fee_receipts_id_fk" FOREIGN KEY ("receipt_id") REFERENCES "public"."fee_receipts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_receipt_reversals" ADD CONSTRAINT "fee_receipt_reversals_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_receipt_reversals" ADD CONSTRAINT "fee_receipt_reversals_reversed_by_id_users_id_fk" FOREIGN KEY ("reversed_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_receipts" ADD CONSTRAINT "fee_receipts_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_receipts" ADD CONSTRAINT "fee_receipts_account_id_fee_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."fee_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_receipts" ADD CONSTRAINT "fee_receipts_received_by_id_users_id_fk" FOREIGN KEY ("received_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "fee_accounts_student_plan_key" ON "fee_accounts" USING btree ("student_id","fee_plan_id");--> statement-breakpoint
CREATE INDEX "fee_accounts_center_idx" ON "fee_accounts" USING btree ("center_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "fee_dues_account_position_key" ON "fee_dues" USING btree ("account_id","position");--> statement-breakpoint
CREATE INDEX "fee_dues_center_due_idx" ON "fee_dues" USING btree ("center_id","due_on");--> statement-breakpoint
CREATE INDEX "fee_entries_account_idx" ON "fee_entries" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "fee_entries_due_idx" ON "fee_entries" USING btree ("due_id");--> statement-breakpoint
CREATE INDEX "fee_entries_receipt_idx" ON "fee_entries" USING btree ("receipt_id");--> statement-breakpoint
CREATE INDEX "fee_plans_center_idx" ON "fee_plans" USING btree ("center_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "fee_receipts_number_key" ON "fee_receipts" USING btree ("center_id","number");--> statement-breakpoint
CREATE INDEX "fee_receipts_account_idx" ON "fee_receipts" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "fee_receipts_center_paid_idx" ON "fee_receipts" USING btree ("center_id","paid_on");--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "fee_accounts" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "fee_accounts"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "fee_accounts"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "fee_dues" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "fee_dues"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "fee_dues"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "fee_entries" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "fee_entries"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "fee_entries"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "fee_plans" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "fee_plans"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "fee_plans"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "fee_receipt_reversals" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "fee_receipt_reversals"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "fee_receipt_reversals"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "fee_receipts" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "fee_receipts"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "fee_receipts"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);--> statement-breakpoint
-- Even a connection that stays the owner is subject to the policy (as 0032 did for tenant tables).
ALTER TABLE "fee_plans" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "fee_accounts" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "fee_dues" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "fee_receipts" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "fee_receipt_reversals" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "fee_entries" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
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
CREATE TRIGGER "fee_receipt_reversals_append_only" BEFORE UPDATE OR DELETE ON "fee_receipt_reversals" FOR EACH ROW EXECUTE FUNCTION "fees_append_only"();
