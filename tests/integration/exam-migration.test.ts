import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, inArray, sql } from "drizzle-orm";
import {
  attemptEvents,
  attempts,
  contents,
  mockTestQuestions,
  mockTests,
  questions,
} from "../../server/db/schema/index.ts";
import type { QuestionJson } from "#common/mock-tests/question.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { registerUser } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { joinTeam } from "../helpers/team.ts";

/**
 * Migration 0024 on rows as the product left them before institutes owned their exams: every
 * question in its author's bank (no institute), sittings without their institute, and tests
 * unassigned by a team removal. Its data statements run again here, on such rows.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const data = (text: string): QuestionJson => ({ type: "single", text, options: ["a", "b"], answer: 0 });

async function legacyQuestion(authorId: string, text: string): Promise<string> {
  const [row] = await t.database.db
    .insert(questions)
    .values({ authorId, centerId: null, type: "single", data: data(text), chapter: "Legacy" })
    .returning({ id: questions.id });
  return row.id;
}

async function legacyTest(creatorId: string, centerId: string | null, sources: string[]): Promise<string> {
  const [content] = await t.database.db
    .insert(contents)
    .values({ creatorId, centerId, type: "test", title: `Test of ${centerId ?? "no institute"}` })
    .returning({ id: contents.id });
  await t.database.db.insert(mockTests).values({
    contentId: content.id,
    centerId,
    pattern: "custom",
    durationMinutes: 30,
    sections: [{ name: "All", marking: { single: { correct: 4, incorrect: -1, unanswered: 0 } } }],
    status: "published",
  });
  await t.database.db.insert(mockTestQuestions).values(
    sources.map((sourceId, position) => ({
      testId: content.id,
      section: 0,
      position,
      sourceId,
      question: data("copy"),
    })),
  );
  return content.id;
}

/** The data statements of the migration (its ALTERs need the tables' owner, and ran already). */
async function runMigrationData() {
  const migration = readFileSync("drizzle/0024_exams-belong-to-institutes.sql", "utf8");
  const statements = migration
    .split("--> statement-breakpoint")
    .map((s) => s.replace(/^--.*$/gm, "").trim())
    .filter((s) => s && !s.startsWith("ALTER TABLE"));
  // One transaction: the temporary table lives on one connection.
  await t.database.db.transaction(async (tx) => {
    // The institutes' teams it read are creator memberships now (migration 0029, decision 0039).
    await tx.execute(
      sql.raw(`create temporary view "team_members" as select "user_id" as "member_id", "center_id",
        (case "status" when 'active' then 'accepted' when 'invited' then 'pending' else 'removed' end) as "status"
        from "memberships" where "role" = 'creator'`),
    );
    for (const statement of statements) await tx.execute(sql.raw(statement));
    await tx.execute(sql.raw(`drop view "team_members"`));
  });
}

const bankOf = async (id: string) =>
  (await t.database.db.select({ centerId: questions.centerId }).from(questions).where(eq(questions.id, id)))[0]
    ?.centerId;

describe("migration 0024: institutes own their exams", () => {
  it("puts each question in the bank of the tests that use it, copying it per institute, and keeps every row", async () => {
    const a = await createCenter(t, null, { instituteName: "Alpha" });
    const b = await createCenter(t, null, { instituteName: "Beta" });
    const both = await registerUser(t, "creator");
    const onlyA = await registerUser(t, "creator");
    const none = await registerUser(t, "creator");
    await joinTeam(t, a.id, both.user._id);
    await joinTeam(t, b.id, both.user._id);
    await joinTeam(t, a.id, onlyA.user._id);

    const shared = await legacyQuestion(both.user._id, "Used by Alpha and Beta");
    const alsoOwn = await legacyQuestion(both.user._id, "Used by Alpha and an own test");
    const onlyAUnused = await legacyQuestion(onlyA.user._id, "Unused, author on Alpha only");
    const bothUnused = await legacyQuestion(both.user._id, "Unused, author on two teams");
    const noneUnused = await legacyQuestion(none.user._id, "Unused, author on no team");
    const alphaTest = await legacyTest(both.user._id, a.id, [shared, alsoOwn]);
    const betaTest = await legacyTest(both.user._id, b.id, [shared]);
    const ownTest = await legacyTest(both.user._id, null, [alsoOwn]);
    const before = await t.database.db.select({ id: questions.id }).from(questions);

    // A team removal once unassigned the test's content; its sittings were stored without an institute.
    await t.database.db.update(contents).set({ centerId: null }).where(eq(contents.id, betaTest));
    const student = await registerUser(t, "student");
    const [sitting] = await t.database.db
      .insert(attempts)
      .values({
        testId: alphaTest,
        studentId: student.user._id,
        centerId: null,
        deadline: new Date(Date.now() + 60_000),
      })
      .returning({ id: attempts.id });
    await t.database.db.insert(attemptEvents).values([
      { attemptId: sitting.id, type: "opened" },
      { attemptId: sitting.id, type: "resumed" },
    ]);

    await runMigrationData();

    const [first, second] = [a.id, b.id].sort();
    expect(await bankOf(shared)).toBe(first);
    expect(await bankOf(alsoOwn)).toBe(a.id);
    expect(await bankOf(onlyAUnused)).toBe(a.id);
    expect(await bankOf(bothUnused)).toBeNull();
    expect(await bankOf(noneUnused)).toBeNull();

    // Each other bank got a copy, and its tests point at their copy.
    const after = await t.database.db.select().from(questions);
    expect(after.length).toBe(before.length + 2);
    const paperOf = async (testId: string) =>
      (
        await t.database.db
          .select({ sourceId: mockTestQuestions.sourceId })
          .from(mockTestQuestions)
          .where(eq(mockTestQuestions.testId, testId))
          .orderBy(mockTestQuestions.position)
      ).map((r) => r.sourceId!);
    const [betaSource] = await paperOf(first === a.id ? betaTest : alphaTest);
    const copy = after.find((q) => q.id === betaSource)!;
    expect(copy).toMatchObject({ centerId: second, authorId: both.user._id });
    expect(copy.data.text).toBe("Used by Alpha and Beta");
    const [ownSource] = await paperOf(ownTest);
    expect(ownSource).not.toBe(alsoOwn);
    expect(after.find((q) => q.id === ownSource)).toMatchObject({ centerId: null, authorId: both.user._id });
    const alphaPaper = await paperOf(alphaTest);
    for (const id of alphaPaper) expect(await bankOf(id)).toBe(a.id);

    // The test's content is its institute's again, and the sitting carries it, its log counted.
    const [beta] = await t.database.db.select().from(contents).where(eq(contents.id, betaTest));
    expect(beta.centerId).toBe(b.id);
    const [stored] = await t.database.db.select().from(attempts).where(eq(attempts.id, sitting.id));
    expect(stored).toMatchObject({ centerId: a.id, loggedEvents: 2 });

    // Running it again changes nothing more.
    await runMigrationData();
    const again = await t.database.db
      .select({ id: questions.id, centerId: questions.centerId })
      .from(questions)
      .where(
        inArray(
          questions.id,
          after.map((q) => q.id),
        ),
      );
    expect(again).toHaveLength(after.length);
    expect((await t.database.db.select().from(questions)).length).toBe(after.length);
  });
});
