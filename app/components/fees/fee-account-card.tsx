import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TBody, Td, Th, THead, Tr } from "~/components/ui/table";
import { Badge } from "~/components/ui/badge";
import { DueDateCell } from "~/components/fees/due-date-cell";
import { ReceiptPdfLinks } from "~/components/fees/receipt-pdf-links";
import { OverdueNotice, type OverdueNoticeProps } from "~/components/fees/overdue-notice";
import { PayDueButton, type CheckoutConfig } from "~/components/fees/pay-due";
import { FeeStatement } from "~/components/fees/fee-statement";
import { PaymentRailsNote } from "~/components/fees/payment-rails";
import { StandingInstruction } from "~/components/fees/standing-instruction";
import type { FeeMandateJson } from "#common/validation/fee-mandates.ts";
import type { FeeRefundJson } from "#common/validation/fee-refunds.ts";
import { formatDate, formatRupees } from "#common/format.ts";
import { MODE_LABELS, type FeeAccountJson, type FeeReceiptJson } from "#common/validation/fees.ts";

/** One fee account as its student (or their parent) reads it: what it owes, by when, Pay, receipts, statement. */
export interface FeeAccountView {
  account: FeeAccountJson;
  receipts: FeeReceiptJson[];
  /** The refund made when the student left (issue 42 §6), with its voucher. */
  refund: FeeRefundJson | null;
  /** The defaulter notice, when the account is overdue longer than the institute's days. */
  notice: OverdueNoticeProps | null;
  /** The institute takes part payments online. */
  partial: boolean;
  /** Its standing instruction for monthly dues (decision 0051), live or the last that ended. */
  mandate: FeeMandateJson | null;
}

/**
 * A fee account's card on a Fees page (issue 42 §7): the figures, each due with its last date and a
 * Pay button while it owes (Checkout on the institute's own account), the receipts with their PDFs
 * and the statement. `title` names it (the plan; a parent's page adds the child).
 */
export function FeeAccountCard({
  view: { account, receipts, refund, notice, partial, mandate },
  checkout,
  title = account.planName,
  whose = null,
}: {
  view: FeeAccountView;
  checkout: CheckoutConfig;
  title?: string;
  /** The child's name on a parent's page: the overdue notice names them. */
  whose?: string | null;
}) {
  return (
    <Card role="region" aria-label={title}>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-4">
        {notice && <OverdueNotice {...notice} whose={whose} />}
        <p className="text-sm">
          Fee {formatRupees(account.total)}
          {account.discount > 0 && ` · discounts ${formatRupees(account.discount)}`}
          {account.lateFee > 0 && ` · late fees ${formatRupees(account.lateFee)}`} · paid {formatRupees(account.paid)} ·{" "}
          <strong>balance {formatRupees(account.balance)}</strong>
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
                <DueDateCell due={d} />
                <Td className="text-right tabular-nums">{formatRupees(d.amount - d.discount + d.lateFee)}</Td>
                <Td className="text-right tabular-nums">{formatRupees(d.paid)}</Td>
                <Td className="text-right tabular-nums">{formatRupees(d.balance)}</Td>
                <Td>{d.balance > 0 && <PayDueButton due={d} checkout={checkout} partial={partial} />}</Td>
              </Tr>
            ))}
          </TBody>
        </Table>
        {account.balance > 0 && <PaymentRailsNote account={account} />}
        {(account.balance > 0 || mandate) && !refund && (
          <StandingInstruction account={account} mandate={mandate} checkout={checkout} />
        )}
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
              Refunded {formatRupees(refund.amount)} ({refund.number}) after {whose ?? "you"} left on{" "}
              {formatDate(refund.leftOn)}
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
  );
}
