CREATE TABLE "merchant_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"center_id" uuid NOT NULL,
	"method" text NOT NULL,
	"key_id" text NOT NULL,
	"key_secret_sealed" text NOT NULL,
	"webhook_secret_sealed" text NOT NULL,
	"status" text DEFAULT 'connected' NOT NULL,
	"connected_by" uuid,
	"connected_at" timestamp with time zone DEFAULT now() NOT NULL,
	"disconnected_by" uuid,
	"disconnected_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "merchant_accounts" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "merchant_accounts" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "centers" ADD COLUMN "merchant_account_id" uuid;--> statement-breakpoint
ALTER TABLE "content_orders" ADD COLUMN "merchant_account_id" uuid;--> statement-breakpoint
ALTER TABLE "merchant_accounts" ADD CONSTRAINT "merchant_accounts_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merchant_accounts" ADD CONSTRAINT "merchant_accounts_connected_by_users_id_fk" FOREIGN KEY ("connected_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merchant_accounts" ADD CONSTRAINT "merchant_accounts_disconnected_by_users_id_fk" FOREIGN KEY ("disconnected_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "merchant_accounts_key_connected_key" ON "merchant_accounts" USING btree ("key_id") WHERE "merchant_accounts"."status" = 'connected';--> statement-breakpoint
CREATE UNIQUE INDEX "merchant_accounts_center_connected_key" ON "merchant_accounts" USING btree ("center_id") WHERE "merchant_accounts"."status" = 'connected';--> statement-breakpoint
CREATE INDEX "merchant_accounts_center_idx" ON "merchant_accounts" USING btree ("center_id","connected_at");--> statement-breakpoint
ALTER TABLE "content_orders" ADD CONSTRAINT "content_orders_merchant_account_id_merchant_accounts_id_fk" FOREIGN KEY ("merchant_account_id") REFERENCES "public"."merchant_accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "merchant_accounts" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "merchant_accounts"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "merchant_accounts"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);