import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { contents, mockTests, questions } from "../../server/db/schema/index.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer, postJson } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { loginOn, register } from "../helpers/learning.ts";
import { joinTeam } from "../helpers/team.ts";
import { adminToken } from "../helpers/payments.ts";

/**
 * Issue 37 §2: an institute's exams belong to the institute, not to whoever wrote them. A creator
 * on two institutes' teams (A and B) must not open A's exams to B: B's owner, B's other creators,
 * and the creator themselves on B's domain reach none of A's tests, papers, keys, rank lists,
 * analyses, sittings or questions, and change none of them. Leaving A's team ends the creator's
 * access to A's exams, which stay A's.
 */

let t: TestApp;
type Account = Awaited<ReturnType<typeof register>>;
let ownerA: Account;
let ownerB: Account;
let creator: Account;
let colleague: Account;
let taker: Account;
let sitter: Account;
let a: { id: string; customDomain: string | null };
let b: { id: string; customDomain: string | null };
let admin: string;

const hostA = () => a.customDomain!;
const hostB = () => b.customDomain!;
const json = async (res: Response) => ({ status: res.status, body: await res.json() });
const get = (path: string, token: string, host?: string) => t.request(path, { headers: bearer(token), host });
const send = (method: string, path: string, token: string, body: unknown = {}, host?: string) =>
  postJson(t, path, body, { method, headers: bearer(token), host });

const question = (text: string, chapter = "Optics") => ({
  type: "single",
  text,
  options: ["$1$", "$2$", "$3$", "$4$"],
  answer: 0,
  solution: `The key of ${text} is A.`,
  tags: { subject: "Physics", chapter, difficulty: "easy" },
});

async function write(token: string, text: string, bank?: string, host?: string): Promise<string> {
  const path = bank ? `/api/questions?bank=${bank}` : "/api/questions";
  const res = await json(await send("POST", path, token, question(text), host));
  expect(res.status).toBe(201);
  return res.body.questions[0]._id;
}

async function draft(token: string, body: Record<string, unknown>, host?: string): Promise<string> {
  const res = await json(await send("POST", "/api/tests", token, { pattern: "custom", ...body }, host));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.test._id;
}

const ids = (list: { _id: string }[]) => list.map((x) => x._id);

// A's exams, all written by the creator who also works for B.
let aQuestion: string;
let aTest: string;
let aDraft: string;
let aSeries: string;
let openSitting: string;
let paperQuestion: string;
let ownQuestion: string;
let ownTest: string;

beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: "1" });
  ownerA = await register(t, "business", { name: "Owner A" });
  ownerB = await register(t, "business", { name: "Owner B" });
  creator = await register(t, "creator", { name: "Works For Both" });
  colleague = await register(t, "creator", { name: "B Colleague" });
  a = await createCenter(t, ownerA.user._id, { instituteName: "Alpha Academy" });
  b = await createCenter(t, ownerB.user._id, { instituteName: "Beta Classes" });
  await joinTeam(t, a.id, creator.user._id);
  await joinTeam(t, b.id, creator.user._id);
  await joinTeam(t, b.id, colleague.user._id);
  taker = await register(t, "student", { name: "Asha Taker", host: hostA() });
  sitter = await register(t, "student", { name: "Bala Sitter", host: hostA() });
  admin = await adminToken(t);

  aQuestion = await write(creator.access_token, "Alpha's secret question", a.id);
  aTest = await draft(creator.access_token, {
    title: "Alpha paid mock",
    businessId: a.id,
    price: 0,
    resultRelease: "manual",
    sections: [{ name: "Physics", questions: [aQuestion] }],
  });
  expect((await send("POST", `/api/tests/${aTest}/publish`, creator.access_token)).status).toBe(200);
  aDraft = await draft(creator.access_token, {
    title: "Alpha upcoming draft",
    businessId: a.id,
    sections: [{ name: "Physics", questions: [aQuestion] }],
  });
  const series = await json(
    await send("POST", "/api/series", creator.access_token, {
      title: "Alpha series",
      businessId: a.id,
      price: 0,
      tests: [aTest],
    }),
  );
  expect(series.status).toBe(201);
  aSeries = series.body.series._id;

  // One taker submits (the rank list has their name and e-mail); another is still sitting.
  const takerToken = taker.access_token;
  const started = await json(await send("POST", `/api/tests/${aTest}/attempts`, takerToken, {}, hostA()));
  paperQuestion = started.body.attempt.sections[0].questions[0]._id;
  await send("PUT", `/api/attempts/${started.body.attempt._id}/responses/${paperQuestion}`, takerToken, {
    answer: 0,
    seq: 1,
  });
  expect((await send("POST", `/api/attempts/${started.body.attempt._id}/submit`, takerToken, {}, hostA())).status).toBe(
    200,
  );
  openSitting = (await json(await send("POST", `/api/tests/${aTest}/attempts`, sitter.access_token, {}, hostA()))).body
    .attempt._id;

  ownQuestion = await write(creator.access_token, "The creator's own question");
  ownTest = await draft(creator.access_token, {
    title: "Own practice",
    sections: [{ name: "Physics", questions: [ownQuestion] }],
  });
});
afterAll(() => t.close());

