import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, like } from "drizzle-orm";
import { feeSettings, messages } from "../../server/db/schema/index.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createCenter } from "../helpers/centers.ts";
import { register } from "../helpers/learning.ts";
import { grantRole, verifyPhone } from "../helpers/attendance-rows.ts";
import { addDays, indiaInstant } from "../../common/india-dates.ts";

/**
 * Fee reminders (issue 42 §4): on the India date 3 days before a due's last date, on it and 3 days
 * after (or the institute's own days), one message per due and stage to the student who still owes,
 * on WhatsApp and SMS (a verified number) and e-mail, with their Fees page on the institute's site;
 * never to one who has paid, never twice however many runs meet, never a stage switched off. The
 * clock is injected: every date here is relative to 15 June 2027, India time.
 */

type Account = Awaited<ReturnType<typeof register>>;
let t: TestApp;
let owner: Account;
let otherOwner: Account;
let asha: Account;
let bilal: Account;
let chitra: Account;
let esha: Account;
let sunrise: Awaited<ReturnType<typeof createCenter>>;
let vidya: Awaited<ReturnType<typeof createCenter>>;

const D = "2027-06-15";
/** 10:00 India time on India date `date`. */
const at = (date: string) => indiaInstant(date, 10 * 60);
const PHONES = { asha: "+919830000201", esha: "+919830000205" };

/** Fee reminders written so far (every channel). */
const reminders = () =>
  t.database.db
    .select({
      template: messages.template,
      channel: messages.channel,
      recipient: messages.recipient,
      text: messages.text,
      subject: messages.subject,
      key: messages.dedupeKey,
    })
    .from(messages)
    .where(like(messages.dedupeKey, "fee-reminder:%"));
const keysOf = async (dueIds: string[]) =>
  (await reminders())
    .map((m) => m.key!)
    .filter((key) => dueIds.some((id) => key.startsWith(`fee-reminder:${id}:`)))
    .sort();

/** A plan of `sunrise` (or `centerId`'s) with the given instalments (rupees), assigned to `student`; its dues' ids in order. */
async function account(
  student: Account,
  instalments: { label: string; amount: number; dueOn: string }[],
  by = owner,
  centerId = sunrise.id,
): Promise<{ accountId: string; dueIds: string[] }> {
  const plan = await t.services.feePlans.create(by.user._id, centerId, {
    name: `Plan for ${student.user.name} ${instalments.length}`,
    heads: [{ name: "Tuition", amount: instalments.reduce((s, i) => s + i.amount, 0) }],
    instalments,
  });
  const made = await t.services.feeAccounts.assign(by.user._id, centerId, {
    studentId: student.user._id,
    feePlanId: plan._id,
  });
  return { accountId: made._id, dueIds: made.dues.map((d) => d._id) };
}
const pay = (accountId: string, amount: number, centerId = sunrise.id) =>
  t.services.feeDesk.takeAtDesk(owner.user._id, centerId, accountId, { amount, mode: "cash" });

beforeAll(async () => {
  t = await createTestApp();
  owner = await register(t, "business", { name: "Anita Sharma" });
  otherOwner = await register(t, "business", { name: "Ravi Rao" });
  asha = await register(t, "student", { name: "Asha Verma" });
  bilal = await register(t, "student", { name: "Bilal Khan" });
  chitra = await register(t, "student", { name: "Chitra Nair" });
  esha = await register(t, "student", { name: "Esha Gupta" });
  sunrise = await createCenter(t, owner.user._id, { instituteName: "Sunrise Academy", slug: "rem-sunrise" });
  vidya = await createCenter(t, otherOwner.user._id, { instituteName: "Vidya Classes", slug: "rem-vidya" });
  for (const s of [asha, bilal, chitra]) await grantRole(t, sunrise.id, s.user._id, "student");
  await grantRole(t, vidya.id, esha.user._id, "student");
  await verifyPhone(t, asha.user._id, PHONES.asha);
  await verifyPhone(t, esha.user._id, PHONES.esha);
});
afterAll(() => t.close());

