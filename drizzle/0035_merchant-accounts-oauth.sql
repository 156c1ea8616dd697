CREATE TABLE "merchant_oauth_states" (
	"id" text PRIMARY KEY NOT NULL,
	"center_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"session_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "merchant_oauth_states" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "merchant_accounts" ALTER COLUMN "key_secret_sealed" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "merchant_accounts" ALTER COLUMN "webhook_secret_sealed" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "merchant_accounts" ADD COLUMN "razorpay_account_id" text;--> statement-breakpoint
ALTER TABLE "merchant_accounts" ADD COLUMN "access_token_sealed" text;--> statement-breakpoint
ALTER TABLE "merchant_accounts" ADD COLUMN "refresh_token_sealed" text;--> statement-breakpoint
ALTER TABLE "merchant_accounts" ADD COLUMN "token_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "merchant_accounts" ADD COLUMN "revoked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "merchant_oauth_states" ADD CONSTRAINT "merchant_oauth_states_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merchant_oauth_states" ADD CONSTRAINT "merchant_oauth_states_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "merchant_oauth_states_expires_idx" ON "merchant_oauth_states" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "merchant_accounts_razorpay_account_connected_key" ON "merchant_accounts" USING btree ("razorpay_account_id") WHERE "merchant_accounts"."status" = 'connected';--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "merchant_oauth_states" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "merchant_oauth_states"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "merchant_oauth_states"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);--> statement-breakpoint
-- Even a connection that stays the owner is subject to the policy (as 0032 did for merchant_accounts).
ALTER TABLE "merchant_oauth_states" FORCE ROW LEVEL SECURITY;
