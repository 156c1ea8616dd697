CREATE TYPE "public"."invoice_kind" AS ENUM('invoice', 'bill_of_supply', 'credit_note');--> statement-breakpoint
CREATE TABLE "invoice_counters" (
	"series" text NOT NULL,
	"financial_year" text NOT NULL,
	"last_seq" integer NOT NULL,
	CONSTRAINT "invoice_counters_series_financial_year_pk" PRIMARY KEY("series","financial_year")
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" "invoice_kind" NOT NULL,
	"series" text NOT NULL,
	"financial_year" text NOT NULL,
	"seq" integer NOT NULL,
	"number" text NOT NULL,
	"seller_center_id" uuid,
	"seller_name" text NOT NULL,
	"seller_address" text,
	"seller_gstin" text,
	"seller_state" text,
	"buyer_user_id" uuid NOT NULL,
	"buyer_name" text NOT NULL,
	"buyer_email" text NOT NULL,
	"buyer_gstin" text,
	"buyer_state" text,
	"place_of_supply" text,
	"description" text NOT NULL,
	"sac" text NOT NULL,
	"rate" integer NOT NULL,
	"taxable" integer NOT NULL,
	"cgst" integer NOT NULL,
	"sgst" integer NOT NULL,
	"igst" integer NOT NULL,
	"total" integer NOT NULL,
	"currency" text DEFAULT 'INR' NOT NULL,
	"payment_id" text,
	"purchase_id" uuid,
	"content_order_id" uuid,
	"refund_id" uuid,
	"original_id" uuid,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invoices" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "gst_state" text;--> statement-breakpoint
ALTER TABLE "centers" ADD COLUMN "legal_name" text;--> statement-breakpoint
ALTER TABLE "centers" ADD COLUMN "billing_address" text;--> statement-breakpoint
ALTER TABLE "centers" ADD COLUMN "gst_state" text;--> statement-breakpoint
ALTER TABLE "centers" ADD COLUMN "gstin" text;--> statement-breakpoint
ALTER TABLE "platform_settings" ADD COLUMN "sac_code" text;--> statement-breakpoint
ALTER TABLE "platform_settings" ADD COLUMN "gst_rate" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "invoice_id" uuid;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_seller_center_id_centers_id_fk" FOREIGN KEY ("seller_center_id") REFERENCES "public"."centers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_buyer_user_id_users_id_fk" FOREIGN KEY ("buyer_user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_purchase_id_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchases"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_content_order_id_content_orders_id_fk" FOREIGN KEY ("content_order_id") REFERENCES "public"."content_orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_refund_id_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refunds"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_number_key" ON "invoices" USING btree ("series","financial_year","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_purchase_key" ON "invoices" USING btree ("purchase_id") WHERE "invoices"."purchase_id" is not null and "invoices"."kind" <> 'credit_note';--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_content_order_key" ON "invoices" USING btree ("content_order_id") WHERE "invoices"."content_order_id" is not null and "invoices"."kind" <> 'credit_note';--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_refund_key" ON "invoices" USING btree ("refund_id") WHERE "invoices"."refund_id" is not null;--> statement-breakpoint
CREATE INDEX "invoices_buyer_idx" ON "invoices" USING btree ("buyer_user_id","issued_at");--> statement-breakpoint
CREATE INDEX "invoices_seller_idx" ON "invoices" USING btree ("seller_center_id","issued_at");--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "invoices" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "invoices"."seller_center_id" is null or "invoices"."seller_center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "invoices"."seller_center_id" is null or "invoices"."seller_center_id" = nullif(current_setting('app.center_id', true), '')::uuid);--> statement-breakpoint
-- As for the other tables with an institute (migration 0003): the policies bind the owner too.
ALTER TABLE "invoices" FORCE ROW LEVEL SECURITY;