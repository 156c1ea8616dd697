import { useEffect, useRef } from "react";
import { Form, useActionData, useNavigation } from "react-router";
import { Landmark } from "lucide-react";
import type { Route } from "./+types/fee-cheques";
import { revalidateOnConflict } from "~/lib/revalidate";
import { loadBusinessCenter, notAllowed } from "~/lib/business.server";
import { failure, tryService } from "~/lib/actions.server";
import { toast } from "~/lib/toast";
import { PageHeader } from "~/components/ui/page-header";
import { Table, TBody, Td, Th, THead, Tr } from "~/components/ui/table";
import { Badge } from "~/components/ui/badge";
import { Button, ButtonLink } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input, Select } from "~/components/ui/input";
import { EmptyState } from "~/components/ui/empty-state";
import { NoSubscription } from "~/components/business/no-subscription";
import { formatDate, formatRupees } from "#common/format.ts";
import { indiaDate } from "#common/india-dates.ts";
import {
  CHEQUE_KIND_LABELS,
  CHEQUE_KINDS,
  CHEQUE_STATUS_LABELS,
  type FeeChequeJson,
} from "#common/validation/fee-cheques.ts";

export const shouldRevalidate = revalidateOnConflict;

export const meta: Route.MetaFunction = () => [{ title: "Cheques and DDs | Business" }];