/** Everyone acting for B: B's owner and B's other creator (on the platform and B's domain), and the shared creator on B's domain. */
async function actingForB(): Promise<{ who: string; token: string; host?: string }[]> {
  return [
    { who: "B's owner", token: ownerB.access_token },
    { who: "B's owner on B's domain", token: await loginOn(t, hostB(), ownerB.email), host: hostB() },
    { who: "B's other creator", token: colleague.access_token },
    { who: "B's other creator on B's domain", token: await loginOn(t, hostB(), colleague.email), host: hostB() },
    { who: "the shared creator on B's domain", token: await loginOn(t, hostB(), creator.email), host: hostB() },
  ];
}

describe("acting for institute B", () => {
  it("reads none of A's tests, papers with keys, rank lists, analyses or series", async () => {
    for (const { who, token, host } of await actingForB()) {
      const list = await json(await get("/api/tests", token, host));
      expect(ids(list.body.tests), who).not.toContain(aTest);
      expect(ids(list.body.tests), who).not.toContain(aDraft);
      for (const path of [
        `/api/tests/${aTest}`,
        `/api/tests/${aDraft}`,
        `/api/tests/${aTest}/paper`,
        `/api/tests/${aTest}/analysis`,
        `/api/tests/${aTest}/rank-list.csv`,
      ]) {
        const res = await get(path, token, host);
        expect(res.status, `${who}: ${path}`).toBe(404);
        const text = await res.text();
        expect(text, `${who}: ${path}`).not.toContain("Asha Taker");
        expect(text, `${who}: ${path}`).not.toContain("The key of");
      }
      const series = await json(await get("/api/series", token, host));
      expect(ids(series.body.series), who).not.toContain(aSeries);
    }
  });

  it("changes nothing of A's: no key decision, close, release, extra time, edit, discard or publish", async () => {
    for (const { who, token, host } of await actingForB()) {
      const attempts: [string, string, unknown][] = [
        ["PUT", `/api/tests/${aTest}/questions/${paperQuestion}/policy`, { kind: "dropped" }],
        ["POST", `/api/tests/${aTest}/close`, {}],
        ["POST", `/api/tests/${aTest}/results/publish`, {}],
        ["POST", `/api/attempts/${openSitting}/extra-time`, { minutes: 30 }],
        ["PUT", `/api/tests/${aDraft}`, { title: "Taken over", pattern: "custom", sections: [{ name: "X" }] }],
        ["POST", `/api/tests/${aDraft}/publish`, {}],
        ["DELETE", `/api/tests/${aDraft}`, {}],
      ];
      for (const [method, path, body] of attempts) {
        const res = await json(await send(method, path, token, body, host));
        expect(res.status, `${who}: ${method} ${path}`).toBe(404);
      }
    }
    const [test] = await t.database.db.select().from(mockTests).where(eq(mockTests.contentId, aTest));
    expect(test).toMatchObject({ status: "published", resultsPublishedAt: null });
    const [drafted] = await t.database.db.select().from(contents).where(eq(contents.id, aDraft));
    expect(drafted).toMatchObject({ title: "Alpha upcoming draft", archivedAt: null, isActive: false });
    const paper = await json(await get(`/api/tests/${aTest}/paper`, ownerA.access_token));
    expect(paper.body.questions[0].policy).toBeNull();
    const running = await json(await get(`/api/tests/${aTest}/analysis`, ownerA.access_token));
    expect(running.status).toBe(200);
  });

  it("neither sees A's questions nor builds B's tests or series from them or from A's tests", async () => {
    for (const { who, token, host } of await actingForB()) {
      const bank = await json(await get("/api/questions?limit=200", token, host));
      expect(ids(bank.body.questions), who).not.toContain(aQuestion);
      const exported = await (await get("/api/questions/export?format=json", token, host)).text();
      expect(exported, who).not.toContain("Alpha's secret question");
      expect((await get(`/api/questions/${aQuestion}`, token, host)).status, who).toBe(404);
      expect((await send("PUT", `/api/questions/${aQuestion}`, token, question("Changed"), host)).status, who).toBe(
        404,
      );
      expect((await send("DELETE", `/api/questions/${aQuestion}`, token, {}, host)).status, who).toBe(404);
      const copied = await json(
        await send("POST", "/api/questions/copy", token, { questions: [aQuestion], to: b.id }, host),
      );
      expect(copied.status, who).toBe(404);
      expect(copied.body.message).toBe("Question not found");

      const built = await json(
        await send(
          "POST",
          "/api/tests",
          token,
          { title: "Stolen", pattern: "custom", businessId: b.id, sections: [{ name: "P", questions: [aQuestion] }] },
          host,
        ),
      );
      expect(built.status, who).toBe(400);
      expect(built.body.message).toBe("Some questions are not in this institute's bank or your own");
      const drawn = await json(
        await send(
          "POST",
          "/api/tests",
          token,
          {
            title: "Drawn",
            pattern: "custom",
            businessId: b.id,
            sections: [{ name: "P", draw: [{ chapter: "Optics", count: 1 }] }],
          },
          host,
        ),
      );
      expect(drawn.status, who).toBe(400);
      expect(drawn.body.message).toBe("Only 0 of the 1 questions asked for could be drawn (Optics)");
      const bundled = await json(
        await send("POST", "/api/series", token, { title: "S", businessId: b.id, price: 0, tests: [aTest] }, host),
      );
      expect(bundled.status, who).toBe(400);
    }
    const [stored] = await t.database.db.select().from(questions).where(eq(questions.id, aQuestion));
    expect(stored).toMatchObject({ centerId: a.id, archivedAt: null });
    expect(stored.data.text).toBe("Alpha's secret question");
  });

  it("on B's domain even the creator who works for A reaches only B's bank", async () => {
    const onB = await loginOn(t, hostB(), creator.email);
    const own = await json(await send("POST", "/api/questions?bank=own", onB, question("Own, from B's site"), hostB()));
    expect(own.status).toBe(400);
    expect(own.body.message).toBe("On an institute's site, questions go to that institute's bank");
    const intoA = await json(
      await send("POST", `/api/questions?bank=${a.id}`, onB, question("Into A, from B's site"), hostB()),
    );
    expect(intoA.status).toBe(400);
    const written = await json(await send("POST", "/api/questions", onB, question("Written on B's site"), hostB()));
    expect(written.status).toBe(201);
    expect(written.body.questions[0].businessId).toBe(b.id);
    const listed = await json(await get("/api/questions", onB, hostB()));
    expect(new Set(listed.body.questions.map((q: { businessId: string }) => q.businessId))).toEqual(new Set([b.id]));
  });
});

