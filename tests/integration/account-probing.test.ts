import { AsyncLocalStorage } from "node:async_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, desc, eq } from "drizzle-orm";
import { messages } from "../../server/db/schema/index.ts";
import { RESET_TEXTS } from "#common/validation/account-security.ts";
import { PHONE_TEXTS } from "#common/validation/phone-code.ts";
import { RATE_RULES } from "../../server/services/rate-limit.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer, postJson, registerUser, uniqueEmail } from "../helpers/http.ts";

/**
 * Issue 37 §8: asking about an address or a number tells nothing about whose it is. The answer
 * is the same byte for byte, and the request does the same work (the same statements, in the
 * same order) whether or not an account uses it: what depends on the account happens after the
 * answer. No clock is read here: a timing difference comes from different work, which this
 * compares.
 */

/** The statements each request runs, by the request that ran them (work after the answer is not the request's). */
const byRequest = new AsyncLocalStorage<string[]>();
let t: TestApp;
let ips = 0;
const from = (headers: Record<string, string> = {}) => ({ "x-forwarded-for": `198.18.1.${++ips % 250}`, ...headers });

beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: "1" }, { onQuery: (sql) => byRequest.getStore()?.push(sql) });
});
afterAll(() => t.close());

/** The request's answer (status, type, body) and the statements it ran before answering. */
async function probe(send: () => Promise<Response>) {
  const statements: string[] = [];
  const res = await byRequest.run(statements, send);
  const answer = { status: res.status, type: res.headers.get("content-type"), body: await res.text() };
  return { answer, statements };
}

async function written(to: string, template: string) {
  await t.services.afterAnswer.settled();
  return t.database.db
    .select()
    .from(messages)
    .where(and(eq(messages.recipient, to), eq(messages.template, template)));
}

async function verifiedPhone(account: { access_token: string }, phone: string) {
  const auth = bearer(account.access_token);
  await postJson(t, "/api/auth/phone", { phone }, { headers: from(auth) });
  const [row] = await t.database.db
    .select({ text: messages.text })
    .from(messages)
    .where(and(eq(messages.recipient, phone), eq(messages.channel, "whatsapp")))
    .orderBy(desc(messages.createdAt))
    .limit(1);
  const code = /code is (\d{6})/.exec(row.text)![1];
  expect((await postJson(t, "/api/auth/phone/verify", { code }, { headers: auth })).status).toBe(200);
}

describe("forgot password", () => {
  it("answers the same, after the same work, whether or not an account uses the address", async () => {
    const account = await registerUser(t, "student");
    const known = await probe(() => postJson(t, "/api/auth/forgot", { email: account.email }, { headers: from() }));
    const unknown = await probe(() =>
      postJson(t, "/api/auth/forgot", { email: uniqueEmail("nobody") }, { headers: from() }),
    );
    expect(known.answer).toEqual({
      status: 200,
      type: "application/json",
      body: JSON.stringify({ success: true, message: RESET_TEXTS.sent }),
    });
    expect(unknown.answer).toEqual(known.answer);
    expect(known.statements.length).toBeGreaterThan(0);
    expect(unknown.statements).toEqual(known.statements);
    // The account is not even looked up before the answer.
    expect(known.statements.filter((s) => /\bfrom "users"/.test(s))).toEqual([]);
    // And yet the account gets its link, afterwards.
    expect(await written(account.email, "password-reset")).toHaveLength(1);
  });

  it("answers the same when the account has had all its links for the hour", async () => {
    const account = await registerUser(t, "creator");
    const asked = [];
    for (let i = 0; i <= RATE_RULES.forgotAccount.limit; i++)
      asked.push(await probe(() => postJson(t, "/api/auth/forgot", { email: account.email }, { headers: from() })));
    for (const later of asked.slice(1)) {
      expect(later.answer).toEqual(asked[0].answer);
      expect(later.statements).toEqual(asked[0].statements);
    }
    expect(await written(account.email, "password-reset")).toHaveLength(RATE_RULES.forgotAccount.limit);
  });
});

describe("a sign-in code", () => {
  it("answers the same, after the same work, whether or not an account has verified the number", async () => {
    const account = await registerUser(t, "student");
    await verifiedPhone(account, "+919830011111");
    const known = await probe(() => postJson(t, "/api/auth/otp", { phone: "9830011111" }, { headers: from() }));
    const unknown = await probe(() => postJson(t, "/api/auth/otp", { phone: "9830022222" }, { headers: from() }));
    expect(known.answer).toEqual({
      status: 200,
      type: "application/json",
      body: JSON.stringify({ success: true, message: PHONE_TEXTS.signInSent }),
    });
    expect(unknown.answer).toEqual(known.answer);
    expect(unknown.statements).toEqual(known.statements);
    expect((await written("+919830011111", "phone-code")).length).toBeGreaterThan(2);
    expect(await written("+919830022222", "phone-code")).toHaveLength(0);
  });
});

describe("adding a phone", () => {
  it("answers the same, after the same work, whether or not another account holds the number", async () => {
    const holder = await registerUser(t, "student");
    await verifiedPhone(holder, "+919830033333");
    const asker = await registerUser(t, "student");
    const other = await registerUser(t, "student");
    const add = (account: { access_token: string }, phone: string) =>
      probe(() => postJson(t, "/api/auth/phone", { phone }, { headers: from(bearer(account.access_token)) }));
    const taken = await add(asker, "98300 33333");
    const free = await add(other, "98300 44444");
    expect(taken.answer).toEqual({
      status: 200,
      type: "application/json",
      body: JSON.stringify({ success: true, phone: "+919830033333", message: PHONE_TEXTS.codeSent("+919830033333") }),
    });
    expect(free.answer).toEqual({
      ...taken.answer,
      body: taken.answer.body.replaceAll("+919830033333", "+919830044444"),
    });
    expect(free.statements).toEqual(taken.statements);
  });

  it("is rate limited per account before anything else is looked at", async () => {
    const account = await registerUser(t, "student");
    const answers: number[] = [];
    for (let i = 0; i <= RATE_RULES.phoneCodeAccount.limit; i++) {
      const phone = `+9197000${String(i).padStart(5, "0")}`;
      answers.push(
        (await postJson(t, "/api/auth/phone", { phone }, { headers: from(bearer(account.access_token)) })).status,
      );
    }
    expect(answers.slice(0, -1).every((s) => s === 200)).toBe(true);
    expect(answers.at(-1)).toBe(429);
  });
});
