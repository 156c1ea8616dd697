ALTER TABLE "questions" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "attempts" ADD COLUMN "logged_events" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "center_id" uuid;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "questions_center_created_idx" ON "questions" USING btree ("center_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "questions_center_chapter_idx" ON "questions" USING btree ("center_id","subject","chapter","difficulty");--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "questions" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "questions"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "questions"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);