describe("the creator on both teams, on the platform", () => {
  it("reads A's exams (a role there), and moves a question from A's bank to B's only by copying it", async () => {
    expect((await get(`/api/tests/${aTest}/paper`, creator.access_token)).status).toBe(200);
    const mine = await json(await get(`/api/questions?bank=${a.id}`, creator.access_token));
    expect(ids(mine.body.questions)).toEqual([aQuestion]);

    const direct = await json(
      await send("POST", "/api/tests", creator.access_token, {
        title: "B's test from A's question",
        pattern: "custom",
        businessId: b.id,
        sections: [{ name: "P", questions: [aQuestion] }],
      }),
    );
    expect(direct.status).toBe(400);

    const copied = await json(
      await send("POST", "/api/questions/copy", creator.access_token, { questions: [aQuestion], to: b.id }),
    );
    expect(copied.status).toBe(201);
    const [copy] = copied.body.questions;
    expect(copy).toMatchObject({ businessId: b.id, authorId: creator.user._id, text: "Alpha's secret question" });
    expect(copy._id).not.toBe(aQuestion);
    const bTest = await draft(creator.access_token, {
      title: "B's test from the copy",
      businessId: b.id,
      sections: [{ name: "P", questions: [copy._id] }],
    });
    // B's owner sees B's test and the copy in B's bank, still not A's original.
    expect(ids((await json(await get("/api/tests", ownerB.access_token))).body.tests)).toContain(bTest);
    const bBank = ids((await json(await get("/api/questions", ownerB.access_token))).body.questions);
    expect(bBank).toContain(copy._id);
    expect(bBank).not.toContain(aQuestion);
  });

  it("cannot copy into a bank they hold no role in, nor copy what they cannot read", async () => {
    const stranger = await createCenter(t, null, { instituteName: "Gamma" });
    const refused = await json(
      await send("POST", "/api/questions/copy", creator.access_token, { questions: [aQuestion], to: stranger.id }),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe("Please choose an institute whose team you are on");
    const bad = await json(await send("POST", "/api/questions/copy", creator.access_token, { questions: [], to: "x" }));
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("Choose at least one question to copy");
    const before = await t.database.db.select().from(questions);
    const unknown = await json(
      await send("POST", "/api/questions/copy", creator.access_token, {
        questions: [aQuestion, crypto.randomUUID()],
        to: b.id,
      }),
    );
    expect(unknown.status).toBe(404);
    expect(await t.database.db.select().from(questions)).toHaveLength(before.length);
  });
});

describe("a test of no institute, and the author's own bank", () => {
  it("are the creator's only: no owner of theirs reads them; an admin does", async () => {
    expect((await get(`/api/tests/${ownTest}`, creator.access_token)).status).toBe(200);
    for (const token of [ownerA.access_token, ownerB.access_token, colleague.access_token]) {
      expect((await get(`/api/tests/${ownTest}`, token)).status).toBe(404);
      expect((await get(`/api/questions/${ownQuestion}`, token)).status).toBe(404);
    }
    expect((await get(`/api/tests/${ownTest}`, admin)).status).toBe(200);
  });
});

describe("owners", () => {
  it("see their institute's exams, whoever wrote them, and no other institute's", async () => {
    const aList = ids((await json(await get("/api/tests", ownerA.access_token))).body.tests);
    expect(aList).toEqual(expect.arrayContaining([aTest, aDraft]));
    expect(aList).not.toContain(ownTest);
    const bList = (await json(await get("/api/tests", ownerB.access_token))).body.tests as { businessId: string }[];
    expect(bList.every((x) => x.businessId === b.id)).toBe(true);
    const aBank = (await json(await get("/api/questions", ownerA.access_token))).body.questions as {
      businessId: string;
    }[];
    expect(aBank.map((q) => q.businessId)).toEqual([a.id]);
  });

  it("an admin still reads and runs any institute's test", async () => {
    expect((await get(`/api/tests/${aTest}/analysis`, admin)).status).toBe(200);
    const granted = await json(await send("POST", `/api/attempts/${openSitting}/extra-time`, admin, { minutes: 1 }));
    expect(granted.status).toBe(200);
  });
});

describe("ids that are not ids", () => {
  it("are not found by the services the Tests area's pages call, never a failed query", async () => {
    const reader = { id: creator.user._id, role: "creator" as const };
    await expect(t.services.mockTests.get(reader, "not-an-id")).rejects.toMatchObject({ status: 404 });
    await expect(t.services.attempts.analysis(reader, "x")).rejects.toMatchObject({ status: 404 });
    await expect(t.services.attempts.grantExtraTime(reader, "", { minutes: 5 })).rejects.toMatchObject({
      status: 404,
    });
    await expect(t.services.mockTests.setPolicy(reader, aTest, "q", { kind: "dropped" })).rejects.toMatchObject({
      status: 404,
    });
    await expect(t.services.questionBank.get(reader, "1")).rejects.toMatchObject({ status: 404 });
    await expect(t.services.questionBank.remove(reader, "")).rejects.toMatchObject({ status: 404 });
    expect(await t.services.testsArea.running(reader, "nope")).toEqual([]);
  });
});

describe("the content API", () => {
  it("neither lists nor changes tests and series, even for their author", async () => {
    const listed = await json(await get("/api/content/my", creator.access_token));
    expect(listed.status).toBe(200);
    expect(ids(listed.body.contents)).not.toContain(aTest);
    expect(ids(listed.body.contents)).not.toContain(aSeries);
    for (const [method, path, body] of [
      ["GET", `/api/content/${aTest}`, undefined],
      ["PUT", `/api/content/${aTest}`, { isActive: false, price: 1 }],
      ["PUT", `/api/content/${aSeries}/assign`, { businessId: b.id }],
      ["DELETE", `/api/content/${aTest}`, undefined],
    ] as const) {
      const res = await json(
        method === "GET" ? await get(path, creator.access_token) : await send(method, path, creator.access_token, body),
      );
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.message).toBe("Tests and series belong to their institute: manage them in the Tests area.");
    }
    const [row] = await t.database.db.select().from(contents).where(eq(contents.id, aTest));
    expect(row).toMatchObject({ centerId: a.id, isActive: true, price: 0 });
  });
});

