ALTER TABLE "attempts" ADD COLUMN "current_question_id" uuid;--> statement-breakpoint
ALTER TABLE "attempts" ADD COLUMN "language" text;