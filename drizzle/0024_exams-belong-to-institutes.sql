-- An institute's exams belong to the institute (issue 37, decision 0029). Self-contained: it needs
-- only the columns of 0023 (questions.center_id, attempts.logged_events).
--
-- 1. Question banks. A question was its author's, seen by every team the author was on. It now
-- belongs to one bank: an institute's, or its author's own (center_id null). Each question goes
-- to the bank of the institute whose tests use it; used by tests of several banks, it stays in
-- the first (by institute id, the author's own last) and a copy is made for each other one, with
-- that bank's tests pointed at their copy. Unused, it goes to its author's institute when they
-- hold a role in exactly one (owner or accepted team member), else to their own bank.
ALTER TABLE "questions" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
UPDATE "questions" q SET "center_id" = home."center_id"
FROM (
  SELECT DISTINCT ON (mtq."source_id") mtq."source_id", mt."center_id"
  FROM "mock_test_questions" mtq
  JOIN "mock_tests" mt ON mt."content_id" = mtq."test_id"
  WHERE mtq."source_id" IS NOT NULL
  ORDER BY mtq."source_id", mt."center_id" NULLS LAST
) home
WHERE home."source_id" = q."id" AND home."center_id" IS NOT NULL;--> statement-breakpoint
CREATE TEMPORARY TABLE "question_copies" AS
SELECT gen_random_uuid() AS "id", used."source_id", used."center_id"
FROM (
  SELECT DISTINCT mtq."source_id", mt."center_id"
  FROM "mock_test_questions" mtq
  JOIN "mock_tests" mt ON mt."content_id" = mtq."test_id"
  WHERE mtq."source_id" IS NOT NULL
) used
JOIN "questions" q ON q."id" = used."source_id"
WHERE used."center_id" IS DISTINCT FROM q."center_id";--> statement-breakpoint
INSERT INTO "questions" ("id", "author_id", "center_id", "type", "data", "subject", "chapter", "topic", "difficulty", "archived_at", "created_at", "updated_at")
SELECT c."id", q."author_id", c."center_id", q."type", q."data", q."subject", q."chapter", q."topic", q."difficulty", q."archived_at", q."created_at", q."updated_at"
FROM "question_copies" c
JOIN "questions" q ON q."id" = c."source_id";--> statement-breakpoint
UPDATE "mock_test_questions" mtq SET "source_id" = c."id"
FROM "question_copies" c, "mock_tests" mt
WHERE mt."content_id" = mtq."test_id"
  AND mtq."source_id" = c."source_id"
  AND mt."center_id" IS NOT DISTINCT FROM c."center_id";--> statement-breakpoint
DROP TABLE "question_copies";--> statement-breakpoint
UPDATE "questions" q SET "center_id" = only_one."center_id"
FROM (
  SELECT roles."user_id", (array_agg(roles."center_id"))[1] AS "center_id"
  FROM (
    SELECT "owner_id" AS "user_id", "id" AS "center_id" FROM "centers" WHERE "owner_id" IS NOT NULL
    UNION
    SELECT "member_id", "center_id" FROM "team_members" WHERE "status"::text = 'accepted' AND "member_id" IS NOT NULL
  ) roles
  GROUP BY roles."user_id"
  HAVING count(*) = 1
) only_one
WHERE q."author_id" = only_one."user_id"
  AND q."center_id" IS NULL
  AND NOT EXISTS (SELECT 1 FROM "mock_test_questions" mtq WHERE mtq."source_id" = q."id");--> statement-breakpoint
-- 2. Tests and series stay with their institute. Removing a member from a team used to unassign
-- their content, tests and series included, which left a test's content row without the
-- institute its settings (mock_tests.center_id) and sittings still name: it goes back.
UPDATE "contents" c SET "center_id" = mt."center_id"
FROM "mock_tests" mt
WHERE mt."content_id" = c."id" AND mt."center_id" IS NOT NULL AND c."center_id" IS DISTINCT FROM mt."center_id";--> statement-breakpoint
UPDATE "contents" c SET "center_id" = bundled."center_id"
FROM (
  SELECT st."series_id", (array_agg(DISTINCT mt."center_id"))[1] AS "center_id"
  FROM "series_tests" st
  JOIN "mock_tests" mt ON mt."content_id" = st."test_id"
  GROUP BY st."series_id"
  HAVING count(DISTINCT mt."center_id") = 1 AND bool_and(mt."center_id" IS NOT NULL)
) bundled
WHERE bundled."series_id" = c."id" AND c."type"::text = 'series' AND c."center_id" IS NULL;--> statement-breakpoint
-- 3. Sittings carry their test's institute (the demo's seeded ones did not: row-level security
-- then hid them from the institute's own domain).
UPDATE "attempts" a SET "center_id" = mt."center_id"
FROM "mock_tests" mt
WHERE mt."content_id" = a."test_id" AND a."center_id" IS NULL AND mt."center_id" IS NOT NULL;--> statement-breakpoint
-- 4. Each sitting's event log is capped; the count starts from what it holds.
UPDATE "attempts" a SET "logged_events" = logged."count"
FROM (SELECT "attempt_id", count(*)::int AS "count" FROM "attempt_events" GROUP BY "attempt_id") logged
WHERE logged."attempt_id" = a."id";
