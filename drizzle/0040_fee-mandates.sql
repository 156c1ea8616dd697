CREATE TYPE "public"."fee_mandate_rail" AS ENUM('upi-autopay', 'e-mandate');--> statement-breakpoint
CREATE TYPE "public"."fee_mandate_status" AS ENUM('created', 'pending', 'active', 'rejected', 'cancelled');--> statement-breakpoint
CREATE TABLE "fee_mandate_debits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"center_id" uuid NOT NULL,
	"mandate_id" uuid NOT NULL,
	"due_id" uuid NOT NULL,
	"order_id" uuid,
	"amount" integer NOT NULL,
	"gateway_payment_id" text,
	"error" text,
	"presented_on" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fee_mandate_debits_amount_check" CHECK ("fee_mandate_debits"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "fee_mandate_debits" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "fee_mandates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"center_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"payer_id" uuid NOT NULL,
	"rail" "fee_mandate_rail" NOT NULL,
	"max_amount" integer NOT NULL,
	"merchant_account_id" uuid,
	"gateway_customer_id" text NOT NULL,
	"auth_order_id" text NOT NULL,
	"auth_amount" integer NOT NULL,
	"auth_payment_id" text,
	"auth_refunded_at" timestamp with time zone,
	"token_id" text,
	"status" "fee_mandate_status" DEFAULT 'created' NOT NULL,
	"status_reason" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"activated_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"cancelled_by_id" uuid,
	CONSTRAINT "fee_mandates_max_amount_check" CHECK ("fee_mandates"."max_amount" >= 100)
);
--> statement-breakpoint
ALTER TABLE "fee_mandates" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "fee_mandate_debits" ADD CONSTRAINT "fee_mandate_debits_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_mandate_debits" ADD CONSTRAINT "fee_mandate_debits_mandate_id_fee_mandates_id_fk" FOREIGN KEY ("mandate_id") REFERENCES "public"."fee_mandates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_mandate_debits" ADD CONSTRAINT "fee_mandate_debits_due_id_fee_dues_id_fk" FOREIGN KEY ("due_id") REFERENCES "public"."fee_dues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_mandates" ADD CONSTRAINT "fee_mandates_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_mandates" ADD CONSTRAINT "fee_mandates_account_id_fee_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."fee_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_mandates" ADD CONSTRAINT "fee_mandates_payer_id_users_id_fk" FOREIGN KEY ("payer_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_mandates" ADD CONSTRAINT "fee_mandates_merchant_account_id_merchant_accounts_id_fk" FOREIGN KEY ("merchant_account_id") REFERENCES "public"."merchant_accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_mandates" ADD CONSTRAINT "fee_mandates_cancelled_by_id_users_id_fk" FOREIGN KEY ("cancelled_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "fee_mandate_debits_due_key" ON "fee_mandate_debits" USING btree ("mandate_id","due_id");--> statement-breakpoint
CREATE INDEX "fee_mandate_debits_order_idx" ON "fee_mandate_debits" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "fee_mandates_auth_order_key" ON "fee_mandates" USING btree ("auth_order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "fee_mandates_token_key" ON "fee_mandates" USING btree ("token_id");--> statement-breakpoint
CREATE UNIQUE INDEX "fee_mandates_live_key" ON "fee_mandates" USING btree ("account_id") WHERE "fee_mandates"."status" in ('pending', 'active');--> statement-breakpoint
CREATE INDEX "fee_mandates_account_idx" ON "fee_mandates" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "fee_mandate_debits" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "fee_mandate_debits"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "fee_mandate_debits"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "fee_mandates" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "fee_mandates"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "fee_mandates"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);--> statement-breakpoint
ALTER TABLE "fee_mandates" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "fee_mandate_debits" FORCE ROW LEVEL SECURITY;
