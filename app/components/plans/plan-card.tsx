import { Check, Pencil, Trash2, X } from "lucide-react";
import { BILLINGS, billingPeriod, formatRupees, type PlanJson } from "#common/validation/plans.ts";
import { DELETE_CONFIRM } from "~/lib/plan-texts";
import { Card } from "~/components/ui/card";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Confirm } from "~/components/ui/confirm";

/** One plan in the Price management grid: prices, the first features, edit and delete. */
export function PlanCard({
  plan,
  onEdit,
  onDelete,
  busy,
}: {
  plan: PlanJson;
  onEdit: () => void;
  onDelete: () => void;
  busy: boolean;
}) {
  const shown = plan.activeDuration;
  const shownFeatures = plan.features.slice(0, 3);
  const more = plan.features.length - shownFeatures.length;
  return (
    <Card className="flex flex-col p-5" aria-label={plan.name}>
      <div className="flex items-start justify-between gap-2">
        <h2 className="text-lg font-semibold leading-tight">{plan.name}</h2>
        <div className="flex shrink-0 gap-1">
          {plan.isPopular && <Badge>Popular</Badge>}
          <Badge tone={plan.isActive ? "success" : "muted"}>{plan.isActive ? "Active" : "Inactive"}</Badge>
        </div>
      </div>
      {plan.description && <p className="mt-1 text-sm text-muted-foreground">{plan.description}</p>}
      <p className="mt-4 text-3xl font-bold tracking-tight">
        {formatRupees(plan.pricing[shown].price)}{" "}
        <span className="text-sm font-normal text-muted-foreground">{billingPeriod(shown, plan)}</span>
      </p>
      <dl className="mt-2 grid grid-cols-3 gap-2 text-xs">
        {BILLINGS.map((b) => (
          <div key={b} className="rounded-md bg-muted/60 px-2 py-1.5">
            <dt className="text-muted-foreground">
              {b === "monthly"
                ? "Monthly"
                : b === "quarterly"
                  ? `${plan.quarterlyMonths} months`
                  : plan.yearlyYears === 1
                    ? "Yearly"
                    : `${plan.yearlyYears} years`}
            </dt>
            <dd className="font-medium">{formatRupees(plan.pricing[b].price)}</dd>
          </div>
        ))}
      </dl>
      <ul className="mt-4 grid flex-1 content-start gap-1.5 text-sm">
        {shownFeatures.map((f) => (
          <li key={f.name} className="flex items-start gap-2">
            {f.included ? (
              <Check className="mt-0.5 size-4 shrink-0 text-success" aria-label="Included" />
            ) : (
              <X className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-label="Not included" />
            )}
            <span>{f.name}</span>
          </li>
        ))}
        {more > 0 && <li className="text-muted-foreground">+{more} more</li>}
        {plan.features.length === 0 && <li className="text-muted-foreground">No features listed</li>}
      </ul>
      <p className="mt-3 text-xs text-muted-foreground">Display order {plan.order}</p>
      <div className="mt-4 flex gap-2 border-t pt-4">
        <Button variant="outline" size="sm" onClick={onEdit} aria-label={`Edit ${plan.name}`}>
          <Pencil className="size-4" aria-hidden /> Edit
        </Button>
        <Confirm
          title={DELETE_CONFIRM}
          description={`“${plan.name}” will be removed. A plan that has been bought is deactivated instead, so its purchases keep their history.`}
          onConfirm={onDelete}
          trigger={
            <Button
              variant="ghost"
              size="sm"
              className="text-destructive hover:bg-destructive/10"
              disabled={busy}
              aria-label={`Delete ${plan.name}`}
            >
              <Trash2 className="size-4" aria-hidden /> Delete
            </Button>
          }
        />
      </div>
    </Card>
  );
}