describe("leaving A's team", () => {
  it("ends the creator's access to A's exams, which stay A's and on A's site", async () => {
    const team = await json(await get(`/api/team?centerId=${a.id}`, ownerA.access_token));
    const entry = (team.body.team as { _id: string; address: string }[]).find((m) => m.address === creator.email)!;
    expect(entry).toBeTruthy();
    expect((await send("DELETE", `/api/team/${entry._id}?centerId=${a.id}`, ownerA.access_token)).status).toBe(200);

    expect(ids((await json(await get("/api/tests", creator.access_token))).body.tests)).not.toContain(aTest);
    for (const path of [`/api/tests/${aTest}`, `/api/tests/${aTest}/paper`, `/api/tests/${aTest}/analysis`])
      expect((await get(path, creator.access_token)).status, path).toBe(404);
    expect((await send("POST", `/api/tests/${aTest}/close`, creator.access_token)).status).toBe(404);
    expect(
      (await send("POST", `/api/attempts/${openSitting}/extra-time`, creator.access_token, { minutes: 5 })).status,
    ).toBe(404);
    expect((await get(`/api/questions/${aQuestion}`, creator.access_token)).status).toBe(404);
    expect((await send("PUT", `/api/questions/${aQuestion}`, creator.access_token, question("Mine now"))).status).toBe(
      404,
    );

    // The test, its series and its bank stay A's: its owner runs it, its site still offers it.
    expect((await get(`/api/tests/${aTest}/paper`, ownerA.access_token)).status).toBe(200);
    const [row] = await t.database.db.select().from(contents).where(eq(contents.id, aTest));
    expect(row.centerId).toBe(a.id);
    const site = await json(await t.request("/api/tests", { host: hostA() }));
    expect(ids(site.body.tests)).toContain(aTest);
    // The owner's list of what the site shows says so too.
    const items = await json(await get(`/api/site-contents?centerId=${a.id}`, ownerA.access_token));
    expect(items.body.contents.find((i: { _id: string }) => i._id === aTest)).toMatchObject({
      onTeam: true,
      shown: true,
    });
    expect(ids((await json(await get("/api/questions", ownerA.access_token))).body.questions)).toContain(aQuestion);
  });
});
