import { Wallet } from "lucide-react";
import type { Route } from "./+types/fees";
import { getRequestContext } from "~/lib/context.server";
import { getViewer } from "~/lib/session.server";
import { PageHeader } from "~/components/ui/page-header";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TBody, Td, Th, THead, Tr } from "~/components/ui/table";
import { Badge } from "~/components/ui/badge";
import { EmptyState } from "~/components/ui/empty-state";
import { ReceiptPdfLinks } from "~/components/fees/receipt-pdf-links";
import { DefaulterPolicies } from "~/components/fees/defaulter-policies";
import { formatDate, formatRupees } from "#common/format.ts";
import { MODE_LABELS } from "#common/validation/fees.ts";
import { isDefaulter, owingOf, toPaise, toRupees } from "#common/fees.ts";
import { OverdueNotice } from "~/components/fees/overdue-notice";
import { checkoutConfig } from "~/lib/learning.server";
import { PayDueButton } from "~/components/fees/pay-due";
import { PaymentRailsNote } from "~/components/fees/payment-rails";
import { FeeStatement } from "~/components/fees/fee-statement";

export const meta: Route.MetaFunction = () => [{ title: "Fees | Student" }];

/** The signed-in student's fee accounts (on an institute's site, that institute's) with their receipts. */
export async function loader({ context }: Route.LoaderArgs) {
  const { services, site } = getRequestContext(context);
  const viewer = getViewer(context)!;
  const accounts = await services.feeAccounts.ofStudent(viewer.id, site.kind === "tenant" ? site.center.id : null);
  const receipts = await Promise.all(accounts.map((a) => services.feeDesk.receiptsOf(a._id)));
  const refunds = await Promise.all(accounts.map((a) => services.feeRefunds.ofAccount(a._id)));
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
  const policies = centers.map((id) => settings.get(id)!.defaulterPolicy);
  return {
    accounts: accounts.map((account, i) => ({
      account,
      receipts: receipts[i],
      refund: refunds[i],
      notice: notices[i],
      partial: settings.get(account.centerId)!.allowPartialOnline,
    })),
    policies,
    checkout: checkoutConfig(context),
  };
}

export default function StudentFees({ loaderData }: Route.ComponentProps) {
  const { accounts, policies, checkout } = loaderData;
  return (
    <div className="mx-auto grid max-w-5xl gap-6">
      <PageHeader title="Fees" description="What you owe your institute, by when, and every payment's receipt." />
      {accounts.length === 0 && <EmptyState icon={<Wallet />} title="No fees to show." />}
      {accounts.map(({ account, receipts, refund, notice, partial }) => (
        <Card key={account._id} role="region" aria-label={account.planName}>
          <CardHeader>
            <CardTitle>{account.planName}</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-4">
            {notice && <OverdueNotice {...notice} />}
            <p className="text-sm">
              Fee {formatRupees(account.total)}
              {account.discount > 0 && ` · discounts ${formatRupees(account.discount)}`}
              {account.lateFee > 0 && ` · late fees ${formatRupees(account.lateFee)}`} · paid{" "}
              {formatRupees(account.paid)} · <strong>balance {formatRupees(account.balance)}</strong>
            </p>
            <Table>
              <THead>
                <tr>
                  <Th>Due</Th>
                  <Th>Last date</Th>
                  <Th className="text-right">Amount</Th>
                  <Th className="text-right">Paid</Th>
                  <Th className="text-right">Balance</Th>
                  <Th className="text-right">Pay online</Th>
                </tr>
              </THead>
              <TBody>
                {account.dues.map((d) => (
                  <Tr key={d._id}>
                    <Td>{d.label}</Td>
                    <Td>
                      {formatDate(d.dueOn)}
                      {d.overdueDays > 0 && (
                        <Badge tone="destructive" className="ml-2">
                          {d.overdueDays} days overdue
                        </Badge>
                      )}
                    </Td>
                    <Td className="text-right tabular-nums">{formatRupees(d.amount - d.discount + d.lateFee)}</Td>
                    <Td className="text-right tabular-nums">{formatRupees(d.paid)}</Td>
                    <Td className="text-right tabular-nums">{formatRupees(d.balance)}</Td>
                    <Td>{d.balance > 0 && <PayDueButton due={d} checkout={checkout} partial={partial} />}</Td>
                  </Tr>
                ))}
              </TBody>
            </Table>
            {account.balance > 0 && <PaymentRailsNote account={account} />}
            {receipts.length > 0 && (
              <section aria-label="Receipts" className="grid gap-1 text-sm">
                <h3 className="font-medium">Receipts</h3>
                {receipts.map((r) => (
                  <div key={r._id} className="flex flex-wrap gap-3">
                    <span className="tabular-nums">{r.number}</span>
                    <span>{formatDate(r.paidOn)}</span>
                    <span className="tabular-nums">{formatRupees(r.amount)}</span>
                    <span>{MODE_LABELS[r.mode]}</span>
                    {r.reversed && <Badge tone="destructive">Reversed: {r.reversed.reason}</Badge>}
                    <ReceiptPdfLinks receiptId={r._id} number={r.number} />
                  </div>
                ))}
              </section>
            )}
            {refund && (
              <p className="flex flex-wrap gap-3 text-sm" aria-label="Refund">
                <span>
                  Refunded {formatRupees(refund.amount)} ({refund.number}) after you left on {formatDate(refund.leftOn)}
                </span>
                <a
                  href={`/api/fee-refunds/${refund._id}/pdf`}
                  target="_blank"
                  rel="noreferrer"
                  className="text-primary underline-offset-4 hover:underline"
                >
                  Refund Voucher (PDF)
                </a>
              </p>
            )}
            <FeeStatement account={account} />
          </CardContent>
        </Card>
      ))}
      <DefaulterPolicies policies={policies} />
    </div>
  );
}
