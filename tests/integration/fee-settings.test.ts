import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { register } from "../helpers/learning.ts";
import { memberships } from "../../server/db/schema/index.ts";
import { notAllowed } from "../../server/auth/permissions.ts";
import { NOT_A_MEMBER } from "../../server/api/member-guard.ts";
import type { MemberRole } from "../../common/memberships.ts";
import { FEE_SETTINGS_DEFAULTS } from "../../common/validation/fee-settings.ts";

/**
 * An institute's fee settings (issue 42 §1, §4, §5) through the API: the defaults until saved, a
 * save of all of them, a bad value refused naming its field and changing nothing, and only the
 * institute's owners and staff reading or writing them.
 */

type Account = Awaited<ReturnType<typeof register>>;
let t: TestApp;
let owner: Account;
let staffer: Account;
let teacher: Account;
let student: Account;
let otherOwner: Account;
let centerId = "";

const grant = (userId: string, role: MemberRole) =>
  t.database.db
    .insert(memberships)
    .values({ centerId, userId, role, status: "active", acceptedAt: new Date() })
    .onConflictDoNothing();
const read = async (who: Account) => {
  const res = await t.request(`/api/fee-settings?centerId=${centerId}`, { headers: bearer(who.access_token) });
  return { status: res.status, body: await res.json() };
};
const save = async (who: Account, body: unknown) => {
  const res = await t.request("/api/fee-settings", {
    method: "PUT",
    headers: { ...bearer(who.access_token), "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
};

const SETTINGS = {
  remindDaysBefore: 5,
  remindOnDay: false,
  remindDaysAfter: 7,
  defaulterAfterDays: 15,
  defaulterPolicy: "  New lectures are locked after 15 days overdue; a test already paid for never is.  ",
  bounceFee: 590.5,
  allowPartialOnline: true,
};

beforeAll(async () => {
  t = await createTestApp();
  owner = await register(t, "business", { name: "Anita Sharma" });
  otherOwner = await register(t, "business", { name: "Ravi Rao" });
  staffer = await register(t, "business", { name: "Front Desk Farah" });
  teacher = await register(t, "creator", { name: "Kavya Iyer" });
  student = await register(t, "student", { name: "Priya Das" });
  centerId = (await createCenter(t, owner.user._id, { instituteName: "Sunrise Academy", slug: "fee-settings" })).id;
  await createCenter(t, otherOwner.user._id, { instituteName: "Vidya Classes", slug: "fee-settings-vidya" });
  await grant(staffer.user._id, "staff");
  await grant(teacher.user._id, "teacher");
  await grant(student.user._id, "student");
});
afterAll(() => t.close());

describe("fee settings", () => {
  it("are the defaults until the institute saves them", async () => {
    const { status, body } = await read(staffer);
    expect(status).toBe(200);
    expect(body.settings).toEqual({ centerId, ...FEE_SETTINGS_DEFAULTS, updatedAt: null });
    expect(body.settings).toMatchObject({ remindDaysBefore: 3, remindOnDay: true, remindDaysAfter: 3, bounceFee: 0 });
  });

  it("saves all of them, the bounce fee in rupees and the policy trimmed; an empty policy is none", async () => {
    const saved = await save(staffer, { centerId, ...SETTINGS });
    expect(saved.status).toBe(200);
    expect(saved.body.settings).toMatchObject({
      ...SETTINGS,
      defaulterPolicy: "New lectures are locked after 15 days overdue; a test already paid for never is.",
    });
    expect(saved.body.settings.updatedAt).toEqual(expect.any(String));
    expect((await read(owner)).body.settings).toEqual(saved.body.settings);
    const cleared = await save(owner, { centerId, ...SETTINGS, defaulterPolicy: "" });
    expect(cleared.body.settings.defaulterPolicy).toBeNull();
    expect(t.services.feeSettings).toBeDefined();
    await save(owner, { centerId, ...SETTINGS });
  });

  it("refuses a value out of range naming its field, and changes nothing", async () => {
    const before = (await read(owner)).body.settings;
    const cases: [Record<string, unknown>, string, string][] = [
      [{ remindDaysBefore: 31 }, "remindDaysBefore", "Days before the last date to remind must be between 0 and 30"],
      [{ remindDaysAfter: -1 }, "remindDaysAfter", "Days after the last date to remind must be between 0 and 60"],
      [
        { defaulterAfterDays: 0 },
        "defaulterAfterDays",
        "Days overdue before a student is a defaulter must be between 1 and 365",
      ],
      [
        { defaulterAfterDays: 2.5 },
        "defaulterAfterDays",
        "Days overdue before a student is a defaulter must be a whole number of days",
      ],
      [{ bounceFee: -1 }, "bounceFee", "The bounce fee must be at least ₹0"],
      [{ bounceFee: 10_001 }, "bounceFee", "The bounce fee must be at most ₹10,000"],
      [{ remindOnDay: "yes" }, "remindOnDay", "Remind on the last date must be true or false"],
      [
        { defaulterPolicy: "x".repeat(1001) },
        "defaulterPolicy",
        "The defaulter policy is too long (1000 characters at most)",
      ],
    ];
    for (const [change, field, message] of cases) {
      const res = await save(owner, { centerId, ...SETTINGS, ...change });
      expect(res.status, field).toBe(400);
      expect(res.body.error).toBe(message);
      expect(JSON.stringify(res.body)).toContain(field);
    }
    const missing = await save(owner, { centerId, remindDaysBefore: 3 });
    expect(missing.status).toBe(400);
    expect((await read(owner)).body.settings).toEqual(before);
  });

  it("are the institute's owners' and staff's alone", async () => {
    for (const who of [teacher, student]) {
      const res = await read(who);
      expect(res.status).toBe(403);
      expect(res.body.error).toBe(notAllowed("fees.manage"));
      expect((await save(who, { centerId, ...SETTINGS })).status).toBe(403);
    }
    const stranger = await save(otherOwner, { centerId, ...SETTINGS, bounceFee: 0 });
    expect(stranger.status).toBe(403);
    expect(stranger.body.error).toBe(NOT_A_MEMBER);
    expect((await read(owner)).body.settings.bounceFee).toBe(590.5);
  });
});
