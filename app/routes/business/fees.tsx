import { useEffect, useRef, useState } from "react";
import { Form, Link, useActionData, useNavigation } from "react-router";
import { IndianRupee, Plus, Trash2 } from "lucide-react";
import type { Route } from "./+types/fees";
import { revalidateOnConflict } from "~/lib/revalidate";
import { loadBusinessCenter, notAllowed } from "~/lib/business.server";
import { failure, tryRead, tryService } from "~/lib/actions.server";
import { toast } from "~/lib/toast";
import { ReceiptPdfLinks } from "~/components/fees/receipt-pdf-links";
import { PageHeader } from "~/components/ui/page-header";
import { Table, TBody, Td, Th, THead, Tr } from "~/components/ui/table";
import { Badge } from "~/components/ui/badge";
import { DueDateCell } from "~/components/fees/due-date-cell";
import { Button, ButtonLink } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input, Select } from "~/components/ui/input";
import { EmptyState } from "~/components/ui/empty-state";
import { NoSubscription } from "~/components/business/no-subscription";
import { FeeStatement } from "~/components/fees/fee-statement";
import { FeeSettingsForm } from "~/components/fees/fee-settings-form";
import { formatDate, formatRupees } from "#common/format.ts";
import { DISCOUNT_KINDS } from "#common/fees.ts";
import { DESK_MODES, MODE_LABELS, type FeeAccountJson, type FeeReceiptJson } from "#common/validation/fees.ts";
import type { FeePaymentLinkJson } from "#common/validation/fee-online.ts";
import { DueLinkCell } from "~/components/fees/payment-links";
import { RefundPanel } from "~/components/fees/refund-panel";
import { PaymentRailsNote } from "~/components/fees/payment-rails";
import { StandingInstruction } from "~/components/fees/standing-instruction";
import type { FeeMandateJson } from "#common/validation/fee-mandates.ts";
import { AssignCsvForm } from "~/components/fees/assign-csv-form";
import { ScholarshipForm } from "~/components/fees/scholarship-form";
import { indiaDate } from "#common/india-dates.ts";

export const shouldRevalidate = revalidateOnConflict;

