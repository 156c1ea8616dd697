CREATE TABLE "domain_claims" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"center_id" uuid NOT NULL,
	"domain" text NOT NULL,
	"token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"checked_at" timestamp with time zone,
	"last_outcome" text
);
--> statement-breakpoint
DROP INDEX "trials_domain_key";--> statement-breakpoint
ALTER TABLE "domain_claims" ADD CONSTRAINT "domain_claims_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "domain_claims_center_key" ON "domain_claims" USING btree ("center_id");--> statement-breakpoint
CREATE UNIQUE INDEX "domain_claims_token_key" ON "domain_claims" USING btree ("token");--> statement-breakpoint
CREATE INDEX "domain_claims_domain_idx" ON "domain_claims" USING btree ("domain");--> statement-breakpoint
CREATE INDEX "trials_domain_idx" ON "trials" USING btree ("domain");