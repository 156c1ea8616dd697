CREATE TYPE "public"."attempt_submitter" AS ENUM('student', 'clock');--> statement-breakpoint
CREATE TYPE "public"."mock_test_status" AS ENUM('draft', 'published', 'closed');--> statement-breakpoint
CREATE TYPE "public"."question_type" AS ENUM('single', 'multiple', 'numerical');--> statement-breakpoint
CREATE TYPE "public"."result_release" AS ENUM('immediate', 'after-window', 'manual');--> statement-breakpoint
ALTER TYPE "public"."content_type" ADD VALUE 'test';--> statement-breakpoint
ALTER TYPE "public"."content_type" ADD VALUE 'series';--> statement-breakpoint
CREATE TABLE "attempt_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"attempt_id" uuid NOT NULL,
	"type" text NOT NULL,
	"question_id" uuid,
	"section" text,
	"seq" integer,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "attempt_responses" (
	"attempt_id" uuid NOT NULL,
	"question_id" uuid NOT NULL,
	"answer" text,
	"marked_for_review" boolean DEFAULT false NOT NULL,
	"seq" integer NOT NULL,
	"saved_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "attempt_responses_attempt_id_question_id_pk" PRIMARY KEY("attempt_id","question_id")
);
--> statement-breakpoint
CREATE TABLE "attempts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"test_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"center_id" uuid,
	"number" smallint DEFAULT 1 NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deadline" timestamp with time zone NOT NULL,
	"extra_minutes" integer DEFAULT 0 NOT NULL,
	"last_seq" integer DEFAULT 0 NOT NULL,
	"submitted_at" timestamp with time zone,
	"submitted_by" "attempt_submitter",
	"score" integer,
	"result" jsonb,
	"rank" integer,
	"percentile" real,
	"takers" integer
);
--> statement-breakpoint
ALTER TABLE "attempts" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "mock_test_questions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"test_id" uuid NOT NULL,
	"section" smallint NOT NULL,
	"position" smallint NOT NULL,
	"source_id" uuid,
	"question" jsonb NOT NULL,
	"policy" jsonb
);
--> statement-breakpoint
CREATE TABLE "mock_tests" (
	"content_id" uuid PRIMARY KEY NOT NULL,
	"center_id" uuid,
	"pattern" text NOT NULL,
	"mode" text DEFAULT 'cbt' NOT NULL,
	"practice" boolean DEFAULT false NOT NULL,
	"duration_minutes" integer NOT NULL,
	"sections" jsonb NOT NULL,
	"opens_at" timestamp with time zone,
	"closes_at" timestamp with time zone,
	"attempts_allowed" smallint DEFAULT 1 NOT NULL,
	"result_release" "result_release" DEFAULT 'immediate' NOT NULL,
	"results_published_at" timestamp with time zone,
	"tie_breaks" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"alert_minutes" jsonb DEFAULT '[30,15,5]'::jsonb NOT NULL,
	"status" "mock_test_status" DEFAULT 'draft' NOT NULL,
	"published_at" timestamp with time zone,
	"ranked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mock_tests" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "questions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"author_id" uuid NOT NULL,
	"type" "question_type" NOT NULL,
	"data" jsonb NOT NULL,
	"subject" text,
	"chapter" text,
	"topic" text,
	"difficulty" text,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "series_tests" (
	"series_id" uuid NOT NULL,
	"test_id" uuid NOT NULL,
	"position" smallint NOT NULL,
	CONSTRAINT "series_tests_series_id_test_id_pk" PRIMARY KEY("series_id","test_id")
);
--> statement-breakpoint
ALTER TABLE "attempt_events" ADD CONSTRAINT "attempt_events_attempt_id_attempts_id_fk" FOREIGN KEY ("attempt_id") REFERENCES "public"."attempts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attempt_responses" ADD CONSTRAINT "attempt_responses_attempt_id_attempts_id_fk" FOREIGN KEY ("attempt_id") REFERENCES "public"."attempts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attempt_responses" ADD CONSTRAINT "attempt_responses_question_id_mock_test_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."mock_test_questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attempts" ADD CONSTRAINT "attempts_test_id_mock_tests_content_id_fk" FOREIGN KEY ("test_id") REFERENCES "public"."mock_tests"("content_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attempts" ADD CONSTRAINT "attempts_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attempts" ADD CONSTRAINT "attempts_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mock_test_questions" ADD CONSTRAINT "mock_test_questions_test_id_mock_tests_content_id_fk" FOREIGN KEY ("test_id") REFERENCES "public"."mock_tests"("content_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mock_test_questions" ADD CONSTRAINT "mock_test_questions_source_id_questions_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."questions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mock_tests" ADD CONSTRAINT "mock_tests_content_id_contents_id_fk" FOREIGN KEY ("content_id") REFERENCES "public"."contents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mock_tests" ADD CONSTRAINT "mock_tests_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "series_tests" ADD CONSTRAINT "series_tests_series_id_contents_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."contents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "series_tests" ADD CONSTRAINT "series_tests_test_id_mock_tests_content_id_fk" FOREIGN KEY ("test_id") REFERENCES "public"."mock_tests"("content_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "attempt_events_attempt_idx" ON "attempt_events" USING btree ("attempt_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "attempts_test_student_number_key" ON "attempts" USING btree ("test_id","student_id","number");--> statement-breakpoint
CREATE INDEX "attempts_student_idx" ON "attempts" USING btree ("student_id","started_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "attempts_open_deadline_idx" ON "attempts" USING btree ("deadline") WHERE "attempts"."submitted_at" is null;--> statement-breakpoint
CREATE INDEX "attempts_test_score_idx" ON "attempts" USING btree ("test_id","score") WHERE "attempts"."submitted_at" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "mock_test_questions_order_key" ON "mock_test_questions" USING btree ("test_id","section","position");--> statement-breakpoint
CREATE INDEX "mock_tests_closes_idx" ON "mock_tests" USING btree ("closes_at") WHERE "mock_tests"."status" = 'published';--> statement-breakpoint
CREATE INDEX "questions_author_created_idx" ON "questions" USING btree ("author_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "questions_author_chapter_idx" ON "questions" USING btree ("author_id","subject","chapter","difficulty");--> statement-breakpoint
CREATE INDEX "series_tests_test_idx" ON "series_tests" USING btree ("test_id");--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "attempts" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "attempts"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "attempts"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "mock_tests" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('app.center_id', true), '') is null or "mock_tests"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid) WITH CHECK (nullif(current_setting('app.center_id', true), '') is null or "mock_tests"."center_id" = nullif(current_setting('app.center_id', true), '')::uuid);;--> statement-breakpoint
-- As for the other tables with an institute (migration 0003): the policies bind the owner too.
ALTER TABLE "mock_tests" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "attempts" FORCE ROW LEVEL SECURITY;
