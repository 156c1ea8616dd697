import { NETWORK_ERROR, postJson } from "~/lib/post-json";
import { useState } from "react";
import { useRevalidator } from "react-router";
import { Loader2 } from "lucide-react";
import { toast } from "~/lib/toast";
import { useRootData } from "~/root";
import { openCheckout, type CheckoutSuccess } from "~/components/setup/checkout";
import type { CheckoutConfig } from "~/components/fees/pay-due";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Confirm } from "~/components/ui/confirm";
import { paymentRails } from "#common/fee-rails.ts";
import { toPaise } from "#common/fees.ts";
import { formatDate, formatRupees } from "#common/format.ts";
import { indiaDate } from "#common/india-dates.ts";
import type { FeeAccountJson } from "#common/validation/fees.ts";
import {
  MANDATE_STATUS_LABELS,
  RAIL_NAMES,
  mandateWords,
  type FeeMandateCheckoutJson,
  type FeeMandateJson,
} from "#common/validation/fee-mandates.ts";

const DEBIT_TONES = { presented: "muted", paid: "success", failed: "destructive" } as const;
const DEBIT_LABELS = { presented: "Presented", paid: "Paid", failed: "Failed" } as const;

/**
 * An account's standing instruction (issue 42 §7, decision 0051): for a monthly plan, the payer
 * (the student or their parent, `checkout` given) sets up UPI Autopay or a bank e-mandate in
 * Checkout and may cancel it; the institute's desk (no `checkout`) sees it and may cancel it too.
 * The debits presented on it are listed with how each went.
 */
