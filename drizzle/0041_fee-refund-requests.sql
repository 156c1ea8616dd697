CREATE TABLE "fee_refund_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"center_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"left_on" date NOT NULL,
	"confirmed_on" date NOT NULL,
	"amount" integer NOT NULL,
	"through_gateway" integer NOT NULL,
	"paid_out" integer NOT NULL,
	"mode" "fee_payment_mode",
	"reference" text,
	"reason" text NOT NULL,
	"working" jsonb NOT NULL,
	"parts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"failure" text,
	"attempt" integer DEFAULT 1 NOT NULL,
	"attempted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"refund_id" uuid,
	"requested_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fee_refund_requests_status_check" CHECK ("fee_refund_requests"."status" in ('pending', 'failed', 'done')),
	CONSTRAINT "fee_refund_requests_amount_check" CHECK ("fee_refund_requests"."amount" > 0 and "fee_refund_requests"."amount" = "fee_refund_requests"."through_gateway" + "fee_refund_requests"."paid_out")
);
--> statement-breakpoint
ALTER TABLE "fee_refund_requests" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "fee_receipts" ADD COLUMN "merchant_account_id" uuid;--> statement-breakpoint
ALTER TABLE "fee_refund_requests" ADD CONSTRAINT "fee_refund_requests_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_refund_requests" ADD CONSTRAINT "fee_refund_requests_account_id_fee_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."fee_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_refund_requests" ADD CONSTRAINT "fee_refund_requests_refund_id_fee_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."fee_refunds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_refund_requests" ADD CONSTRAINT "fee_refund_requests_requested_by_id_users_id_fk" FOREIGN KEY ("requested_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "fee_refund_requests_account_key" ON "fee_refund_requests" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "fee_refund_requests_center_idx" ON "fee_refund_requests" USING btree ("center_id","created_at");--> statement-breakpoint
ALTER TABLE "fee_receipts" ADD CONSTRAINT "fee_receipts_merchant_account_id_merchant_accounts_id_fk" FOREIGN KEY ("merchant_account_id") REFERENCES "public"."merchant_accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "fee_refund_requests" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "fee_refund_requests"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "fee_refund_requests"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);--> statement-breakpoint
ALTER TABLE "fee_refund_requests" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
-- The account that took each online payment already receipted: its Checkout order's, found by the
-- payment id; else, for a payment link's, the one account that fee account's links were made on
-- (left unknown when they were made on two). Receipts are append only: the trigger steps aside.
ALTER TABLE "fee_receipts" DISABLE TRIGGER "fee_receipts_append_only";--> statement-breakpoint
UPDATE "fee_receipts" AS r SET "merchant_account_id" = o."merchant_account_id"
FROM "orders" AS o
WHERE r."gateway_payment_id" IS NOT NULL AND o."gateway_payment_id" = r."gateway_payment_id";--> statement-breakpoint
UPDATE "fee_receipts" AS r SET "merchant_account_id" = l."merchant_account_id"
FROM (
  SELECT "account_id", min("merchant_account_id"::text)::uuid AS "merchant_account_id"
  FROM "fee_payment_links"
  WHERE "merchant_account_id" IS NOT NULL
  GROUP BY "account_id"
  HAVING count(DISTINCT "merchant_account_id") = 1
) AS l
WHERE r."gateway_payment_id" IS NOT NULL
  AND r."merchant_account_id" IS NULL
  AND r."account_id" = l."account_id"
  AND NOT EXISTS (SELECT 1 FROM "orders" AS o WHERE o."gateway_payment_id" = r."gateway_payment_id");--> statement-breakpoint
ALTER TABLE "fee_receipts" ENABLE TRIGGER "fee_receipts_append_only";
