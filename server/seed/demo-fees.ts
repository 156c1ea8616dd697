import { and, eq } from "drizzle-orm";
import { centers, memberships, users } from "../db/schema/index.ts";
import type { Services } from "../services/index.ts";
import type { Db } from "../db/types.ts";
import { DEMO_ACCOUNTS, DEMO_CENTERS } from "./demo-data.ts";
import { addDays, indiaDate } from "#common/india-dates.ts";

/**
 * The demo's fees, made through the real services: Sunrise Academy's two-instalment plan for
 * JEE 2027 with a late fee, assigned to the demo student with a scholarship, the first
 * instalment overdue and part paid in cash at the desk, so the Fees pages show every figure; and
 * a monthly test series, which she can have collected by UPI Autopay (decision 0051) in the sandbox.
 */
export async function seedDemoFees(db: Db, services: Services): Promise<void> {
  const owner = DEMO_ACCOUNTS.find((a) => a.role === "business")!;
  const student = DEMO_ACCOUNTS.find((a) => a.role === "student")!;
  const [sunrise] = await db.select({ id: centers.id }).from(centers).where(eq(centers.slug, DEMO_CENTERS[0].slug));
  const [ownerRow] = await db.select({ id: users.id }).from(users).where(eq(users.email, owner.email));
  const [studentRow] = await db.select({ id: users.id }).from(users).where(eq(users.email, student.email));
  if (!sunrise || !ownerRow || !studentRow) return;
  await db
    .insert(memberships)
    .values({ centerId: sunrise.id, userId: studentRow.id, role: "student", status: "active", acceptedAt: new Date() })
    .onConflictDoNothing();
  const [member] = await db
    .select({ id: memberships.id })
    .from(memberships)
    .where(
      and(
        eq(memberships.centerId, sunrise.id),
        eq(memberships.userId, studentRow.id),
        eq(memberships.role, "student"),
        eq(memberships.status, "active"),
      ),
    );
  if (!member) return;
  const today = indiaDate(new Date());
  const plan = await services.feePlans.create(ownerRow.id, sunrise.id, {
    name: "JEE 2027 Target, two instalments",
    heads: [
      { name: "Tuition", amount: 85_000 },
      // Handed over at admission: kept if the student leaves (decision 0048).
      { name: "Study material", amount: 10_000, nonRefundable: true },
      { name: "Test series", amount: 5_000 },
    ],
    instalments: [
      { label: "At admission", amount: 60_000, dueOn: addDays(today, -20) },
      { label: "Second instalment", amount: 40_000, dueOn: addDays(today, 70) },
    ],
    lateFee: { kind: "per-day", amount: 50, graceDays: 7, cap: 1_000 },
  });
  const account = await services.feeAccounts.assign(ownerRow.id, sunrise.id, {
    studentId: studentRow.id,
    feePlanId: plan._id,
    discounts: [{ kind: "scholarship", percent: 10, reason: "Rank 42 in Sunrise's admission-cum-scholarship test" }],
  });
  await services.feeDesk.takeAtDesk(ownerRow.id, sunrise.id, account._id, {
    amount: 40_000,
    mode: "cash",
    paidOn: addDays(today, -15),
  });
  const monthly = await services.feePlans.create(ownerRow.id, sunrise.id, {
    name: "Weekend Test Series, monthly",
    heads: [{ name: "Test series", amount: 6_000 }],
    instalments: [0, 1, 2, 3].map((month) => ({
      label: `Month ${month + 1}`,
      amount: 1_500,
      dueOn: addDays(today, 10 + 30 * month),
    })),
  });
  await services.feeAccounts.assign(ownerRow.id, sunrise.id, { studentId: studentRow.id, feePlanId: monthly._id });
}
