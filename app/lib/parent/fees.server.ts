import type { RouterContextProvider } from "react-router";
import { indiaDate } from "#common/india-dates.ts";
import { feeAccountsOfStudents } from "../fee-accounts.server";
import { checkoutConfig } from "../learning.server";
import { myChildren, parentArea } from "./area.server";
import { feesAtAGlance } from "#common/parent-area.ts";

/**
 * The household's fees (issue 42 §7, "siblings share one household view"): every child's dues in
 * one list, oldest last date first, each with Pay while it owes (Checkout on the child's
 * institute's own account, which lets a linked parent pay), the total the household owes and what
 * of it is owed now; each institute's defaulter policy. Read through each child's active link, for
 * all the children at once.
 */
export async function loadHouseholdFees(context: Readonly<RouterContextProvider>) {
  const { services } = parentArea(context);
  const children = await myChildren(context);
  const today = indiaDate(new Date());
  const views = await feeAccountsOfStudents(
    services,
    children.map((c) => ({ studentId: c.studentId, centerId: c.centerId })),
  );
  const perChild = children.map((child, i) => ({ child, fees: views[i] }));
  const dues = perChild
    .flatMap(({ child, fees }) =>
      fees.accounts.flatMap(({ account, partial }) =>
        account.dues.map((due) => ({
          due,
          partial,
          child: { linkId: child._id, name: child.name, institute: child.institute },
          planName: account.planName,
        })),
      ),
    )
    .sort((a, b) => a.due.dueOn.localeCompare(b.due.dueOn) || a.child.name.localeCompare(b.child.name));
  const accounts = perChild.flatMap(({ fees }) => fees.accounts.map((a) => a.account));
  const owing = feesAtAGlance(accounts, today);
  const total = accounts.reduce((sum, a) => Math.round((sum + a.balance) * 100) / 100, 0);
  return {
    children: children.map((c) => ({ linkId: c._id, name: c.name, institute: c.institute })),
    dues,
    total,
    owedNow: owing.owedNow,
    policies: perChild.flatMap(({ fees }) => fees.policies),
    checkout: checkoutConfig(context),
  };
}
