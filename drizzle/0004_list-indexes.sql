DROP INDEX "centers_created_idx";--> statement-breakpoint
DROP INDEX "seminar_bookings_created_idx";--> statement-breakpoint
CREATE INDEX "contents_catalog_order_idx" ON "contents" USING btree ("live_starts_at","created_at" DESC NULLS FIRST,"id") WHERE "contents"."is_active" and "contents"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "centers_created_idx" ON "centers" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "seminar_bookings_created_idx" ON "seminar_bookings" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);