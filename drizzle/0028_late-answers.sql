CREATE TABLE "late_answers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"attempt_id" uuid NOT NULL,
	"question_id" uuid NOT NULL,
	"answer" text,
	"marked_for_review" boolean DEFAULT false NOT NULL,
	"seq" integer NOT NULL,
	"answered_at" timestamp with time zone,
	"arrived_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decision" text NOT NULL,
	"reason" text NOT NULL,
	"grace_minutes" integer NOT NULL,
	"reviewed_by" uuid,
	"reviewed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "centers" ADD COLUMN "late_answer_grace_minutes" integer DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE "centers" ADD COLUMN "late_answer_policy" text DEFAULT 'count' NOT NULL;--> statement-breakpoint
ALTER TABLE "attempt_responses" ADD COLUMN "answered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "late_answers" ADD CONSTRAINT "late_answers_attempt_id_attempts_id_fk" FOREIGN KEY ("attempt_id") REFERENCES "public"."attempts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "late_answers" ADD CONSTRAINT "late_answers_question_id_mock_test_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."mock_test_questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "late_answers" ADD CONSTRAINT "late_answers_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "late_answers_attempt_question_key" ON "late_answers" USING btree ("attempt_id","question_id");