export function StandingInstruction({
  account,
  mandate,
  checkout,
}: {
  account: Pick<FeeAccountJson, "_id" | "dues" | "balance">;
  mandate: FeeMandateJson | null;
  /** The payer's page: they may set one up. */
  checkout?: CheckoutConfig;
}) {
  const root = useRootData();
  const site = root?.site;
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState(false);
  const rails = paymentRails(account.dues.map((d) => ({ dueOn: d.dueOn, amount: toPaise(d.amount - d.discount) })));
  const live = mandate && (mandate.status === "active" || mandate.status === "pending");
  if (!rails.recurring && !mandate) return null;
  const rail = mandate?.rail ?? rails.recurring!;
  const today = indiaDate(new Date());
  const ahead = account.dues.some((d) => d.balance > 0 && d.dueOn >= today);

  const confirm = async (mandateId: string, response: CheckoutSuccess) => {
    try {
      const { ok, body } = await postJson(`/api/fee-mandates/${mandateId}/confirm`, response);
      const confirmed = body.mandate as FeeMandateJson | undefined;
      if (!ok || !confirmed)
        toast.error("Could not set it up", { description: (body.error as string) || "Please try again." });
      else if (confirmed.status === "active")
        toast.success(`${RAIL_NAMES[confirmed.rail]} is set up`, {
          description: mandateWords(confirmed, "family"),
          duration: 8000,
        });
      else toast.info(MANDATE_STATUS_LABELS[confirmed.status], { description: mandateWords(confirmed, "family") });
    } catch {
      toast.error("Could not set it up", { description: NETWORK_ERROR });
    }
    setBusy(false);
    void revalidator.revalidate();
  };

  const setUp = async () => {
    if (!checkout) return;
    setBusy(true);
    let answer: Awaited<ReturnType<typeof postJson>>;
    try {
      answer = await postJson(`/api/fee-accounts/${account._id}/mandate`, {});
    } catch {
      toast.error("Could not set it up", { description: NETWORK_ERROR });
      setBusy(false);
      return;
    }
    if (!answer.ok) {
      toast.error("Could not set it up", { description: (answer.body.error as string) || "Please try again." });
      setBusy(false);
      return;
    }
    const placed = answer.body as unknown as FeeMandateCheckoutJson;
    try {
      await openCheckout(
        checkout.script,
        {
          key: placed.key_id || checkout.key,
          amount: placed.order.amount,
          currency: placed.order.currency,
          name: placed.institute,
          description: placed.description,
          order_id: placed.order.id,
          customer_id: placed.customer_id,
          recurring: "1",
          theme: { color: (site?.kind === "tenant" && site.brandColor) || "#4338ca" },
          handler: (response) => void confirm(placed.mandate._id, response),
          modal: { ondismiss: () => setBusy(false) },
        },
        (failure) => {
          toast.error("Authorisation failed", {
            description: failure.error?.description || "Nothing was set up. You can try again.",
          });
          setBusy(false);
        },
      );
    } catch {
      toast.error("Could not set it up", { description: "Checkout could not be opened. Please try again." });
      setBusy(false);
    }
  };

  const cancel = async () => {
    if (!mandate) return;
    setBusy(true);
    try {
      const { ok, body } = await postJson(`/api/fee-mandates/${mandate._id}/cancel`, {});
      if (ok)
        toast.success(`${RAIL_NAMES[mandate.rail]} is cancelled`, { description: "No further debit will be made." });
      else toast.error("Could not cancel it", { description: (body.error as string) || "Please try again." });
    } catch {
      toast.error("Could not cancel it", { description: NETWORK_ERROR });
    }
    setBusy(false);
    void revalidator.revalidate();
  };

  return (
    <section aria-label="Standing instruction" className="grid gap-2 rounded-lg border p-4 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="font-medium">{RAIL_NAMES[rail]}</h3>
        {mandate && (
          <Badge tone={live ? (mandate.status === "active" ? "success" : "muted") : "destructive"}>
            {MANDATE_STATUS_LABELS[mandate.status]}
          </Badge>
        )}
      </div>
      {live ? (
        <p>
          {checkout
            ? mandateWords(mandate, "family")
            : `${mandateWords(mandate, "institute")} Set up by ${mandate.payerName}.`}
        </p>
      ) : (
        <>
          {mandate && (
            <p className="text-muted-foreground">
              {mandate.status === "cancelled"
                ? `Cancelled${mandate.cancelledAt ? ` on ${formatDate(mandate.cancelledAt)}` : ""}${mandate.statusReason ? `: ${mandate.statusReason}` : "."}`
                : `Refused by the bank${mandate.statusReason ? `: ${mandate.statusReason}` : "."}`}
            </p>
          )}
          {rails.recurringWords && <p>{rails.recurringWords}</p>}
        </>
      )}
      {mandate && mandate.debits.length > 0 && (
        <ul aria-label="Debits" className="grid gap-1">
          {mandate.debits.map((d) => (
            <li key={d._id} className="flex flex-wrap items-center gap-2">
              <span>{d.label}</span>
              <span className="tabular-nums">{formatRupees(d.amount)}</span>
              <span className="text-muted-foreground">presented {formatDate(d.presentedOn)}</span>
              <Badge tone={DEBIT_TONES[d.status]}>{DEBIT_LABELS[d.status]}</Badge>
              {d.error && <span className="text-destructive">{d.error}</span>}
            </li>
          ))}
        </ul>
      )}
      <div className="flex flex-wrap gap-2">
        {checkout && !live && rails.recurring && ahead && account.balance > 0 && (
          <Button size="sm" onClick={() => void setUp()} disabled={busy} aria-busy={busy}>
            {busy ? <Loader2 className="size-4 animate-spin" aria-hidden /> : null}
            Set up {RAIL_NAMES[rails.recurring]}
          </Button>
        )}
        {live && (
          <Confirm
            trigger={
              <Button size="sm" variant="outline" disabled={busy}>
                Cancel {RAIL_NAMES[mandate.rail]}
              </Button>
            }
            title={`Cancel ${RAIL_NAMES[mandate.rail]}?`}
            description="No further due will be debited; each is then paid as it comes. Dues already debited stay paid."
            confirmLabel={`Cancel ${RAIL_NAMES[mandate.rail]}`}
            onConfirm={() => void cancel()}
          />
        )}
      </div>
    </section>
  );
}
