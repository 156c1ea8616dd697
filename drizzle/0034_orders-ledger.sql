-- Issue 40 §2: one order ledger. Plan purchases and content orders become rows of `orders` with
-- their ids kept (receipts at the gateway, links in messages and enrolments still find them); a plan
-- order's terms move to `plan_orders`; refunds and invoices point at the order. Nothing is dropped
-- before its rows are copied.
CREATE TYPE "public"."order_subject" AS ENUM('plan', 'content');--> statement-breakpoint
CREATE TABLE "orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subject" "order_subject" NOT NULL,
	"plan_id" uuid,
	"content_id" uuid,
	"buyer_id" uuid NOT NULL,
	"seller_center_id" uuid,
	"creator_id" uuid,
	"amount" integer NOT NULL,
	"currency" text DEFAULT 'INR' NOT NULL,
	"merchant_account_id" uuid,
	"gateway_order_id" text NOT NULL,
	"gateway_payment_id" text,
	"status" "payment_status" DEFAULT 'created' NOT NULL,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "orders_subject_check" CHECK ("orders"."subject" <> 'content' or "orders"."content_id" is not null)
);--> statement-breakpoint
CREATE TABLE "plan_orders" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"plan_name" text NOT NULL,
	"billing" "billing" NOT NULL,
	"duration_days" integer NOT NULL,
	"institute_name" text NOT NULL,
	"owner_name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text,
	"domain" text NOT NULL,
	"center_id" uuid
);--> statement-breakpoint
INSERT INTO "orders" ("id", "subject", "plan_id", "content_id", "buyer_id", "seller_center_id", "creator_id", "amount", "currency", "merchant_account_id", "gateway_order_id", "gateway_payment_id", "status", "paid_at", "created_at")
  SELECT "id", 'plan', "plan_id", NULL, "user_id", NULL, NULL, "amount", "currency", NULL, "gateway_order_id", "gateway_payment_id", "status", "paid_at", "created_at" FROM "purchases";--> statement-breakpoint
INSERT INTO "plan_orders" ("order_id", "plan_name", "billing", "duration_days", "institute_name", "owner_name", "email", "phone", "domain", "center_id")
  SELECT "id", "plan_name", "billing", "duration_days", "institute_name", "owner_name", "email", "phone", "domain", "center_id" FROM "purchases";--> statement-breakpoint
INSERT INTO "orders" ("id", "subject", "plan_id", "content_id", "buyer_id", "seller_center_id", "creator_id", "amount", "currency", "merchant_account_id", "gateway_order_id", "gateway_payment_id", "status", "paid_at", "created_at")
  SELECT "id", 'content', NULL, "content_id", "student_id", "center_id", "creator_id", "amount", "currency", "merchant_account_id", "gateway_order_id", "gateway_payment_id", "status", "paid_at", "created_at" FROM "content_orders";--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "order_id" uuid;--> statement-breakpoint
