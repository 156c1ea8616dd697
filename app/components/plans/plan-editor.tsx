import { useId, useState } from "react";
import { Tabs } from "radix-ui";
import { Plus, Trash2 } from "lucide-react";
import { BILLINGS, billingLabel, readPriceInput, type Billing, type PlanJson } from "#common/validation/plans.ts";
import { Dialog, DialogContent } from "~/components/ui/dialog";
import { Button } from "~/components/ui/button";
import { Input, Label, Select } from "~/components/ui/input";
import { Field } from "~/components/ui/field";
import { cn } from "~/lib/cn";

interface FeatureRow {
  key: string;
  name: string;
  description: string;
  included: boolean;
}

interface EditorState {
  name: string;
  description: string;
  prices: Record<Billing, string>;
  activeDuration: Billing;
  quarterlyMonths: string;
  yearlyYears: string;
  features: FeatureRow[];
  isActive: boolean;
  isPopular: boolean;
  order: string;
}

let rows = 0;
const rowKey = () => `f${++rows}`;

function initialState(plan: PlanJson | null): EditorState {
  return {
    name: plan?.name ?? "",
    description: plan?.description ?? "",
    prices: {
      monthly: String(plan?.pricing.monthly.price ?? ""),
      quarterly: String(plan?.pricing.quarterly.price ?? ""),
      yearly: String(plan?.pricing.yearly.price ?? ""),
    },
    activeDuration: plan?.activeDuration ?? "monthly",
    quarterlyMonths: String(plan?.quarterlyMonths ?? 3),
    yearlyYears: String(plan?.yearlyYears ?? 1),
    features: (plan?.features ?? []).map((f) => ({
      key: rowKey(),
      name: f.name,
      description: f.description ?? "",
      included: f.included,
    })),
    isActive: plan?.isActive ?? true,
    isPopular: plan?.isPopular ?? false,
    order: String(plan?.order ?? 0),
  };
}

/** Spec §5: numeric inputs fall back to 0 when invalid (the server then names what is wrong). */
const wholeOrZero = (s: string) => {
  const n = Number.parseInt(s.trim(), 10);
  return Number.isFinite(n) ? n : 0;
};

/** Each billing period's message when its typed price is refused (decision 0021). */
function priceErrors(s: EditorState): Partial<Record<Billing, string>> {
  const errors: Partial<Record<Billing, string>> = {};
  for (const b of BILLINGS) {
    const read = readPriceInput(s.prices[b], b);
    if (!read.ok) errors[b] = read.message;
  }
  return errors;
}

/** The plan body the API and the page action take (spec §3 "Pricing plan"); prices already checked. */
function toPlanBody(s: EditorState) {
  const price = (b: Billing) => {
    const read = readPriceInput(s.prices[b], b);
    return read.ok ? read.price : 0;
  };
  return {
    name: s.name,
    description: s.description,
    pricing: Object.fromEntries(BILLINGS.map((b) => [b, { price: price(b), currency: "INR" }])),
    activeDuration: s.activeDuration,
    quarterlyMonths: wholeOrZero(s.quarterlyMonths),
    yearlyYears: wholeOrZero(s.yearlyYears),
    features: s.features.map((f) => ({ name: f.name, description: f.description, included: f.included })),
    isActive: s.isActive,
    isPopular: s.isPopular,
    order: wholeOrZero(s.order),
  };
}

export type PlanBody = ReturnType<typeof toPlanBody>;

const TAB =
  "rounded-md px-3 py-1.5 text-sm font-medium text-muted-foreground transition data-[state=active]:bg-background data-[state=active]:text-foreground data-[state=active]:shadow-sm";

/**
 * The plan editor: create mode without a plan, edit mode with one (spec §4 "Plan editor").
 * Name and description on top; tabs Pricing, Features, Settings.
 */
