import { useEffect } from "react";
import { Form, Link, useActionData, useNavigation } from "react-router";
import * as v from "valibot";
import { BellRing, Download, PartyPopper } from "lucide-react";
import type { Route } from "./+types/fee-dues";
import { loadBusinessCenter, notAllowed } from "~/lib/business.server";
import { failure, tryService } from "~/lib/actions.server";
import { toast } from "~/lib/toast";
import { PageHeader } from "~/components/ui/page-header";
import { Table, TBody, Td, Th, THead, Tr } from "~/components/ui/table";
import { Badge } from "~/components/ui/badge";
import { Button, buttonClasses } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { EmptyState } from "~/components/ui/empty-state";
import { NoSubscription } from "~/components/business/no-subscription";
import { formatDate, formatRupees } from "#common/format.ts";
import { MODE_LABELS } from "#common/validation/fees.ts";
import { CollectionsQuery, reminded, type CollectionsJson, type OutstandingJson } from "#common/validation/fee-dues.ts";

export const meta: Route.MetaFunction = () => [{ title: "Dues | Fees | Business" }];

/**
 * Dues at a glance (issue 42 §5): today's and this month's collection by mode, what is
 * outstanding by batch and by student, the defaulters with a one-click reminder, and the
 * collection report for a range of dates with its CSV. Everything comes from `services.feeDues`,
 * derived from the ledger on today's India date.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { center, services } = await loadBusinessCenter(context, request);
  if (!center) return { center: null } as const;
  const dues = services.feeDues;
  const today = dues.today();
  const params = new URL(request.url).searchParams;
  const asked = v.safeParse(CollectionsQuery, {
    from: params.get("from") || undefined,
    to: params.get("to") || undefined,
  });
  const range = asked.success && asked.output.from ? { from: asked.output.from, to: asked.output.to } : {};
  const [day, month, report, byBatch, byStudent, defaulters] = await Promise.all([
    dues.collections(center.id, { from: today, to: today }),
    dues.collections(center.id),
    dues.collections(center.id, range),
    dues.outstanding(center.id, "batch"),
    dues.outstanding(center.id, "student"),
    dues.defaulters(center.id),
  ]);
  return {
    center: { id: center.id, instituteName: center.instituteName },
    today,
    day,
    month,
    report,
    rangeError: asked.success ? null : asked.issues[0].message,
    byBatch,
    byStudent,
    defaulters,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { center, services, may } = await loadBusinessCenter(context, request);
  if (!center) return failure("No active subscription found.", 404);
  if (!may("fees.manage")) return failure(notAllowed("fees.manage"), 403);
  const form = await request.formData();
  if (form.get("intent") !== "remind") return failure("Unknown action.");
  const done = await tryService(() => services.feeReminders.remindNow(center.id, String(form.get("accountId") ?? "")));
  if (!done.ok) return done.response;
  return { ok: true as const, message: reminded(done.value.name) };
}

export default function FeeDues({ loaderData }: Route.ComponentProps) {
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  useEffect(() => {
    if (!result) return;
    if (result.ok) toast.success(result.message);
    else toast.error("Could not send the reminder", { description: result.error });
  }, [result]);
  if (!loaderData.center) return <NoSubscription title="Dues" />;
  const { center, today, day, month, report, rangeError, byBatch, byStudent, defaulters } = loaderData;
  const reminding = navigation.state !== "idle" ? navigation.formData?.get("accountId") : null;
  const csv = `/api/fees/collections?${new URLSearchParams({
    centerId: center.id,
    from: report.from,
    to: report.to,
    format: "csv",
  })}`;
  return (
    <div className="mx-auto grid max-w-6xl gap-6">
      <PageHeader
        title="Dues"
        description={`${center.instituteName}'s collection, what is outstanding and who is overdue, as of ${formatDate(today)}.`}
        actions={
          <Link to="/business/fees" className={buttonClasses("outline", "sm")}>
            Back to Fees
          </Link>
        }
      />
      <div className="grid gap-6 md:grid-cols-2">
        <CollectionCard title="Collected today" report={day} />
        <CollectionCard title="Collected this month" report={month} />
      </div>

      <Card>
        <CardHeader>
          <CardTitle>Defaulters</CardTitle>
          <p className="text-sm text-muted-foreground">
            Students with fees overdue by more than {defaulters.overdueDays} days.
          </p>
        </CardHeader>
        <CardContent>
          {defaulters.students.length === 0 ? (
            <EmptyState icon={<PartyPopper />} title="Nobody is overdue by that long." />
          ) : (
            <Table aria-label="Defaulters">
              <THead>
                <tr>
                  <Th>Student</Th>
                  <Th>Plan</Th>
                  <Th>Oldest unpaid</Th>
                  <Th className="text-right">Overdue</Th>
                  <Th className="text-right">Reminder</Th>
                </tr>
              </THead>
              <TBody>
                {defaulters.students.map((s) => (
                  <Tr key={s.accountId}>
                    <Td className="font-medium">
                      <Link to={`/business/fees?account=${s.accountId}`} className="underline-offset-4 hover:underline">
                        {s.name}
                      </Link>
                    </Td>
                    <Td>{s.planName}</Td>
                    <Td>
                      {formatDate(s.oldestDueOn)}{" "}
                      <Badge tone="destructive" className="ml-1">
                        {s.daysOverdue} days overdue
                      </Badge>
                    </Td>
                    <Td className="text-right tabular-nums">{formatRupees(s.overdue)}</Td>
                    <Td className="text-right">
                      <Form method="post" className="inline">
                        <input type="hidden" name="intent" value="remind" />
                        <input type="hidden" name="accountId" value={s.accountId} />
                        <Button
                          type="submit"
                          size="sm"
                          variant="outline"
                          disabled={reminding === s.accountId}
                          aria-label={`Remind ${s.name}`}
                        >
                          <BellRing className="size-4" aria-hidden />
                          Remind
                        </Button>
                      </Form>
                    </Td>
                  </Tr>
                ))}
              </TBody>
            </Table>
          )}
        </CardContent>
      </Card>

      <div className="grid gap-6 lg:grid-cols-2">
        <OutstandingCard title="Outstanding by batch" label="Batch" outstanding={byBatch} />
        <OutstandingCard title="Outstanding by student" label="Student" outstanding={byStudent} />
      </div>

      <Card>
        <CardHeader>
          <CardTitle>Collection report</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-4">
          <Form method="get" className="flex flex-wrap items-end gap-3" aria-label="Collection report dates">
            <Field label="From">
              <Input type="date" name="from" defaultValue={report.from} required />
            </Field>
            <Field label="To">
              <Input type="date" name="to" defaultValue={report.to} required />
            </Field>
            <Button type="submit" variant="secondary">
              Show
            </Button>
            <a href={csv} download className={buttonClasses("outline")}>
              <Download className="size-4" aria-hidden />
              Download CSV
            </a>
          </Form>
          {rangeError && (
            <p role="alert" className="text-sm text-destructive">
              {rangeError}
            </p>
          )}
          <p className="text-sm">
            {formatDate(report.from)} to {formatDate(report.to)}: <strong>{formatRupees(report.total)}</strong> in{" "}
            {report.count} {report.count === 1 ? "receipt" : "receipts"}
            {report.reversed.count > 0 &&
              ` (${report.reversed.count} reversed, ${formatRupees(report.reversed.amount)}, not counted)`}
          </p>
          {report.receipts.length === 0 ? (
            <p className="text-sm text-muted-foreground">No receipts in these dates.</p>
          ) : (
            <Table aria-label="Receipts in the report">
              <THead>
                <tr>
                  <Th>Receipt</Th>
                  <Th>Paid on</Th>
                  <Th>Student</Th>
                  <Th>Mode</Th>
                  <Th className="text-right">Amount</Th>
                </tr>
              </THead>
              <TBody>
                {report.receipts.map((r) => (
                  <Tr key={r._id}>
                    <Td className="tabular-nums">{r.number}</Td>
                    <Td>{formatDate(r.paidOn)}</Td>
                    <Td>
                      {r.name}
                      <div className="text-muted-foreground">{r.planName}</div>
                    </Td>
                    <Td>
                      {MODE_LABELS[r.mode]}
                      {r.reference && <span className="text-muted-foreground"> · {r.reference}</span>}
                    </Td>
                    <Td className="text-right tabular-nums">
                      {r.reversed ? (
                        <>
                          <s>{formatRupees(r.amount)}</s>{" "}
                          <Badge tone="destructive">Reversed: {r.reversed.reason}</Badge>
                        </>
                      ) : (
                        formatRupees(r.amount)
                      )}
                    </Td>
                  </Tr>
                ))}
              </TBody>
            </Table>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

/** A collection's total and its split by mode. */
function CollectionCard({ title, report }: { title: string; report: CollectionsJson }) {
  return (
    <Card aria-label={title}>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-2">
        <p className="text-3xl font-semibold tabular-nums">{formatRupees(report.total)}</p>
        <p className="text-sm text-muted-foreground">
          {report.count} {report.count === 1 ? "receipt" : "receipts"}
          {report.reversed.count > 0 && ` · ${report.reversed.count} reversed, not counted`}
        </p>
        {report.byMode.length > 0 && (
          <ul className="grid gap-1 text-sm">
            {report.byMode.map((m) => (
              <li key={m.mode} className="flex justify-between gap-4">
                <span>{MODE_LABELS[m.mode]}</span>
                <span className="tabular-nums">{formatRupees(m.amount)}</span>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function OutstandingCard({
  title,
  label,
  outstanding,
}: {
  title: string;
  label: string;
  outstanding: OutstandingJson;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent>
        {outstanding.rows.length === 0 ? (
          <p className="text-sm text-muted-foreground">Nothing is outstanding.</p>
        ) : (
          <Table aria-label={title}>
            <THead>
              <tr>
                <Th>{label}</Th>
                <Th className="text-right">Outstanding</Th>
                <Th className="text-right">Overdue</Th>
              </tr>
            </THead>
            <TBody>
              {outstanding.rows.map((row) => (
                <Tr key={row._id ?? "none"}>
                  <Td>{row.name}</Td>
                  <Td className="text-right tabular-nums">{formatRupees(row.balance)}</Td>
                  <Td className="text-right tabular-nums">{row.overdue > 0 ? formatRupees(row.overdue) : "—"}</Td>
                </Tr>
              ))}
              <Tr>
                <Td className="font-medium">Total</Td>
                <Td className="text-right font-medium tabular-nums">{formatRupees(outstanding.balance)}</Td>
                <Td className="text-right font-medium tabular-nums">{formatRupees(outstanding.overdue)}</Td>
              </Tr>
            </TBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