describe("fee reminders", () => {
  it("remind 3 days before, on the day and 3 days after a last date, each once, on every channel, with the Fees page to pay at", async () => {
    const { dueIds } = await account(asha, [
      { label: "First instalment", amount: 20_000, dueOn: D },
      { label: "Second instalment", amount: 30_000, dueOn: addDays(D, 40) },
    ]);
    const stages: Record<string, string[]> = {};
    for (let day = -6; day <= 8; day++) {
      const before = await keysOf(dueIds);
      await t.services.feeReminders.run(at(addDays(D, day)));
      const added = (await keysOf(dueIds)).filter((k) => !before.includes(k));
      if (added.length) stages[addDays(D, day)] = added;
    }
    const key = (stage: string, channel: string) => `fee-reminder:${dueIds[0]}:${stage}:${channel}`;
    expect(stages).toEqual({
      [addDays(D, -3)]: ["email", "sms", "whatsapp"].map((c) => key("before", c)),
      [D]: ["email", "sms", "whatsapp"].map((c) => key("on", c)),
      [addDays(D, 3)]: ["email", "sms", "whatsapp"].map((c) => key("after", c)),
    });

    const link = t.services.links.to({ slug: "rem-sunrise", customDomain: sunrise.customDomain }, "/student/fees");
    const told = (await reminders()).filter((m) => m.key!.startsWith(`fee-reminder:${dueIds[0]}:`));
    const whatsapp = (stage: string) => told.find((m) => m.key === key(stage, "whatsapp"))!;
    expect(whatsapp("before")).toMatchObject({
      template: "fee-reminder-before",
      recipient: PHONES.asha,
      text: `Asha Verma, ₹20,000 for First instalment is due on 15 June 2027 at Sunrise Academy. Pay: ${link}`,
    });
    expect(whatsapp("on").text).toBe(
      `Asha Verma, ₹20,000 for First instalment is due today, 15 June 2027, at Sunrise Academy. Pay: ${link}`,
    );
    expect(whatsapp("after").text).toBe(
      `Asha Verma, ₹20,000 for First instalment was due on 15 June 2027 at Sunrise Academy and is still unpaid. Pay: ${link}`,
    );
    expect(told.find((m) => m.key === key("after", "email"))).toMatchObject({
      template: "fee-reminder-after",
      recipient: asha.email,
      subject: "Sunrise Academy: ₹20,000 fee overdue",
    });
    expect(link).toMatch(/^https?:\/\/rem-sunrise\.test(:\d+)?\/student\/fees$/);
  });

  it("remind only those who still owe on the day, of what they still owe, and never a due settled", async () => {
    const due = addDays(D, 100);
    const paid = await account(bilal, [{ label: "Lump sum", amount: 15_000, dueOn: due }]);
    await pay(paid.accountId, 15_000);
    const part = await account(chitra, [
      { label: "Term 1", amount: 10_000, dueOn: due },
      { label: "Term 2", amount: 10_000, dueOn: addDays(due, 30) },
    ]);
    await pay(part.accountId, 4_000);
    await t.services.feeReminders.run(at(addDays(due, -3)));
    expect(await keysOf(paid.dueIds)).toEqual([]);
    // Chitra has no verified number: e-mail only, with the balance left on the due.
    const [before] = (await reminders()).filter((m) => m.key!.startsWith(`fee-reminder:${part.dueIds[0]}:`));
    expect(before).toMatchObject({ channel: "email", recipient: chitra.email });
    expect(before.text).toContain("Chitra Nair, ₹6,000 for Term 1 is due on");

    // She settles Term 1 before its day: no reminder on the day, nor after it.
    await pay(part.accountId, 6_000);
    await t.services.feeReminders.run(at(due));
    await t.services.feeReminders.run(at(addDays(due, 3)));
    expect(await keysOf([part.dueIds[0]])).toEqual([`fee-reminder:${part.dueIds[0]}:before:email`]);
  });

  it("never write a reminder twice, however many runs meet at once or come again", async () => {
    const due = addDays(D, 200);
    const { dueIds } = await account(asha, [{ label: "Hostel", amount: 8_000, dueOn: due }]);
    await Promise.all([1, 2, 3].map(() => t.services.feeReminders.run(at(due))));
    await t.services.feeReminders.run(at(due));
    // The reminders' clock runs them too.
    await t.services.reminders.run(at(due));
    expect(await keysOf(dueIds)).toEqual(["email", "sms", "whatsapp"].map((c) => `fee-reminder:${dueIds[0]}:on:${c}`));
  });

  it("follow the institute's own days, and send nothing for a stage it switched off", async () => {
    await t.database.db
      .insert(feeSettings)
      .values({ centerId: vidya.id, remindDaysBefore: 5, remindOnDay: false, remindDaysAfter: 0 });
    const { dueIds } = await account(esha, [{ label: "Lump sum", amount: 25_000, dueOn: D }], otherOwner, vidya.id);
    const stages: Record<string, string[]> = {};
    for (let day = -8; day <= 8; day++) {
      const before = await keysOf(dueIds);
      await t.services.feeReminders.run(at(addDays(D, day)));
      const added = (await keysOf(dueIds)).filter((k) => !before.includes(k));
      if (added.length) stages[addDays(D, day)] = added;
    }
    expect(stages).toEqual({
      [addDays(D, -5)]: ["email", "sms", "whatsapp"].map((c) => `fee-reminder:${dueIds[0]}:before:${c}`),
    });
    const [sent] = await t.database.db
      .select({ text: messages.text })
      .from(messages)
      .where(and(eq(messages.dedupeKey, `fee-reminder:${dueIds[0]}:before:sms`)));
    expect(sent.text).toContain("Esha Gupta, ₹25,000 for Lump sum is due on 15 June 2027 at Vidya Classes. Pay: ");
  });
});
