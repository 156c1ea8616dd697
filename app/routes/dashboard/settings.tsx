import { useEffect, useState } from "react";
import { data, useFetcher } from "react-router";
import { toast } from "~/lib/toast";
import { Plus, Tags } from "lucide-react";
import type { Route } from "./+types/settings";
import { deletePlan, loadAdminPlans, savePlan } from "~/lib/plan-admin.server";
import {
  DELETE_FAILED,
  LOAD_FAILED,
  PLAN_CREATED,
  PLAN_DEACTIVATED,
  PLAN_DELETED,
  PLAN_UPDATED,
  SAVE_FAILED,
} from "~/lib/plan-texts";
import type { PlanJson } from "#common/validation/plans.ts";
import { PageHeader } from "~/components/ui/page-header";
import { Button } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { PlanCard } from "~/components/plans/plan-card";
import { PlanEditor, type PlanBody } from "~/components/plans/plan-editor";
import { PlanPagesNav } from "~/components/plans/plan-nav";

export const meta: Route.MetaFunction = () => [{ title: "Price Management | Pathshala" }];

export function loader({ context }: Route.LoaderArgs) {
  return loadAdminPlans(context);
}

export async function action({ request, context }: Route.ActionArgs) {
  const body = (await request.json().catch(() => null)) as {
    intent?: string;
    id?: string | null;
    plan?: unknown;
  } | null;
  if (body?.intent === "delete" && typeof body.id === "string") return deletePlan(context, body.id);
  if (body?.intent === "save") return savePlan(context, typeof body.id === "string" ? body.id : null, body.plan);
  return data({ ok: false as const, intent: "save" as const, error: "Unknown request" }, { status: 400 });
}

/** Price management (spec §2 "Admin dashboard"): plan cards with the edit and delete form. */
export default function PriceManagement({ loaderData }: Route.ComponentProps) {
  const { plans, loadFailed } = loaderData;
  const [editing, setEditing] = useState<{ plan: PlanJson | null; key: number } | null>(null);
  const saver = useFetcher<typeof action>({ key: "plan-save" });
  const deleter = useFetcher<typeof action>({ key: "plan-delete" });

  useEffect(() => {
    if (loadFailed) toast.error(LOAD_FAILED.title, { description: LOAD_FAILED.description, duration: 4000 });
  }, [loadFailed]);

  useEffect(() => {
    const result = saver.data;
    if (!result || saver.state !== "idle") return;
    if (result.ok) {
      const text = result.intent === "create" ? PLAN_CREATED : PLAN_UPDATED;
      toast.success(text.title, { description: text.description, duration: 5000 });
    } else {
      toast.error(SAVE_FAILED.title, { description: result.error || SAVE_FAILED.fallback, duration: 4000 });
    }
  }, [saver.data, saver.state]);

  useEffect(() => {
    const result = deleter.data;
    if (!result || deleter.state !== "idle") return;
    if (result.ok) {
      const text = result.deactivated ? PLAN_DEACTIVATED : PLAN_DELETED;
      toast.success(text.title, { description: text.description, duration: 5000 });
    } else {
      toast.error(DELETE_FAILED.title, { description: DELETE_FAILED.description, duration: 4000 });
    }
  }, [deleter.data, deleter.state]);

  const save = (body: PlanBody) => {
    void saver.submit(
      { intent: "save", id: editing?.plan?._id ?? null, plan: body },
      { method: "post", encType: "application/json" },
    );
  };
  const remove = (plan: PlanJson) => {
    void deleter.submit({ intent: "delete", id: plan._id }, { method: "post", encType: "application/json" });
  };
  const open = (plan: PlanJson | null) => {
    // A new editor starts without the last one's error.
    saver.reset();
    setEditing({ plan, key: Date.now() });
  };
  const saveError = saver.data && !saver.data.ok && saver.state === "idle" ? saver.data.error : null;
  // A successful save closes the editor (the next one starts with a reset fetcher).
  const editorOpen = editing !== null && !(saver.state === "idle" && saver.data?.ok);

  return (
    <div className="mx-auto w-full max-w-6xl">
      <PageHeader
        title="Price Management"
        description="The plans institutes can buy. Edit prices, features and settings, or add a plan."
        actions={
          <>
            <PlanPagesNav />
            <Button onClick={() => open(null)}>
              <Plus className="size-4" aria-hidden /> Add Plan
            </Button>
          </>
        }
      />
      {loadFailed ? (
        <EmptyState icon={<Tags />} title={LOAD_FAILED.title}>
          <p className="text-sm text-muted-foreground">{LOAD_FAILED.description}</p>
        </EmptyState>
      ) : plans.length === 0 ? (
        <EmptyState icon={<Tags />} title="No plans found">
          <Button variant="outline" size="sm" onClick={() => open(null)}>
            Add your first plan
          </Button>
        </EmptyState>
      ) : (
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {plans.map((plan) => (
            <PlanCard
              key={plan._id}
              plan={plan}
              onEdit={() => open(plan)}
              onDelete={() => remove(plan)}
              busy={deleter.state !== "idle"}
            />
          ))}
        </div>
      )}
      {editing && editorOpen && (
        <PlanEditor
          key={editing.key}
          plan={editing.plan}
          open
          onOpenChange={(o) => !o && setEditing(null)}
          onSave={save}
          saving={saver.state !== "idle"}
          serverError={saveError}
        />
      )}
    </div>
  );
}