UPDATE "refunds" SET "order_id" = "purchase_id";--> statement-breakpoint
ALTER TABLE "refunds" ALTER COLUMN "order_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "order_id" uuid;--> statement-breakpoint
UPDATE "invoices" SET "order_id" = coalesce("purchase_id", "content_order_id");--> statement-breakpoint
ALTER TABLE "refunds" DROP CONSTRAINT "refunds_purchase_id_purchases_id_fk";--> statement-breakpoint
ALTER TABLE "enrollments" DROP CONSTRAINT "enrollments_order_id_content_orders_id_fk";--> statement-breakpoint
ALTER TABLE "invoices" DROP CONSTRAINT "invoices_purchase_id_purchases_id_fk";--> statement-breakpoint
ALTER TABLE "invoices" DROP CONSTRAINT "invoices_content_order_id_content_orders_id_fk";--> statement-breakpoint
DROP INDEX "refunds_purchase_live_key";--> statement-breakpoint
DROP INDEX "invoices_purchase_key";--> statement-breakpoint
DROP INDEX "invoices_content_order_key";--> statement-breakpoint
ALTER TABLE "refunds" DROP COLUMN "purchase_id";--> statement-breakpoint
ALTER TABLE "invoices" DROP COLUMN "purchase_id";--> statement-breakpoint
ALTER TABLE "invoices" DROP COLUMN "content_order_id";--> statement-breakpoint
DROP TABLE "purchases";--> statement-breakpoint
DROP TABLE "content_orders";--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_plan_id_pricing_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."pricing_plans"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_content_id_contents_id_fk" FOREIGN KEY ("content_id") REFERENCES "public"."contents"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_seller_center_id_centers_id_fk" FOREIGN KEY ("seller_center_id") REFERENCES "public"."centers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_merchant_account_id_merchant_accounts_id_fk" FOREIGN KEY ("merchant_account_id") REFERENCES "public"."merchant_accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_orders" ADD CONSTRAINT "plan_orders_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_orders" ADD CONSTRAINT "plan_orders_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_gateway_order_key" ON "orders" USING btree ("gateway_order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_gateway_payment_key" ON "orders" USING btree ("gateway_payment_id") WHERE "orders"."gateway_payment_id" is not null;--> statement-breakpoint
CREATE INDEX "orders_buyer_created_idx" ON "orders" USING btree ("buyer_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_plan_idx" ON "orders" USING btree ("plan_id");--> statement-breakpoint
CREATE INDEX "orders_content_idx" ON "orders" USING btree ("content_id");--> statement-breakpoint
CREATE INDEX "orders_paid_idx" ON "orders" USING btree ("subject","paid_at") WHERE "orders"."status" = 'paid';--> statement-breakpoint
CREATE INDEX "orders_creator_paid_idx" ON "orders" USING btree ("creator_id","paid_at") WHERE "orders"."status" = 'paid';--> statement-breakpoint
CREATE INDEX "orders_seller_paid_idx" ON "orders" USING btree ("seller_center_id","paid_at") WHERE "orders"."status" = 'paid';--> statement-breakpoint
CREATE INDEX "plan_orders_center_idx" ON "plan_orders" USING btree ("center_id");--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrollments" ADD CONSTRAINT "enrollments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_order_live_key" ON "refunds" USING btree ("order_id") WHERE "refunds"."status" <> 'failed';--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_order_key" ON "invoices" USING btree ("order_id") WHERE "invoices"."order_id" is not null and "invoices"."kind" <> 'credit_note';--> statement-breakpoint
-- A paid order placed with an institute makes its buyer a student there (as 0029 did for content_orders).
CREATE OR REPLACE FUNCTION "make_student_membership"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  center uuid;
  student uuid;
BEGIN
  IF TG_TABLE_NAME = 'users' THEN
    center := NEW."signup_center_id"; student := NEW."id";
  ELSIF TG_TABLE_NAME = 'enrollments' THEN
    SELECT c."center_id" INTO center FROM "contents" c WHERE c."id" = NEW."content_id"; student := NEW."student_id";
  ELSIF TG_TABLE_NAME = 'orders' THEN
    center := NEW."seller_center_id"; student := NEW."buyer_id";
  ELSE
    center := NEW."center_id"; student := NEW."student_id";
  END IF;
  IF center IS NOT NULL THEN
    INSERT INTO "memberships" ("center_id", "user_id", "role", "status", "accepted_at")
      SELECT center, u."id", 'student', 'active', now() FROM "users" u
      WHERE u."id" = student AND u."role" = 'student'
        AND NOT EXISTS (SELECT 1 FROM "memberships" m WHERE m."center_id" = center AND m."user_id" = student AND m."role" = 'student' AND m."status" = 'active')
      ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "orders_student_membership" AFTER INSERT OR UPDATE OF "status" ON "orders" FOR EACH ROW WHEN (NEW."status" = 'paid' AND NEW."subject" = 'content' AND NEW."seller_center_id" IS NOT NULL) EXECUTE FUNCTION "make_student_membership"();--> statement-breakpoint
ALTER TABLE "orders" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
-- Even a connection that stays the owner is subject to the policy (as 0003 did for content_orders).
ALTER TABLE "orders" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "orders" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "orders"."seller_center_id" is null or "orders"."seller_center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "orders"."seller_center_id" is null or "orders"."seller_center_id" = nullif(current_setting('app.center_id', true), '')::uuid);
