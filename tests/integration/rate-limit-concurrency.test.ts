import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { enquiries, orders, pricingPlans, seminarBookings, users } from "../../server/db/schema/index.ts";
import { RATE_RULES } from "../../server/services/rate-limit.ts";
import { seminarToday } from "#common/validation/seminar.ts";
import { bearer, postJson, uniqueEmail } from "../helpers/http.ts";
import { createListeningTestApp, type ListeningTestApp } from "../helpers/payments.ts";
import { createCenter } from "../helpers/centers.ts";
import { publish, register } from "../helpers/learning.ts";

/**
 * Each limited endpoint gets a burst of parallel requests past its limit: exactly the limit is
 * served, the rest are refused with 429 and Retry-After, whatever order the database runs them in.
 */
let t: ListeningTestApp;
beforeAll(async () => {
  t = await createListeningTestApp({ TRUST_PROXY: "1" });
});
afterAll(() => t.close());

const TOO_MANY = /^Too many attempts\. Please try again in \d+ (seconds|minutes?)\.$/;
const from = (ip: string) => ({ "x-forwarded-for": ip });

/** Sends `n` requests at once; answers their statuses, with every 429 checked on the way. */
async function burst(n: number, send: (i: number) => Promise<Response>): Promise<number[]> {
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const res = await send(i);
      if (res.status === 429) {
        expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
        expect((await res.json()).error).toMatch(TOO_MANY);
      }
      return res.status;
    }),
  );
}

/** How many of `statuses` were each status, e.g. { 401: 10, 429: 20 }. */
function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

const rows = async (table: PgTable, where?: SQL) =>
  (
    await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(table)
      .where(where)
  )[0].n;

describe("sign-in", () => {
  it("checks at most 10 passwords of one account however many guesses arrive together", async () => {
    const { email, password } = await register(t, "student");
    expect(RATE_RULES.loginAccount.limit).toBe(10);
    // Every guess from its own address, so only the account's limit applies. A 401 is a
    // password that was checked; a 429 was refused before its password was looked at.
    const statuses = await burst(30, (i) =>
      postJson(t, "/api/auth/login", { email, password: `wrong-guess-${i}` }, { headers: from(`10.20.0.${i}`) }),
    );
    expect(tally(statuses)).toEqual({ 401: 10, 429: 20 });
    // The account stays slowed down, even for its right password.
    expect((await postJson(t, "/api/auth/login", { email, password }, { headers: from("10.20.1.1") })).status).toBe(
      429,
    );
  });

  it("serves 60 sign-ins from one address in a minute, however many arrive together", async () => {
    expect(RATE_RULES.loginIp.limit).toBe(60);
    const statuses = await burst(66, () =>
      postJson(
        t,
        "/api/auth/login",
        { email: uniqueEmail("spray"), password: "whatever-password" },
        { headers: from("192.0.2.40") },
      ),
    );
    expect(tally(statuses)).toEqual({ 401: 60, 429: 6 });
  });
});

describe("registration", () => {
  it("creates 20 accounts from one address in an hour, however many are asked for together", async () => {
    expect(RATE_RULES.registerIp.limit).toBe(20);
    const statuses = await burst(24, (i) =>
      postJson(
        t,
        "/api/auth/register",
        { name: `Burst ${i}`, email: uniqueEmail("burst"), password: "tangerine-kettle-42", role: "student" },
        { headers: from("192.0.2.41") },
      ),
    );
    expect(tally(statuses)).toEqual({ 201: 20, 429: 4 });
  });

  it("tries one email 5 times an hour, however many tries arrive together", async () => {
    expect(RATE_RULES.registerAccount.limit).toBe(5);
    const email = uniqueEmail("same");
    const statuses = await burst(9, (i) =>
      postJson(
        t,
        "/api/auth/register",
        { name: "Same Person", email, password: "tangerine-kettle-42", role: "student" },
        { headers: from(`10.21.0.${i}`) },
      ),
    );
    // One try creates the account; the other four served find it taken.
    expect(tally(statuses)).toEqual({ 201: 1, 409: 4, 429: 4 });
    expect(await rows(users, eq(users.email, email))).toBe(1);
  });
});

