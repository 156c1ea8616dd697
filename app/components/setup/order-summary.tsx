import { BILLINGS, billingLabel, formatRupees, type Billing } from "#common/validation/plans.ts";
import { Card } from "~/components/ui/card";
import { Label, Select } from "~/components/ui/input";

export interface SetupPlan {
  name: string;
  pricing: Record<Billing, { price: number; currency: string }>;
  quarterlyMonths: number;
  yearlyYears: number;
}

/** Spec §2: plan, billing, subtotal, setup fee Free, total, '14-day free trial included'. */
export function OrderSummary({
  plans,
  plan,
  billing,
  onPlan,
  onBilling,
  locked,
  trial = false,
  offerTrial = true,
}: {
  plans: SetupPlan[];
  plan: SetupPlan | null;
  billing: Billing;
  onPlan: (name: string) => void;
  onBilling: (billing: Billing) => void;
  locked: boolean;
  /** Whether the owner is starting the free trial (nothing due today) rather than paying now. */
  trial?: boolean;
  /**
   * Whether the free trial is on offer at all: not to an owner who may not start one (TrialService
   * mayStart), nor on Subscription Plan, which renews an institute that exists.
   */
  offerTrial?: boolean;
}) {
  const price = plan ? plan.pricing[billing].price : null;
  return (
    <Card className="p-6" aria-labelledby="order-summary-title">
      <h2 id="order-summary-title" className="text-lg font-semibold">
        Order summary
      </h2>
      <div className="mt-4 grid gap-3">
        <div className="grid gap-1.5">
          <Label htmlFor="summary-plan">Plan</Label>
          <Select id="summary-plan" value={plan?.name ?? ""} onChange={(e) => onPlan(e.target.value)} disabled={locked}>
            {!plan && <option value="">Choose a plan</option>}
            {plans.map((p) => (
              <option key={p.name} value={p.name}>
                {p.name}
              </option>
            ))}
          </Select>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="summary-billing">Billing</Label>
          <Select
            id="summary-billing"
            value={billing}
            onChange={(e) => onBilling(e.target.value as Billing)}
            disabled={locked}
          >
            {BILLINGS.map((b) => (
              <option key={b} value={b}>
                {billingLabel(b, plan ?? undefined)}
              </option>
            ))}
          </Select>
        </div>
      </div>
      <dl className="mt-5 grid gap-2 border-t pt-4 text-sm">
        <div className="flex justify-between">
          <dt className="text-muted-foreground">Subtotal</dt>
          <dd data-testid="summary-subtotal">{price === null ? "—" : formatRupees(price)}</dd>
        </div>
        <div className="flex justify-between">
          <dt className="text-muted-foreground">Setup fee</dt>
          <dd className="font-medium text-success">Free</dd>
        </div>
        <div className="flex justify-between border-t pt-3 text-base font-semibold">
          <dt>Total</dt>
          <dd data-testid="summary-total">{price === null ? "—" : formatRupees(price)}</dd>
        </div>
        <div className="flex justify-between text-sm">
          <dt className="text-muted-foreground">Due today</dt>
          <dd data-testid="summary-due">{trial ? formatRupees(0) : price === null ? "—" : formatRupees(price)}</dd>
        </div>
      </dl>
      {(offerTrial || trial) && (
        <div className="mt-4 rounded-md bg-accent px-3 py-2 text-center text-sm text-accent-foreground">
          <p className="font-medium">14-day free trial included</p>
          {/* The promise is kept: the trial costs nothing; paying now skips it. */}
          <p className="mt-0.5 text-xs" data-testid="summary-trial-note">
            {trial
              ? "Nothing is charged today. Buy the plan from your dashboard whenever you are ready."
              : "Start it with “Start 14-day free trial” and pay nothing today, or pay now to skip it."}
          </p>
        </div>
      )}
    </Card>
  );
}
