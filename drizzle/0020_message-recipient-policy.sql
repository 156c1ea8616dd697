ALTER TYPE "public"."message_status" ADD VALUE 'held';--> statement-breakpoint
ALTER TABLE "centers" ADD COLUMN "international_messages" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "requested_by" uuid;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "requested_from" text;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "messages_recipient_idx" ON "messages" USING btree ("recipient","created_at");--> statement-breakpoint
CREATE INDEX "messages_center_idx" ON "messages" USING btree ("center_id","created_at");--> statement-breakpoint
CREATE INDEX "messages_requested_by_idx" ON "messages" USING btree ("requested_by","created_at") WHERE "messages"."requested_by" is not null;--> statement-breakpoint
CREATE INDEX "messages_requested_from_idx" ON "messages" USING btree ("requested_from","created_at") WHERE "messages"."requested_from" is not null;