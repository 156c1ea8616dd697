ALTER TYPE "public"."fee_entry_kind" ADD VALUE 'refund';--> statement-breakpoint
ALTER TYPE "public"."fee_entry_kind" ADD VALUE 'cancellation';--> statement-breakpoint
CREATE TABLE "fee_refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"center_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"number" text NOT NULL,
	"financial_year" text NOT NULL,
	"seq" integer NOT NULL,
	"left_on" date NOT NULL,
	"amount" integer NOT NULL,
	"through_gateway" integer NOT NULL,
	"paid_out" integer NOT NULL,
	"mode" "fee_payment_mode",
	"reference" text,
	"reason" text NOT NULL,
	"working" jsonb NOT NULL,
	"gateway" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fee_refunds_amount_check" CHECK ("fee_refunds"."amount" > 0 and "fee_refunds"."amount" = "fee_refunds"."through_gateway" + "fee_refunds"."paid_out")
);
--> statement-breakpoint
ALTER TABLE "fee_refunds" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "fee_entries" ADD COLUMN "refund_id" uuid;--> statement-breakpoint
ALTER TABLE "fee_settings" ADD COLUMN "defaulter_holds_new_content" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "fee_refunds" ADD CONSTRAINT "fee_refunds_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_refunds" ADD CONSTRAINT "fee_refunds_account_id_fee_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."fee_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_refunds" ADD CONSTRAINT "fee_refunds_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "fee_refunds_account_key" ON "fee_refunds" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "fee_refunds_number_key" ON "fee_refunds" USING btree ("center_id","number");--> statement-breakpoint
CREATE INDEX "fee_refunds_center_idx" ON "fee_refunds" USING btree ("center_id","created_at");--> statement-breakpoint
ALTER TABLE "fee_entries" ADD CONSTRAINT "fee_entries_refund_id_fee_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."fee_refunds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fee_entries_refund_idx" ON "fee_entries" USING btree ("refund_id");--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "fee_refunds" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "fee_refunds"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "fee_refunds"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);--> statement-breakpoint
ALTER TABLE "fee_refunds" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TRIGGER "fee_refunds_append_only" BEFORE UPDATE OR DELETE ON "fee_refunds" FOR EACH ROW EXECUTE FUNCTION "fees_append_only"();
