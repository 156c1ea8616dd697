import type { Services } from "../../server/services/index.ts";
import type { FeeAccountJson } from "#common/validation/fees.ts";
import { isDefaulter, owingOf, toPaise, toRupees } from "#common/fees.ts";

/**
 * A student's fee accounts as their Fees page shows them (the student's own page, and their
 * parent's household view): each account with its receipts, its refund once the student left, the defaulter notice when the
 * account is overdue longer than the institute's days, and whether the institute takes part
 * payments online; and each institute's written defaulter policy. Who may read them is the caller's
 * to have decided (the student themself, or a parent through an active link).
 */
export async function feeAccountsOf(services: Services, studentId: string, centerId: string | null) {
  return (await feeAccountsOfStudents(services, [{ studentId, centerId }]))[0];
}

/**
 * `feeAccountsOf` for several students at once (a parent's children), in the order given: the
 * accounts of them all in one read, and each institute's fee settings in one query.
 */
export async function feeAccountsOfStudents(
  services: Services,
  students: { studentId: string; centerId: string | null }[],
) {
  const perStudent = await services.feeAccounts.ofStudents(students);
  const all = perStudent.flat();
  const ids = all.map((a) => a._id);
  const [receipts, refunds, mandates, settings] = await Promise.all([
    services.feeDesk.receiptsOfAccounts(ids),
    services.feeRefunds.ofAccounts(ids),
    // Each account's standing instruction for monthly dues (decision 0051), live or the last that ended.
    services.feeMandates.ofAccounts(ids),
    // Each institute's fee settings: its defaulter days and policy, and whether it takes part payments online.
    services.feeSettings.ofCenters(all.map((a) => a.centerId)),
  ]);
  const view = (account: FeeAccountJson) => {
    const rules = settings.get(account.centerId)!;
    // A defaulter (overdue longer than the institute's days) is told so; its policy shows below, for everyone.
    const owing = owingOf(account.dues.map((d) => ({ ...d, balance: toPaise(d.balance) })));
    const notice = isDefaulter(owing, rules.defaulterAfterDays)
      ? { overdue: toRupees(owing.overdue), daysOverdue: owing.daysOverdue, oldestDueOn: owing.oldestDueOn! }
      : null;
    return {
      account,
      receipts: receipts.get(account._id) ?? [],
      refund: refunds.get(account._id) ?? null,
      notice,
      partial: rules.allowPartialOnline,
      mandate: mandates[account._id] ?? null,
    };
  };
  return perStudent.map((accounts) => ({
    accounts: accounts.map(view),
    policies: [...new Set(accounts.map((a) => a.centerId))].map((id) => settings.get(id)!.defaulterPolicy),
  }));
}