export function PlanEditor({
  plan,
  open,
  onOpenChange,
  onSave,
  saving,
  serverError,
}: {
  plan: PlanJson | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSave: (body: PlanBody) => void;
  saving: boolean;
  serverError: string | null;
}) {
  const [state, setState] = useState(() => initialState(plan));
  const [tab, setTab] = useState("pricing");
  const [featureError, setFeatureError] = useState<string | null>(null);
  const [pricesRefused, setPricesRefused] = useState<Partial<Record<Billing, string>>>({});
  const id = useId();
  const set = <K extends keyof EditorState>(key: K, value: EditorState[K]) => setState((s) => ({ ...s, [key]: value }));
  const setFeature = (key: string, patch: Partial<FeatureRow>) =>
    setState((s) => ({ ...s, features: s.features.map((f) => (f.key === key ? { ...f, ...patch } : f)) }));

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const refused = priceErrors(state);
    setPricesRefused(refused);
    if (Object.keys(refused).length > 0) {
      setTab("pricing");
      return;
    }
    // Spec §5: feature names must not be empty after trimming.
    if (state.features.some((f) => f.name.trim() === "")) {
      setFeatureError("Feature name is required");
      setTab("features");
      return;
    }
    setFeatureError(null);
    onSave(toPlanBody(state));
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={plan ? `Edit ${plan.name}` : "Add plan"}
        description={plan ? "Change the plan and save." : "A new plan for institutes to buy."}
        className="max-w-2xl"
      >
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <div className="grid items-start gap-4 sm:grid-cols-2">
            <Field label="Plan name">
              <Input value={state.name} onChange={(e) => set("name", e.target.value)} maxLength={80} required />
            </Field>
            <Field label="Description">
              <Input value={state.description} onChange={(e) => set("description", e.target.value)} maxLength={500} />
            </Field>
          </div>
          <Tabs.Root value={tab} onValueChange={setTab}>
            <Tabs.List aria-label="Plan details" className="inline-flex rounded-lg bg-muted p-1">
              <Tabs.Trigger value="pricing" className={TAB}>
                Pricing
              </Tabs.Trigger>
              <Tabs.Trigger value="features" className={TAB}>
                Features
              </Tabs.Trigger>
              <Tabs.Trigger value="settings" className={TAB}>
                Settings
              </Tabs.Trigger>
            </Tabs.List>

            <Tabs.Content value="pricing" className="mt-4 grid gap-4">
              <div className="grid gap-4 sm:grid-cols-3">
                {BILLINGS.map((b) => (
                  <Field
                    key={b}
                    label={`${b === "monthly" ? "Monthly" : b === "quarterly" ? "Quarterly" : "Yearly"} price (₹)`}
                    error={pricesRefused[b] ?? null}
                  >
                    <Input
                      inputMode="numeric"
                      value={state.prices[b]}
                      onChange={(e) => setState((s) => ({ ...s, prices: { ...s.prices, [b]: e.target.value } }))}
                    />
                  </Field>
                ))}
              </div>
              <div className="grid items-start gap-4 sm:grid-cols-3">
                <Field label="Price shown" hint="The billing period the plan's price is shown for.">
                  <Select
                    value={state.activeDuration}
                    onChange={(e) => set("activeDuration", e.target.value as Billing)}
                  >
                    {BILLINGS.map((b) => (
                      <option key={b} value={b}>
                        {billingLabel(b, {
                          quarterlyMonths: wholeOrZero(state.quarterlyMonths) || 3,
                          yearlyYears: wholeOrZero(state.yearlyYears) || 1,
                        })}
                      </option>
                    ))}
                  </Select>
                </Field>
                <Field label="Quarterly months" hint="At least 1 (default 3).">
                  <Input
                    inputMode="numeric"
                    value={state.quarterlyMonths}
                    onChange={(e) => set("quarterlyMonths", e.target.value)}
                  />
                </Field>
                <Field label="Yearly years" hint="At least 1 (default 1).">
                  <Input
                    inputMode="numeric"
                    value={state.yearlyYears}
                    onChange={(e) => set("yearlyYears", e.target.value)}
                  />
                </Field>
              </div>
            </Tabs.Content>

            <Tabs.Content value="features" className="mt-4 grid gap-3">
              {state.features.length === 0 && <p className="text-sm text-muted-foreground">No features yet.</p>}
              {state.features.map((f, i) => (
                <fieldset
                  key={f.key}
                  className="grid items-end gap-2 rounded-lg border p-3 sm:grid-cols-[1fr_1fr_auto_auto]"
                >
                  <legend className="sr-only">Feature {i + 1}</legend>
                  <Field
                    label={
                      <>
                        Name<span className="sr-only"> of feature {i + 1}</span>
                      </>
                    }
                    error={featureError && f.name.trim() === "" ? featureError : null}
                  >
                    <Input
                      value={f.name}
                      onChange={(e) => setFeature(f.key, { name: e.target.value })}
                      maxLength={120}
                    />
                  </Field>
                  <Field
                    label={
                      <>
                        Description<span className="sr-only"> of feature {i + 1}</span>
                      </>
                    }
                  >
                    <Input
                      value={f.description}
                      onChange={(e) => setFeature(f.key, { description: e.target.value })}
                      maxLength={300}
                    />
                  </Field>
                  <label className="flex h-10 items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      className="size-4 accent-[var(--primary)]"
                      checked={f.included}
                      onChange={(e) => setFeature(f.key, { included: e.target.checked })}
                    />
                    Included
                  </label>
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-label={`Remove feature ${i + 1}`}
                    onClick={() => setState((s) => ({ ...s, features: s.features.filter((x) => x.key !== f.key) }))}
                  >
                    <Trash2 className="size-4" aria-hidden />
                  </Button>
                </fieldset>
              ))}
              <div>
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() =>
                    setState((s) => ({
                      ...s,
                      features: [...s.features, { key: rowKey(), name: "", description: "", included: true }],
                    }))
                  }
                >
                  <Plus className="size-4" aria-hidden /> Add feature
                </Button>
              </div>
            </Tabs.Content>

            <Tabs.Content value="settings" className="mt-4 grid gap-4">
              <label className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  className="size-4 accent-[var(--primary)]"
                  checked={state.isActive}
                  onChange={(e) => set("isActive", e.target.checked)}
                />
                Active (shown on the pricing page and can be bought)
              </label>
              <label className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  className="size-4 accent-[var(--primary)]"
                  checked={state.isPopular}
                  onChange={(e) => set("isPopular", e.target.checked)}
                />
                Popular (highlighted on the pricing page)
              </label>
              <div className="max-w-40">
                <Label htmlFor={`${id}-order`}>Display order</Label>
                <Input
                  id={`${id}-order`}
                  className="mt-1.5"
                  inputMode="numeric"
                  value={state.order}
                  onChange={(e) => set("order", e.target.value)}
                />
                <p className="mt-1 text-xs text-muted-foreground">Lower numbers come first (default 0).</p>
              </div>
            </Tabs.Content>
          </Tabs.Root>

          {serverError && (
            <p role="alert" className="rounded-md bg-destructive/10 px-3 py-2 text-sm text-destructive">
              {serverError}
            </p>
          )}
          <div className={cn("flex justify-end gap-2 border-t pt-4")}>
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={saving}>
              {saving ? "Saving..." : plan ? "Save changes" : "Create plan"}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