export const meta: Route.MetaFunction = () => [{ title: "Fees | Business" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { center, services } = await loadBusinessCenter(context, request);
  if (!center) return { center: null, plans: [], accounts: [], students: [], tests: [], open: null, today: "" };
  const [plans, accounts, students, tests] = await Promise.all([
    services.feePlans.list(center.id),
    services.feeAccounts.list(center.id),
    services.feeAccounts.students(center.id),
    services.feeScholarships.rankedTests(center.id),
  ]);
  const params = new URL(request.url).searchParams;
  const chosen = params.get("account");
  const open =
    chosen && accounts.some((a) => a._id === chosen)
      ? {
          account: await services.feeAccounts.get(center.id, chosen),
          receipts: await services.feeDesk.receiptsOf(chosen),
          links: await services.feeLinks.ofAccount(chosen),
          mandate: (await services.feeMandates.ofAccounts([chosen]))[chosen] ?? null,
          refund: await refundView(services, center.id, chosen, params),
        }
      : null;
  return {
    center: { instituteName: center.instituteName },
    plans,
    accounts,
    students,
    tests,
    open,
    today: indiaDate(new Date()),
  };
}

/** The refund panel's state: the refund made, or the calculator's working for the day asked (decision 0048). */
async function refundView(
  services: Awaited<ReturnType<typeof loadBusinessCenter>>["services"],
  centerId: string,
  accountId: string,
  params: URLSearchParams,
) {
  const done = await services.feeRefunds.ofAccount(accountId);
  const leftOn = params.get("leftOn");
  if (done || !leftOn) return { done, ask: null, quote: null, error: null };
  const ask = { leftOn, courseFrom: params.get("courseFrom") ?? "", courseTo: params.get("courseTo") ?? "" };
  const quoted = await tryRead(() =>
    services.feeRefunds.quote(centerId, accountId, {
      leftOn,
      ...(ask.courseFrom ? { courseFrom: ask.courseFrom } : {}),
      ...(ask.courseTo ? { courseTo: ask.courseTo } : {}),
    }),
  );
  return quoted.ok ? { done, ask, quote: quoted.value, error: null } : { done, ask, quote: null, error: quoted.error };
}

const numberOrText = (value: string) => (value.trim() !== "" && !Number.isNaN(Number(value)) ? Number(value) : value);

export async function action({ request, context }: Route.ActionArgs) {
  const { center, services, may, viewer } = await loadBusinessCenter(context, request);
  if (!center) return failure("No active subscription found.", 404);
  if (!may("fees.manage")) return failure(notAllowed("fees.manage"), 403);
  const form = await request.formData();
  const field = (name: string) => String(form.get(name) ?? "").trim();
  const all = (name: string) => form.getAll(name).map((v) => String(v).trim());
  const intent = field("intent");
  if (intent === "plan") {
    const headNames = all("headName");
    const headAmounts = all("headAmount");
    const headKinds = all("headKind");
    const labels = all("instalmentLabel");
    const amounts = all("instalmentAmount");
    const dates = all("instalmentDueOn");
    const lateKind = field("lateKind");
    const done = await tryService(() =>
      services.feePlans.create(viewer.id, center.id, {
        name: field("name"),
        heads: headNames.map((name, i) => ({
          name,
          amount: numberOrText(headAmounts[i] ?? ""),
          ...(headKinds[i] === "non-refundable" ? { nonRefundable: true } : {}),
        })),
        instalments: labels.map((label, i) => ({
          label,
          amount: numberOrText(amounts[i] ?? ""),
          dueOn: dates[i] ?? "",
        })),
        lateFee:
          lateKind === "per-day" || lateKind === "flat"
            ? {
                kind: lateKind,
                amount: numberOrText(field("lateAmount")),
                graceDays: numberOrText(field("graceDays") || "0"),
                cap: numberOrText(field("lateCap")),
              }
            : null,
      }),
    );
    if (!done.ok) return done.response;
    return { ok: true as const, message: `${done.value.name} is made.` };
  }
  if (intent === "assign") {
    const discount = field("discountKind");
    const value = field("discountValue");
    const done = await tryService(() =>
      services.feeAccounts.assign(viewer.id, center.id, {
        studentId: field("studentId"),
        feePlanId: field("feePlanId"),
        discounts: discount
          ? [
              {
                kind: discount,
                ...(field("discountBy") === "amount"
                  ? { amount: numberOrText(value) }
                  : { percent: numberOrText(value) }),
                reason: field("discountReason"),
              },
            ]
          : [],
      }),
    );
    if (!done.ok) return done.response;
    return { ok: true as const, message: `${done.value.planName} is assigned to ${done.value.student.name}.` };
  }
  if (intent === "assign-csv") {
    const file = form.get("file");
    const csv = file instanceof File ? await file.text() : "";
    const done = await tryService(() =>
      services.feeAccounts.assignCsv(viewer.id, center.id, { feePlanId: field("feePlanId"), csv }),
    );
    if (!done.ok) return done.response;
    return {
      ok: true as const,
      message: `The plan is assigned to ${done.value.length} ${done.value.length === 1 ? "student" : "students"}.`,
    };
  }
  if (intent === "scholarship") {
    const from = all("slabFrom");
    const to = all("slabTo");
    const percent = all("slabPercent");
    const slabs = from
      .map((f, i) => ({
        from: numberOrText(f),
        to: numberOrText(to[i] ?? ""),
        percent: numberOrText(percent[i] ?? ""),
      }))
      .filter((_, i) => from[i] || to[i] || percent[i]);
    const done = await tryService(() =>
      services.feeScholarships.apply(viewer.id, center.id, {
        testId: field("testId"),
        feePlanId: field("feePlanId"),
        slabs,
      }),
    );
    if (!done.ok) return done.response;
    const given = done.value.filter((a) => !a.skipped);
    const skipped = done.value.filter((a) => a.skipped);
    const off = given.reduce((s, a) => s + a.amount, 0);
    return {
      ok: true as const,
      message:
        `Scholarships for ${given.length} ${given.length === 1 ? "student" : "students"} (${formatRupees(off)} off).` +
        (skipped.length
          ? ` Not given: ${skipped.map((a) => `${a.student.name}, rank ${a.rank}: ${a.skipped}`).join("; ")}.`
          : ""),
    };
  }
  if (intent === "pay") {
    const done = await tryService(() =>
      services.feeCounter.take(viewer.id, center.id, field("accountId"), {
        amount: numberOrText(field("amount")),
        mode: field("mode"),
        reference: field("reference") || undefined,
        paidOn: field("paidOn") || undefined,
        chequeDate: field("chequeDate") || undefined,
        bank: field("bank") || undefined,
      }),
    );
    if (!done.ok) return done.response;
    const { receipt, cheque } = done.value;
    return {
      ok: true as const,
      message: receipt
        ? `Receipt ${receipt.number} for ${formatRupees(receipt.amount)}.`
        : `Cheque ${cheque!.number} for ${formatRupees(cheque!.amount)} is held until ${formatDate(cheque!.chequeDate)} (Cheques and DDs).`,
    };
  }
  if (intent === "link") {
    const done = await tryService(() => services.feeLinks.create(viewer.id, center.id, field("dueId"), {}));
    if (!done.ok) return done.response;
    return { ok: true as const, message: `Payment link sent to the student: ${done.value.url}` };
  }
  if (intent === "refund") {
    const done = await tryService(() =>
      services.feeRefunds.refund(viewer.id, center.id, field("accountId"), {
        leftOn: field("leftOn"),
        ...(field("courseFrom") ? { courseFrom: field("courseFrom") } : {}),
        ...(field("courseTo") ? { courseTo: field("courseTo") } : {}),
        amount: numberOrText(field("amount")),
        reason: field("reason"),
        mode: field("mode") || undefined,
        reference: field("reference") || undefined,
      }),
    );
    if (!done.ok) return done.response;
    return {
      ok: true as const,
      message: `Refund ${done.value.number} for ${formatRupees(done.value.amount)} is made.`,
    };
  }
  if (intent === "reverse") {
    const done = await tryService(() =>
      services.feeDesk.reverse(viewer.id, center.id, field("receiptId"), { reason: field("reason") }),
    );
    if (!done.ok) return done.response;
    return { ok: true as const, message: `Receipt ${done.value.number} is reversed.` };
  }
  return failure("Unknown action.");
}

export default function Fees({ loaderData }: Route.ComponentProps) {
  const { center, plans, accounts, students, tests, open, today } = loaderData;
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  useEffect(() => {
    if (!result) return;
    if (result.ok) toast.success(result.message);
    else toast.error("Could not do that", { description: result.error });
  }, [result]);
  if (!center) return <NoSubscription title="Fees" />;
  return (
    <div className="mx-auto grid max-w-6xl gap-6">
      <PageHeader
        title="Fees"
        description={`${center.instituteName}'s fee plans and each student's account: dues, discounts, payments at the desk and receipts.`}
        actions={
          <div className="flex flex-wrap gap-2">
            <ButtonLink to="/business/fees/dues" variant="outline" size="sm">
              Dues at a glance
            </ButtonLink>
            <ButtonLink to="/business/fees/cheques" variant="outline" size="sm">
              Cheques and DDs
            </ButtonLink>
          </div>
        }
      />
      {open && (
        <AccountDetail
          account={open.account}
          receipts={open.receipts}
          links={open.links}
          mandate={open.mandate}
          busy={busy}
          refund={<RefundPanel accountId={open.account._id} today={today} {...open.refund} busy={busy} />}
        />
      )}
      <Card>
        <CardHeader>
          <CardTitle>Students' accounts</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-4">
          {accounts.length === 0 ? (
            <EmptyState icon={<IndianRupee />} title="No fee accounts yet. Assign a plan to a student below." />
          ) : (
            <Table>
              <THead>
                <tr>
                  <Th>Student</Th>
                  <Th>Plan</Th>
                  <Th className="text-right">Fee</Th>
                  <Th className="text-right">Paid</Th>
                  <Th className="text-right">Balance</Th>
                  <Th className="text-right">Overdue</Th>
                </tr>
              </THead>
              <TBody>
                {accounts.map((a) => (
                  <Tr key={a._id}>
                    <Td>
                      <Link to={`?account=${a._id}`} className="font-medium underline-offset-4 hover:underline">
                        {a.student.name}
                      </Link>
                      <div className="text-muted-foreground">{a.student.email}</div>
                    </Td>
                    <Td>{a.planName}</Td>
                    <Td className="text-right tabular-nums">{formatRupees(a.total - a.discount)}</Td>
                    <Td className="text-right tabular-nums">{formatRupees(a.paid)}</Td>
                    <Td className="text-right tabular-nums">{formatRupees(a.balance)}</Td>
                    <Td className="text-right tabular-nums">
                      {a.overdue > 0 ? <Badge tone="destructive">{formatRupees(a.overdue)}</Badge> : "—"}
                    </Td>
                  </Tr>
                ))}
              </TBody>
            </Table>
          )}
          <AssignForm plans={plans} students={students} busy={busy} />
          <AssignCsvForm plans={plans} busy={busy} />
          <ScholarshipForm tests={tests} plans={plans} busy={busy} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Fee plans</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-4">
          {plans.length === 0 ? (
            <p className="text-sm text-muted-foreground">No fee plans yet.</p>
          ) : (
            <Table>
              <THead>
                <tr>
                  <Th>Plan</Th>
                  <Th>Fee heads</Th>
                  <Th>Schedule</Th>
                  <Th className="text-right">Total (GST incl.)</Th>
                </tr>
              </THead>
              <TBody>
                {plans.map((p) => (
                  <Tr key={p._id}>
                    <Td className="font-medium">{p.name}</Td>
                    <Td>
                      {p.heads
                        .map((h) => `${h.name} ${formatRupees(h.amount)}${h.nonRefundable ? " (non-refundable)" : ""}`)
                        .join(", ")}
                    </Td>
                    <Td>
                      {p.instalments
                        .map((i) => `${i.label}: ${formatRupees(i.amount)} by ${formatDate(i.dueOn)}`)
                        .join("; ")}
                      {p.lateFee &&
                        ` · Late fee ${formatRupees(p.lateFee.amount)}${p.lateFee.kind === "per-day" ? " a day" : ""} after ${p.lateFee.graceDays} days, at most ${formatRupees(p.lateFee.cap)}`}
                    </Td>
                    <Td className="text-right tabular-nums">
                      {formatRupees(p.total)} <span className="text-muted-foreground">({p.gstRate} % GST)</span>
                    </Td>
                  </Tr>
                ))}
              </TBody>
            </Table>
          )}
          <PlanForm busy={busy} ok={Boolean(result?.ok)} />
        </CardContent>
      </Card>
      <FeeSettingsForm />
    </div>
  );
}

function AssignForm({
  plans,
  students,
  busy,
}: {
  plans: { _id: string; name: string; total: number }[];
  students: { _id: string; name: string; email: string }[];
  busy: boolean;
}) {
  if (plans.length === 0) return null;
  return (
    <Form method="post" className="grid gap-4 rounded-lg border p-4 sm:grid-cols-3" aria-label="Assign a fee plan">
      <input type="hidden" name="intent" value="assign" />
      <Field label="Student">
        <Select name="studentId" required defaultValue="">
          <option value="" disabled>
            Choose a student
          </option>
          {students.map((s) => (
            <option key={s._id} value={s._id}>
              {s.name} ({s.email})
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Fee plan">
        <Select name="feePlanId" required defaultValue="">
          <option value="" disabled>
            Choose a plan
          </option>
          {plans.map((p) => (
            <option key={p._id} value={p._id}>
              {p.name} ({formatRupees(p.total)})
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Discount" hint="Optional">
        <Select name="discountKind" defaultValue="">
          <option value="">None</option>
          {DISCOUNT_KINDS.map((k) => (
            <option key={k} value={k}>
              {k.replace("-", " ")}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Discount by">
        <Select name="discountBy" defaultValue="percent">
          <option value="percent">Per cent</option>
          <option value="amount">Amount (₹)</option>
        </Select>
      </Field>
      <Field label="Discount value">
        <Input name="discountValue" inputMode="decimal" />
      </Field>
      <Field label="Reason for the discount">
        <Input name="discountReason" maxLength={300} placeholder="Rank 14 in the admission test" />
      </Field>
      <div>
        <Button type="submit" disabled={busy}>
          Assign plan
        </Button>
      </div>
    </Form>
  );
}

/** Rows of a list the person can grow and shrink: fee heads, instalments. */
function useRows(initial: number) {
  const next = useRef(initial);
  const [rows, setRows] = useState(() => Array.from({ length: initial }, (_, i) => i));
  return {
    rows,
    add: () => setRows((r) => [...r, next.current++]),
    remove: (key: number) => setRows((r) => (r.length > 1 ? r.filter((k) => k !== key) : r)),
  };
}

function PlanForm({ busy, ok }: { busy: boolean; ok: boolean }) {
  const heads = useRows(1);
  const instalments = useRows(1);
  const form = useRef<HTMLFormElement>(null);
  const navigation = useNavigation();
  const wasPlan = navigation.formData?.get("intent") === "plan";
  useEffect(() => {
    if (!wasPlan && ok) form.current?.reset();
  }, [wasPlan, ok]);
  return (
    <Form method="post" ref={form} className="grid gap-4 rounded-lg border p-4" aria-label="New fee plan">
      <input type="hidden" name="intent" value="plan" />
      <h3 className="font-medium">New fee plan</h3>
      <Field label="Name">
        <Input name="name" required maxLength={120} placeholder="JEE 2027 Target, two instalments" />
      </Field>
      <fieldset className="grid gap-2">
        <legend className="text-sm font-medium">Fee heads (GST included)</legend>
        {heads.rows.map((key, i) => (
          <div key={key} className="flex gap-2">
            <Input name="headName" required aria-label={`Fee head ${i + 1}`} placeholder="Tuition" />
            <Input
              name="headAmount"
              required
              inputMode="decimal"
              aria-label={`Fee head ${i + 1} amount (₹)`}
              placeholder="₹"
            />
            <Select
              name="headKind"
              aria-label={`Fee head ${i + 1}: refundable when a student leaves?`}
              defaultValue="refundable"
            >
              <option value="refundable">Refundable pro rata</option>
              <option value="non-refundable">Non-refundable</option>
            </Select>
            <Button
              type="button"
              variant="outline"
              size="sm"
              onClick={() => heads.remove(key)}
              aria-label="Remove this fee head"
            >
              <Trash2 className="size-4" />
            </Button>
          </div>
        ))}
        <div>
          <Button type="button" variant="outline" size="sm" onClick={heads.add}>
            <Plus className="size-4" /> Fee head
          </Button>
        </div>
      </fieldset>
      <fieldset className="grid gap-2">
        <legend className="text-sm font-medium">
          Instalments (one is a lump sum; they must add up to the fee heads)
        </legend>
        {instalments.rows.map((key, i) => (
          <div key={key} className="flex gap-2">
            <Input name="instalmentLabel" required aria-label={`Instalment ${i + 1}`} placeholder="At admission" />
            <Input
              name="instalmentAmount"
              required
              inputMode="decimal"
              aria-label={`Instalment ${i + 1} amount (₹)`}
              placeholder="₹"
            />
            <Input name="instalmentDueOn" required type="date" aria-label={`Instalment ${i + 1} last date`} />
            <Button
              type="button"
              variant="outline"
              size="sm"
              onClick={() => instalments.remove(key)}
              aria-label="Remove this instalment"
            >
              <Trash2 className="size-4" />
            </Button>
          </div>
        ))}
        <div>
          <Button type="button" variant="outline" size="sm" onClick={instalments.add}>
            <Plus className="size-4" /> Instalment
          </Button>
        </div>
      </fieldset>
      <fieldset className="grid gap-2 sm:grid-cols-4">
        <legend className="text-sm font-medium">Late fee</legend>
        <Field label="Kind">
          <Select name="lateKind" defaultValue="">
            <option value="">No late fee</option>
            <option value="per-day">Per day</option>
            <option value="flat">Flat</option>
          </Select>
        </Field>
        <Field label="Amount (₹)">
          <Input name="lateAmount" inputMode="decimal" />
        </Field>
        <Field label="Grace days">
          <Input name="graceDays" type="number" min={0} max={365} />
        </Field>
        <Field label="At most (₹)">
          <Input name="lateCap" inputMode="decimal" />
        </Field>
      </fieldset>
      <div>
        <Button type="submit" disabled={busy}>
          Make fee plan
        </Button>
      </div>
    </Form>
  );
}

function AccountDetail({
  account,
  receipts,
  links,
  mandate,
  busy,
  refund,
}: {
  account: FeeAccountJson;
  receipts: FeeReceiptJson[];
  links: FeePaymentLinkJson[];
  mandate: FeeMandateJson | null;
  busy: boolean;
  refund: React.ReactNode;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          {account.student.name} · {account.planName}
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-6">
        <p className="text-sm">
          Fee {formatRupees(account.total)} · discounts {formatRupees(account.discount)} · late fees{" "}
          {formatRupees(account.lateFee)} · paid {formatRupees(account.paid)} ·{" "}
          <strong>balance {formatRupees(account.balance)}</strong>
        </p>
        <Table>
          <THead>
            <tr>
              <Th>Due</Th>
              <Th>Last date</Th>
              <Th className="text-right">Amount</Th>
              <Th className="text-right">Discount</Th>
              <Th className="text-right">Late fee</Th>
              <Th className="text-right">Paid</Th>
              <Th className="text-right">Balance</Th>
              <Th className="text-right">Payment link</Th>
            </tr>
          </THead>
          <TBody>
            {account.dues.map((d) => (
              <Tr key={d._id}>
                <Td>{d.label}</Td>
                <DueDateCell due={d} />
                <Td className="text-right tabular-nums">{formatRupees(d.amount)}</Td>
                <Td className="text-right tabular-nums">{formatRupees(d.discount)}</Td>
                <Td className="text-right tabular-nums">{formatRupees(d.lateFee)}</Td>
                <Td className="text-right tabular-nums">{formatRupees(d.paid)}</Td>
                <Td className="text-right tabular-nums">{formatRupees(d.balance)}</Td>
                <Td>
                  <DueLinkCell due={d} links={links} busy={busy} />
                </Td>
              </Tr>
            ))}
          </TBody>
        </Table>
        {account.balance > 0 && <PaymentRailsNote account={account} />}
        <StandingInstruction account={account} mandate={mandate} />
        {account.balance > 0 && (
          <Form method="post" className="grid gap-3 rounded-lg border p-4 sm:grid-cols-3" aria-label="Take a payment">
            <input type="hidden" name="intent" value="pay" />
            <input type="hidden" name="accountId" value={account._id} />
            <Field label="Amount (₹)">
              <Input name="amount" required inputMode="decimal" />
            </Field>
            <Field label="Mode">
              <Select name="mode" defaultValue="cash">
                {DESK_MODES.map((m) => (
                  <option key={m} value={m}>
                    {MODE_LABELS[m]}
                  </option>
                ))}
              </Select>
            </Field>
            <Field label="Reference" hint="Cheque, DD, UPI or transfer number">
              <Input name="reference" maxLength={60} />
            </Field>
            <Field label="Cheque or DD date">
              <Input name="chequeDate" type="date" />
            </Field>
            <Field label="Bank" hint="For a cheque or DD">
              <Input name="bank" maxLength={80} />
            </Field>
            <div className="flex items-end">
              <Button type="submit" disabled={busy}>
                Take payment
              </Button>
            </div>
          </Form>
        )}
        <section aria-label="Receipts" className="grid gap-2">
          <h3 className="font-medium">Receipts</h3>
          {receipts.length === 0 && <p className="text-sm text-muted-foreground">No payments yet.</p>}
          {receipts.map((r) => (
            <div key={r._id} className="flex flex-wrap items-center gap-3 rounded-lg border p-3 text-sm">
              <span className="font-medium tabular-nums">{r.number}</span>
              <span>{formatDate(r.paidOn)}</span>
              <span className="tabular-nums">{formatRupees(r.amount)}</span>
              <span>
                {MODE_LABELS[r.mode]}
                {r.reference && ` ${r.reference}`}
              </span>
              <span className="text-muted-foreground">
                {r.allocations.map((a) => `${a.label} ${formatRupees(a.amount)}`).join(", ")}
              </span>
              <ReceiptPdfLinks receiptId={r._id} number={r.number} />
              {r.reversed ? (
                <Badge tone="destructive">Reversed: {r.reversed.reason}</Badge>
              ) : (
                <Form method="post" className="ml-auto flex gap-2">
                  <input type="hidden" name="intent" value="reverse" />
                  <input type="hidden" name="receiptId" value={r._id} />
                  <Input
                    name="reason"
                    required
                    minLength={1}
                    maxLength={300}
                    placeholder="Reason"
                    aria-label={`Reason to reverse ${r.number}`}
                  />
                  <Button type="submit" size="sm" variant="outline" disabled={busy}>
                    Reverse
                  </Button>
                </Form>
              )}
            </div>
          ))}
        </section>
        {refund}
        <FeeStatement account={account} />
      </CardContent>
    </Card>
  );
}
