import { NETWORK_ERROR, postJson } from "~/lib/post-json";
import { useState } from "react";
import { useRevalidator } from "react-router";
import { Loader2 } from "lucide-react";
import { toast } from "~/lib/toast";
import { useRootData } from "~/root";
import { openCheckout, type CheckoutSuccess } from "~/components/setup/checkout";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { formatRupees } from "#common/format.ts";
import type { FeeDueJson, FeeReceiptJson } from "#common/validation/fees.ts";
import type { FeeCheckoutJson } from "#common/validation/fee-online.ts";

/** What Checkout is opened with (the page's loader gives it). */
export interface CheckoutConfig {
  key: string;
  script: string;
}

/**
 * Pay one due online (issue 42 §3): the server makes the Checkout order on the institute's own
 * account for the amount it figures (the due's balance, or the amount asked where the institute
 * allows part payments), Checkout takes the money, and the verify call answers the receipt. The
 * page is reloaded, so the due and its receipt show as the ledger has them.
 */
export function PayDueButton({
  due,
  checkout,
  partial,
}: {
  due: Pick<FeeDueJson, "_id" | "label" | "balance">;
  checkout: CheckoutConfig;
  /** The institute takes part payments online: the student chooses how much. */
  partial: boolean;
}) {
  const root = useRootData();
  const viewer = root?.viewer ?? null;
  const site = root?.site;
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState(false);
  const [amount, setAmount] = useState(String(due.balance));

  const verify = async (response: CheckoutSuccess) => {
    try {
      const { ok, body } = await postJson("/api/payment/verify", response);
      const receipt = body.receipt as FeeReceiptJson | null | undefined;
      if (!ok)
        toast.error("Payment Verification Failed", {
          description: (body.error as string) || "Please contact support.",
        });
      else if (receipt)
        toast.success("Payment successful", {
          description: `Receipt ${receipt.number} for ${formatRupees(receipt.amount)}.`,
          duration: 6000,
        });
      else toast.info("Payment received", { description: "Nothing was owed any more: it is being returned to you." });
    } catch {
      toast.error("Payment Verification Failed", { description: NETWORK_ERROR });
    }
    setBusy(false);
    void revalidator.revalidate();
  };

  const pay = async () => {
    setBusy(true);
    let answer: Awaited<ReturnType<typeof postJson>>;
    try {
      answer = await postJson(`/api/fee-dues/${due._id}/pay`, partial ? { amount: Number(amount) } : {});
    } catch {
      toast.error("Payment failed", { description: NETWORK_ERROR });
      setBusy(false);
      return;
    }
    if (!answer.ok) {
      toast.error("Could not start the payment", { description: (answer.body.error as string) || "Please try again." });
      setBusy(false);
      return;
    }
    const placed = answer.body as unknown as FeeCheckoutJson;
    try {
      await openCheckout(
        checkout.script,
        {
          key: placed.key_id || checkout.key,
          amount: placed.order.amount,
          currency: placed.order.currency,
          name: placed.institute,
          description: placed.due.label,
          order_id: placed.order.id,
          prefill: viewer ? { name: viewer.name, email: viewer.email } : undefined,
          notes: { dueId: due._id },
          theme: { color: (site?.kind === "tenant" && site.brandColor) || "#4338ca" },
          handler: (response) => void verify(response),
          modal: { ondismiss: () => setBusy(false) },
        },
        (failure) => {
          toast.error("Payment failed", {
            description: failure.error?.description || "The payment did not go through. You can try again.",
          });
          setBusy(false);
        },
      );
    } catch {
      toast.error("Payment failed", { description: "Checkout could not be opened. Please try again." });
      setBusy(false);
    }
  };

  return (
    <div className="flex items-center justify-end gap-2">
      {partial && (
        <Input
          className="h-8 w-28"
          inputMode="decimal"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          aria-label={`Amount to pay for ${due.label} (₹)`}
        />
      )}
      <Button size="sm" onClick={() => void pay()} disabled={busy} aria-busy={busy}>
        {busy ? <Loader2 className="size-4 animate-spin" aria-hidden /> : null}
        {partial ? "Pay" : `Pay ${formatRupees(due.balance)}`}
      </Button>
    </div>
  );
}
