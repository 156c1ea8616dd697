DROP POLICY "tenant_isolation" ON "team_members" CASCADE;--> statement-breakpoint
DROP TABLE "team_members" CASCADE;--> statement-breakpoint
DROP TYPE "public"."team_status";