/** The PDC register (issue 42 §3): cheques and DDs by their dates, and the accounts that still owe. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { center, services } = await loadBusinessCenter(context, request);
  if (!center) return { center: null, cheques: [], accounts: [], today: indiaDate(new Date()) };
  const [cheques, accounts] = await Promise.all([
    services.feeCheques.list(center.id),
    services.feeAccounts.list(center.id),
  ]);
  return {
    center: { instituteName: center.instituteName },
    cheques,
    accounts: accounts
      .filter((a) => a.balance > 0)
      .map((a) => ({ _id: a._id, label: `${a.student.name} · ${a.planName} · owes ${formatRupees(a.balance)}` })),
    today: indiaDate(new Date()),
  };
}

const numberOrText = (value: string) => (value.trim() !== "" && !Number.isNaN(Number(value)) ? Number(value) : value);

export async function action({ request, context }: Route.ActionArgs) {
  const { center, services, may, viewer } = await loadBusinessCenter(context, request);
  if (!center) return failure("No active subscription found.", 404);
  if (!may("fees.manage")) return failure(notAllowed("fees.manage"), 403);
  const form = await request.formData();
  const field = (name: string) => String(form.get(name) ?? "").trim();
  if (field("intent") === "take") {
    const done = await tryService(() =>
      services.feeCheques.take(viewer.id, center.id, field("accountId"), {
        kind: field("kind"),
        number: field("number"),
        bank: field("bank"),
        chequeDate: field("chequeDate"),
        amount: numberOrText(field("amount")),
      }),
    );
    if (!done.ok) return done.response;
    const c = done.value;
    return {
      ok: true as const,
      message: c.receipt
        ? `${CHEQUE_KIND_LABELS[c.kind]} ${c.number} is receipted as ${c.receipt.number} and held.`
        : `Post-dated ${CHEQUE_KIND_LABELS[c.kind].toLowerCase()} ${c.number} is held until ${formatDate(c.chequeDate)}.`,
    };
  }
  if (field("intent") === "move") {
    const done = await tryService(() =>
      services.feeCheques.move(viewer.id, center.id, field("chequeId"), {
        status: field("status"),
        note: field("note") || undefined,
      }),
    );
    if (!done.ok) return done.response;
    const c = done.value;
    return {
      ok: true as const,
      message: `${CHEQUE_KIND_LABELS[c.kind]} ${c.number}: ${CHEQUE_STATUS_LABELS[c.status]}.`,
    };
  }
  return failure("Unknown action.");
}

export default function FeeCheques({ loaderData }: Route.ComponentProps) {
  const { center, cheques, accounts, today } = loaderData;
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  useEffect(() => {
    if (!result) return;
    if (result.ok) toast.success(result.message);
    else toast.error("Could not do that", { description: result.error });
  }, [result]);
  if (!center) return <NoSubscription title="Cheques and DDs" />;
  const held = cheques.filter((c) => c.status === "held");
  const deposited = cheques.filter((c) => c.status === "deposited");
  const done = cheques.filter((c) => c.status !== "held" && c.status !== "deposited").reverse();
  return (
    <div className="mx-auto grid max-w-6xl gap-6">
      <PageHeader
        title="Cheques and DDs"
        description="The post-dated cheque register: cheques held by their dates, deposited ones waiting to clear, and every step each took."
        actions={
          <ButtonLink to="/business/fees" variant="outline" size="sm">
            Back to Fees
          </ButtonLink>
        }
      />
      <TakeCheque accounts={accounts} today={today} busy={busy} ok={Boolean(result?.ok)} />
      <Card>
        <CardHeader>
          <CardTitle>Held ({held.length})</CardTitle>
        </CardHeader>
        <CardContent>
          {held.length === 0 ? (
            <EmptyState icon={<Landmark />} title="No cheques held." />
          ) : (
            <ChequeTable cheques={held} today={today} busy={busy} />
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Deposited, waiting to clear ({deposited.length})</CardTitle>
        </CardHeader>
        <CardContent>
          {deposited.length === 0 ? (
            <p className="text-sm text-muted-foreground">Nothing deposited is waiting.</p>
          ) : (
            <ChequeTable cheques={deposited} today={today} busy={busy} />
          )}
        </CardContent>
      </Card>
      {done.length > 0 && (
        <Card>
          <CardHeader>
            <CardTitle>Cleared, bounced and returned</CardTitle>
          </CardHeader>
          <CardContent>
            <ChequeTable cheques={done} today={today} busy={busy} />
          </CardContent>
        </Card>
      )}
    </div>
  );
}

function TakeCheque({
  accounts,
  today,
  busy,
  ok,
}: {
  accounts: { _id: string; label: string }[];
  today: string;
  busy: boolean;
  ok: boolean;
}) {
  const form = useRef<HTMLFormElement>(null);
  const navigation = useNavigation();
  const taking = navigation.formData?.get("intent") === "take";
  useEffect(() => {
    if (!taking && ok) form.current?.reset();
  }, [taking, ok]);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Take a cheque or DD</CardTitle>
      </CardHeader>
      <CardContent>
        {accounts.length === 0 ? (
          <p className="text-sm text-muted-foreground">No student owes anything now.</p>
        ) : (
          <Form
            method="post"
            ref={form}
            className="grid gap-3 sm:grid-cols-3 lg:grid-cols-6"
            aria-label="Take a cheque or DD"
          >
            <input type="hidden" name="intent" value="take" />
            <Field label="Student's account" className="sm:col-span-3 lg:col-span-2">
              <Select name="accountId" required defaultValue="">
                <option value="" disabled>
                  Choose an account
                </option>
                {accounts.map((a) => (
                  <option key={a._id} value={a._id}>
                    {a.label}
                  </option>
                ))}
              </Select>
            </Field>
            <Field label="Kind">
              <Select name="kind" defaultValue="cheque">
                {CHEQUE_KINDS.map((k) => (
                  <option key={k} value={k}>
                    {CHEQUE_KIND_LABELS[k]}
                  </option>
                ))}
              </Select>
            </Field>
            <Field label="Number">
              <Input name="number" required maxLength={20} inputMode="numeric" placeholder="004512" />
            </Field>
            <Field label="Bank">
              <Input name="bank" required maxLength={80} placeholder="State Bank of India" />
            </Field>
            <Field label="Date on it" hint="A later date holds it as post-dated">
              <Input name="chequeDate" type="date" required defaultValue={today} />
            </Field>
            <Field label="Amount (₹)">
              <Input name="amount" required inputMode="decimal" />
            </Field>
            <div className="flex items-end">
              <Button type="submit" disabled={busy}>
                Take cheque
              </Button>
            </div>
          </Form>
        )}
      </CardContent>
    </Card>
  );
}

const STATUS_TONES = {
  held: "default",
  deposited: "warning",
  cleared: "success",
  bounced: "destructive",
  returned: "muted",
} as const;

function ChequeTable({ cheques, today, busy }: { cheques: FeeChequeJson[]; today: string; busy: boolean }) {
  return (
    <Table>
      <THead>
        <tr>
          <Th>Date on it</Th>
          <Th>Student</Th>
          <Th>Cheque</Th>
          <Th className="text-right">Amount</Th>
          <Th>Status</Th>
          <Th>Receipt</Th>
          <Th />
        </tr>
      </THead>
      <TBody>
        {cheques.map((c) => (
          <Tr key={c._id}>
            <Td className="whitespace-nowrap">
              {formatDate(c.chequeDate)}
              {c.status === "held" && !c.receipt && c.chequeDate > today && (
                <div className="text-xs text-muted-foreground">post-dated</div>
              )}
            </Td>
            <Td>
              <div className="font-medium">{c.student.name}</div>
              <div className="text-muted-foreground">{c.planName}</div>
            </Td>
            <Td>
              {CHEQUE_KIND_LABELS[c.kind]} {c.number}
              <div className="text-muted-foreground">{c.bank}</div>
            </Td>
            <Td className="text-right tabular-nums">{formatRupees(c.amount)}</Td>
            <Td>
              <Badge tone={STATUS_TONES[c.status]}>{CHEQUE_STATUS_LABELS[c.status]}</Badge>
              <details className="mt-1 text-xs text-muted-foreground">
                <summary className="cursor-pointer">History</summary>
                <ul className="grid gap-0.5">
                  {c.events.map((e) => (
                    <li key={`${e.to}-${e.at}`}>
                      {formatDate(e.at)}: {CHEQUE_STATUS_LABELS[e.to]}
                      {e.by && ` by ${e.by}`}
                      {e.note && ` (${e.note})`}
                    </li>
                  ))}
                </ul>
              </details>
            </Td>
            <Td>
              {c.receipt ? (
                <a
                  href={`/api/fee-receipts/${c.receipt._id}/pdf`}
                  target="_blank"
                  rel="noreferrer"
                  className="tabular-nums underline-offset-4 hover:underline"
                >
                  {c.receipt.number}
                </a>
              ) : (
                <span className="text-muted-foreground">On deposit</span>
              )}
              {c.receipt?.reversed && (
                <Badge tone="destructive" className="ml-2">
                  Reversed
                </Badge>
              )}
            </Td>
            <Td>
              <Moves cheque={c} today={today} busy={busy} />
            </Td>
          </Tr>
        ))}
      </TBody>
    </Table>
  );
}

/** The steps a cheque may take from where it is, each a button (with an optional note). */
function Moves({ cheque, today, busy }: { cheque: FeeChequeJson; today: string; busy: boolean }) {
  const moves =
    cheque.status === "held"
      ? [
          { status: "deposited", label: "Deposit", variant: "default" as const },
          { status: "returned", label: "Return", variant: "outline" as const },
        ]
      : cheque.status === "deposited"
        ? [
            { status: "cleared", label: "Cleared", variant: "default" as const },
            { status: "bounced", label: "Bounced", variant: "destructive" as const },
          ]
        : [];
  if (moves.length === 0) return null;
  const early = cheque.status === "held" && cheque.chequeDate > today;
  return (
    <Form method="post" className="flex flex-wrap items-center justify-end gap-2">
      <input type="hidden" name="intent" value="move" />
      <input type="hidden" name="chequeId" value={cheque._id} />
      <Input
        name="note"
        maxLength={300}
        placeholder="Note (optional)"
        aria-label={`Note for ${cheque.number}`}
        className="h-8 w-36"
      />
      {moves.map((m) => (
        <Button
          key={m.status}
          type="submit"
          name="status"
          value={m.status}
          size="sm"
          variant={m.variant}
          disabled={busy}
          title={early && m.status === "deposited" ? `Dated ${formatDate(cheque.chequeDate)}` : undefined}
          aria-label={`${m.label} ${CHEQUE_KIND_LABELS[cheque.kind].toLowerCase()} ${cheque.number}`}
        >
          {m.label}
        </Button>
      ))}
    </Form>
  );
}