describe("seminar booking", () => {
  it("takes 10 bookings from one address in an hour, however many arrive together", async () => {
    expect(RATE_RULES.bookingIp.limit).toBe(10);
    const before = await rows(seminarBookings);
    const booking = (i: number) => ({
      fullName: `Investor ${i}`,
      email: uniqueEmail("investor"),
      phoneNumber: "+91 98765 43210",
      city: "Kolkata",
      country: "India",
      date: seminarToday(),
      time: "10:30 AM",
    });
    const statuses = await burst(14, (i) => postJson(t, "/api/book", booking(i), { headers: from("192.0.2.42") }));
    expect(tally(statuses)).toEqual({ 201: 10, 429: 4 });
    expect((await rows(seminarBookings)) - before).toBe(10);
  });
});

describe("enquiries", () => {
  it("takes 10 enquiries from one address in an hour, however many arrive together", async () => {
    expect(RATE_RULES.enquiryIp.limit).toBe(10);
    const center = await createCenter(t, null);
    const lead = {
      name: "Ravi Kumar",
      phone: "+91 98765-43210",
      email: "ravi@example.com",
      program: "NEET UG",
      message: "Evening batch?",
      kind: "Enquire",
    };
    const statuses = await burst(14, () =>
      postJson(t, "/api/enquiries", lead, { host: center.customDomain!, headers: from("192.0.2.43") }),
    );
    expect(tally(statuses)).toEqual({ 201: 10, 429: 4 });
    expect(await rows(enquiries, eq(enquiries.centerId, center.id))).toBe(10);
  });
});

describe("payment orders", () => {
  const N = RATE_RULES.paymentOrderUser.limit + 6;

  it("places 30 plan orders for one person in an hour, however many are asked for together", async () => {
    expect(RATE_RULES.paymentOrderUser.limit).toBe(30);
    const owner = await register(t, "business");
    const [plan] = await t.database.db
      .insert(pricingPlans)
      .values({ name: "Burst Plan", monthlyPrice: 99_900, quarterlyPrice: 279_900, yearlyPrice: 999_900 })
      .returning();
    const order = (i: number) => ({
      institute: "Sunrise Coaching",
      owner: "Asha Rao",
      email: "asha@example.com",
      phone: "+91 98765 43210",
      plan: plan.id,
      billing: "monthly",
      domain: `burst-${i}-${Date.now().toString(36)}.example.com`,
    });
    const statuses = await burst(N, (i) =>
      postJson(t, "/api/payment/create-order", order(i), { headers: bearer(owner.access_token) }),
    );
    expect(tally(statuses)).toEqual({ 200: 30, 429: 6 });
    expect(await rows(orders, and(eq(orders.buyerId, owner.user._id), eq(orders.subject, "plan")))).toBe(30);
  });

  it("places 30 content orders for one student in an hour, however many are asked for together", async () => {
    const creator = await register(t, "creator");
    const student = await register(t, "student");
    // A content of its own for each order, so no request reuses another's pending order.
    const ids: string[] = [];
    for (let i = 0; i < N; i++)
      ids.push(
        await publish(t, creator.access_token, {
          title: `Live class ${i}`,
          type: "live",
          price: "199",
          liveLink: "https://meet.example.com/burst",
        }),
      );
    const statuses = await burst(N, (i) =>
      postJson(t, "/api/student/enroll", { contentId: ids[i] }, { headers: bearer(student.access_token) }),
    );
    expect(tally(statuses)).toEqual({ 200: 30, 429: 6 });
    expect(await rows(orders, and(eq(orders.buyerId, student.user._id), eq(orders.subject, "content")))).toBe(30);
  });
});
