import type { Services } from "../../server/services/index.ts";
import { isDefaulter, owingOf, toPaise, toRupees } from "#common/fees.ts";

/**
 * A student's fee accounts as their Fees page shows them (the student's own page, and their
 * parent's household view): each account with its receipts, its refund once the student left, the defaulter notice when the
 * account is overdue longer than the institute's days, and whether the institute takes part
 * payments online; and each institute's written defaulter policy. Who may read them is the caller's
 * to have decided (the student themself, or a parent through an active link).
 */
export async function feeAccountsOf(services: Services, studentId: string, centerId: string | null) {
  const accounts = await services.feeAccounts.ofStudent(studentId, centerId);
  const receipts = await Promise.all(accounts.map((a) => services.feeDesk.receiptsOf(a._id)));
  const refunds = await Promise.all(accounts.map((a) => services.feeRefunds.ofAccount(a._id)));
  const mandates = await services.feeMandates.ofAccounts(accounts.map((a) => a._id));
  // Each institute's fee settings, read once: its defaulter days and policy, and whether it takes part payments online.
  const centers = [...new Set(accounts.map((a) => a.centerId))];
  const settings = new Map(
    await Promise.all(centers.map(async (id) => [id, await services.feeSettings.get(id)] as const)),
  );
  // A defaulter (overdue longer than the institute's days) is told so; its policy shows below, for everyone.
  const notices = accounts.map((a) => {
    const owing = owingOf(a.dues.map((d) => ({ ...d, balance: toPaise(d.balance) })));
    if (!isDefaulter(owing, settings.get(a.centerId)!.defaulterAfterDays)) return null;
    return { overdue: toRupees(owing.overdue), daysOverdue: owing.daysOverdue, oldestDueOn: owing.oldestDueOn! };
  });
  return {
    accounts: accounts.map((account, i) => ({
      account,
      receipts: receipts[i],
      refund: refunds[i],
      notice: notices[i],
      partial: settings.get(account.centerId)!.allowPartialOnline,
      mandate: mandates[account._id] ?? null,
    })),
    policies: centers.map((id) => settings.get(id)!.defaulterPolicy),
  };
}
