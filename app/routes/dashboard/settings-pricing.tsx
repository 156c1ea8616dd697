import { useEffect } from "react";
import { Form, Link, redirect, useNavigation, useSearchParams } from "react-router";
import { toast } from "~/lib/toast";
import { Pencil, Tags } from "lucide-react";
import type { Route } from "./+types/settings-pricing";
import { loadAdminPlans, saveInlinePlan } from "~/lib/plan-admin.server";
import { flashToastCookie } from "~/lib/toast.server";
import { billingPeriod, formatRupees } from "#common/validation/plans.ts";
import { PageHeader } from "~/components/ui/page-header";
import { Card } from "~/components/ui/card";
import { Badge } from "~/components/ui/badge";
import { Button, ButtonLink } from "~/components/ui/button";
import { Input, Textarea } from "~/components/ui/input";
import { Field } from "~/components/ui/field";
import { EmptyState } from "~/components/ui/empty-state";
import { PlanPagesNav } from "~/components/plans/plan-nav";
import { LOAD_FAILED, PLAN_UPDATED, SAVE_FAILED } from "~/lib/plan-texts";

export const meta: Route.MetaFunction = () => [{ title: "Pricing Plans Management | Pathshala" }];

export function loader({ context }: Route.LoaderArgs) {
  return loadAdminPlans(context);
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const result = await saveInlinePlan(context, form);
  if ("data" in result) return result;
  return redirect("/dashboard/settings/pricing", {
    headers: { "Set-Cookie": flashToastCookie({ kind: "success", ...PLAN_UPDATED }) },
  });
}

export default function PricingPlansManagement({ loaderData, actionData }: Route.ComponentProps) {
  const { plans, loadFailed } = loaderData;
  const [params] = useSearchParams();
  const editing = params.get("edit");
  const navigation = useNavigation();
  const saving = navigation.state === "submitting";

  useEffect(() => {
    if (loadFailed) toast.error(LOAD_FAILED.title, { description: LOAD_FAILED.description, duration: 4000 });
  }, [loadFailed]);
  useEffect(() => {
    if (actionData && !actionData.ok)
      toast.error(SAVE_FAILED.title, { description: actionData.error || SAVE_FAILED.fallback, duration: 4000 });
  }, [actionData]);

  return (
    <div className="mx-auto w-full max-w-5xl">
      <PageHeader
        title="Pricing Plans Management"
        description="Edit a plan's name, price, description and features in place. Changes are live on the pricing page as soon as you save."
        actions={<PlanPagesNav />}
      />
      {loadFailed ? (
        <EmptyState icon={<Tags />} title={LOAD_FAILED.title}>
          <p className="text-sm text-muted-foreground">{LOAD_FAILED.description}</p>
        </EmptyState>
      ) : plans.length === 0 ? (
        <EmptyState icon={<Tags />} title="No plans found">
          <ButtonLink to="/dashboard/settings" variant="outline" size="sm">
            Add a plan
          </ButtonLink>
        </EmptyState>
      ) : (
        <ul className="grid gap-4">
          {plans.map((plan) => {
            const price = plan.pricing[plan.activeDuration].price;
            const period = billingPeriod(plan.activeDuration, plan);
            const isEditing = editing === plan._id;
            const failed = actionData && !actionData.ok && actionData.planId === plan._id ? actionData.error : null;
            return (
              <li key={plan._id}>
                <Card className="p-5" aria-label={plan.name}>
                  {isEditing ? (
                    <Form method="post" className="grid gap-4" aria-label={`Edit ${plan.name}`}>
                      <input type="hidden" name="id" value={plan._id} />
                      <div className="grid items-start gap-4 sm:grid-cols-2">
                        <Field label="Plan name">
                          <Input name="name" defaultValue={plan.name} required maxLength={80} />
                        </Field>
                        <Field label={`Price (₹ ${period})`} hint="Whole rupees, such as 5000.">
                          <Input name="price" inputMode="numeric" defaultValue={String(price)} required />
                        </Field>
                      </div>
                      <Field label="Description">
                        <Textarea name="description" defaultValue={plan.description} rows={2} maxLength={500} />
                      </Field>
                      <Field label="Features" hint="One feature per line.">
                        <Textarea
                          name="features"
                          defaultValue={plan.features.map((f) => f.name).join("\n")}
                          rows={Math.max(3, plan.features.length + 1)}
                        />
                      </Field>
                      {failed && (
                        <p role="alert" className="rounded-md bg-destructive/10 px-3 py-2 text-sm text-destructive">
                          {failed}
                        </p>
                      )}
                      <div className="flex gap-2">
                        <Button type="submit" disabled={saving}>
                          {saving ? "Saving..." : "Save"}
                        </Button>
                        <ButtonLink to="/dashboard/settings/pricing" variant="outline" preventScrollReset replace>
                          Cancel
                        </ButtonLink>
                      </div>
                    </Form>
                  ) : (
                    <div className="flex flex-wrap items-start justify-between gap-4">
                      <div className="min-w-0 flex-1">
                        <div className="flex flex-wrap items-center gap-2">
                          <h2 className="text-lg font-semibold">{plan.name}</h2>
                          {plan.isPopular && <Badge>Popular</Badge>}
                          {!plan.isActive && <Badge tone="muted">Inactive</Badge>}
                        </div>
                        <p className="mt-1 text-2xl font-bold">
                          {formatRupees(price)}{" "}
                          <span className="text-sm font-normal text-muted-foreground">{period}</span>
                        </p>
                        {plan.description && <p className="mt-2 text-sm text-muted-foreground">{plan.description}</p>}
                        {plan.features.length > 0 && (
                          <ul className="mt-3 flex flex-wrap gap-2">
                            {plan.features.map((f) => (
                              <li key={f.name} className="rounded-full bg-muted px-2.5 py-0.5 text-xs">
                                {f.name}
                              </li>
                            ))}
                          </ul>
                        )}
                      </div>
                      <Link
                        to={`?edit=${plan._id}`}
                        preventScrollReset
                        replace
                        className="inline-flex items-center gap-1.5 rounded-md border px-3 py-1.5 text-sm font-medium hover:bg-muted"
                        aria-label={`Edit ${plan.name}`}
                      >
                        <Pencil className="size-4" aria-hidden /> Edit
                      </Link>
                    </div>
                  )}
                </Card>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
