import { Form } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input, Select } from "~/components/ui/input";
import { Table, TBody, Td, Th, Tr } from "~/components/ui/table";
import { formatDate, formatRupees } from "#common/format.ts";
import { MODE_LABELS } from "#common/validation/fees.ts";
import {
  PAY_OUT_MODES,
  type FeeRefundJson,
  type RefundQuoteJson,
  type UnfinishedRefundJson,
} from "#common/validation/fee-refunds.ts";

/** What the refund panel was asked for: the day the student left, the course's dates if given. */
export interface RefundAsk {
  leftOn: string;
  courseFrom: string;
  courseTo: string;
}

/**
 * A student who leaves (issue 42 §6, decision 0048): the owner gives the day they left (and the
 * course's dates when no batch says them), sees the calculator's working, and confirms the refund
 * once, with a reason; online payments go back through the gateway, the rest is paid out.
 */
export function RefundPanel({
  accountId,
  today,
  ask,
  quote,
  error,
  done,
  busy,
}: {
  accountId: string;
  today: string;
  ask: RefundAsk | null;
  quote: RefundQuoteJson | null;
  error: string | null;
  done: FeeRefundJson | null;
  busy: boolean;
}) {
  if (done) return <RefundMade refund={done} />;
  return (
    <section aria-label="Refund" className="grid gap-3 rounded-lg border p-4">
      <h3 className="font-medium">Refund a student who left</h3>
      <p className="text-sm text-muted-foreground">
        India's 2024 coaching guidelines: a pro-rata refund for the remaining period, within 10 days of leaving. The
        plan's non-refundable heads, the days used and late fees are kept.
      </p>
      <Form method="get" className="grid gap-3 sm:grid-cols-4" aria-label="Work out a refund">
        <input type="hidden" name="account" value={accountId} />
        <Field label="Left on">
          <Input name="leftOn" type="date" required max={today} defaultValue={ask?.leftOn ?? today} />
        </Field>
        <Field label="Course from" hint="Leave empty to use the batch's dates">
          <Input name="courseFrom" type="date" defaultValue={ask?.courseFrom ?? ""} />
        </Field>
        <Field label="Course to">
          <Input name="courseTo" type="date" defaultValue={ask?.courseTo ?? ""} />
        </Field>
        <div className="flex items-end">
          <Button type="submit" variant="outline" disabled={busy}>
            Work out the refund
          </Button>
        </div>
      </Form>
      {error && (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
      {quote && ask && <RefundConfirm accountId={accountId} quote={quote} ask={ask} busy={busy} />}
    </section>
  );
}

function RefundConfirm({
  accountId,
  quote,
  ask,
  busy,
}: {
  accountId: string;
  quote: RefundQuoteJson;
  ask: RefundAsk;
  busy: boolean;
}) {
  const w = quote.working;
  const online = quote.online.reduce((s, r) => s + r.amount, 0);
  return (
    <div className="grid gap-3">
      <Table aria-label="The refund's working">
        <TBody>
          <Row label={`Course ${formatDate(w.course.from)} to ${formatDate(w.course.to)}`}>
            {w.days.used} of {w.days.total} days used
            {w.course.from_batch ? " (the batch's dates)" : ""}
          </Row>
          <Row label="Fee (after discounts)">{formatRupees(w.fee)}</Row>
          <Row label="Non-refundable heads">
            {formatRupees(w.nonRefundable.amount)}
            {w.nonRefundable.heads.length > 0 &&
              ` (${w.nonRefundable.heads.map((h) => `${h.name} ${formatRupees(h.amount)}`).join(", ")})`}
          </Row>
          <Row label="Fee for the days used">
            {formatRupees(w.usedFee)} of {formatRupees(w.refundableFee)} refundable
          </Row>
          <Row label="Late fees and charges kept">{formatRupees(w.penalties)}</Row>
          <Row label="The institute keeps">{formatRupees(w.kept)}</Row>
          <Row label="Paid">{formatRupees(w.paid)}</Row>
          <Row label="Proposed refund">
            <strong>{formatRupees(w.proposed)}</strong>
            {w.stillOwed > 0 && ` (the student still owes ${formatRupees(w.stillOwed)} for what was used)`}
          </Row>
          <Row label="Refund by">{formatDate(w.refundBy)}</Row>
        </TBody>
      </Table>
      <p className="text-sm">
        {online > 0
          ? `Up to ${formatRupees(online)} goes back through the payment gateway to the card, UPI or bank account it was paid from (${quote.online.map((r) => r.number).join(", ")}); the rest is paid out at the desk.`
          : "Nothing was paid online: the refund is paid out at the desk."}
      </p>
      {quote.unfinished && <Unfinished refund={quote.unfinished} />}
      {quote.blocked && (
        <p role="alert" className="text-sm text-destructive">
          {quote.blocked}
        </p>
      )}
      {quote.refund ? (
        <RefundMade refund={quote.refund} />
      ) : quote.blocked ? null : (
        <Form method="post" className="grid gap-3 sm:grid-cols-3" aria-label="Confirm the refund">
          <input type="hidden" name="intent" value="refund" />
          <input type="hidden" name="accountId" value={accountId} />
          <input type="hidden" name="leftOn" value={ask.leftOn} />
          <input type="hidden" name="courseFrom" value={ask.courseFrom} />
          <input type="hidden" name="courseTo" value={ask.courseTo} />
          <Field label="Refund (₹)" hint="The proposal unless you change it">
            <Input name="amount" inputMode="decimal" required defaultValue={w.proposed > 0 ? String(w.proposed) : ""} />
          </Field>
          <Field label="Paid out by" hint="For what does not go back online">
            <Select name="mode" defaultValue="bank">
              {PAY_OUT_MODES.map((m) => (
                <option key={m} value={m}>
                  {MODE_LABELS[m]}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Reference" hint="Cheque, UPI or transfer number">
            <Input name="reference" maxLength={60} />
          </Field>
          <Field label="Reason" className="sm:col-span-2">
            <Input name="reason" required maxLength={300} placeholder="Moved to another city" />
          </Field>
          <div className="flex items-end">
            <Button type="submit" disabled={busy}>
              {quote.unfinished ? "Finish the refund" : "Confirm refund"}
            </Button>
          </div>
        </Form>
      )}
    </div>
  );
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Tr>
      <Th scope="row" className="text-left font-normal text-muted-foreground">
        {label}
      </Th>
      <Td className="tabular-nums">{children}</Td>
    </Tr>
  );
}

/** A refund confirmed earlier that did not finish: confirming again finishes it as it was confirmed. */
function Unfinished({ refund }: { refund: UnfinishedRefundJson }) {
  const what = `The refund of ${formatRupees(refund.amount)} confirmed on ${formatDate(refund.createdAt)}`;
  return (
    <p
      role="status"
      className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
    >
      {refund.status === "failed"
        ? `${what} did not finish at the payment gateway${refund.failure ? `: ${refund.failure}` : ""}.`
        : `${what} is being made.`}{" "}
      Finish it below: it is finished as it was confirmed, and no payment is refunded twice.
    </p>
  );
}

function RefundMade({ refund }: { refund: FeeRefundJson }) {
  const href = `/api/fee-refunds/${refund._id}/pdf`;
  return (
    <div className="flex flex-wrap items-center gap-3 rounded-lg border p-3 text-sm" aria-label="Refund made">
      <Badge tone="destructive">Refunded</Badge>
      <span className="font-medium tabular-nums">{refund.number}</span>
      <span className="tabular-nums">{formatRupees(refund.amount)}</span>
      <span>
        {refund.throughGateway > 0 && `${formatRupees(refund.throughGateway)} through the gateway`}
        {refund.throughGateway > 0 && refund.paidOut > 0 && " · "}
        {refund.paidOut > 0 &&
          `${formatRupees(refund.paidOut)} paid out by ${MODE_LABELS[refund.mode ?? "cash"]}${refund.reference ? ` ${refund.reference}` : ""}`}
      </span>
      <span className="text-muted-foreground">
        Left on {formatDate(refund.leftOn)}: {refund.reason}
      </span>
      <a href={href} target="_blank" rel="noreferrer" className="text-primary underline-offset-4 hover:underline">
        Refund Voucher (PDF)
      </a>
    </div>
  );
}
