import { useEffect } from "react";
import { Link, useNavigation } from "react-router";
import { toast } from "~/lib/toast";
import { ArrowLeft, CheckCircle2, ExternalLink } from "lucide-react";
import type { Route } from "./+types/centers-create";
import { centerAction, centerFields, centerServices } from "~/lib/center-admin.server";
import { CENTER_TEXTS, goUrl } from "#common/validation/centers.ts";
import { PageHeader } from "~/components/ui/page-header";
import { Card } from "~/components/ui/card";
import { CenterForm } from "~/components/admin/center-form";

export const meta: Route.MetaFunction = () => [{ title: "Add Sub Center | Pathshala Admin" }];

export async function action({ request, context }: Route.ActionArgs) {
  const fields = centerFields(await request.formData());
  return centerAction(context, "create", undefined, () => centerServices(context).create(fields), fields);
}

/** Spec §2/§5: 'Add Sub Center'. On success the form empties for the next one. */
export default function AddSubCenter({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" && navigation.formMethod?.toUpperCase() === "POST";
  const failed = actionData && !actionData.ok ? actionData : null;
  const created = actionData?.ok ? actionData.center : null;

  useEffect(() => {
    if (!actionData) return;
    if (actionData.ok) {
      toast.success(CENTER_TEXTS.created, {
        description: `${actionData.center.name} is live at ${actionData.center.domain}.`,
        duration: 5000,
      });
    } else {
      const known = Object.keys(actionData.fieldErrors).length > 0 || actionData.error !== CENTER_TEXTS.createFailed;
      toast.error("Error", { description: known ? actionData.error : CENTER_TEXTS.createFailed, duration: 4000 });
    }
  }, [actionData]);

  return (
    <div className="mx-auto w-full max-w-2xl">
      <Link
        to="/dashboard/centers"
        className="mb-4 inline-flex items-center gap-1.5 text-sm text-muted-foreground hover:text-foreground"
      >
        <ArrowLeft className="size-4" aria-hidden /> Center List
      </Link>
      <PageHeader
        title="Add Sub Center"
        description="A new center gets its own website on its domain as soon as you create it."
      />
      {created && (
        <p
          role="status"
          className="mb-4 flex flex-wrap items-center gap-2 rounded-lg border border-success/30 bg-success/10 px-4 py-3 text-sm"
        >
          <CheckCircle2 className="size-4 text-success" aria-hidden />
          <span>
            {CENTER_TEXTS.created} {created.name} ({created.domain})
          </span>
          {goUrl(created) && (
            <a
              href={goUrl(created)!}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex items-center gap-1 font-medium text-primary hover:underline"
            >
              Go <ExternalLink className="size-3.5" aria-hidden />
            </a>
          )}
        </p>
      )}
      <Card className="p-6">
        <CenterForm
          // A failed attempt keeps what was typed; a successful one starts empty.
          key={created ? created._id : "new"}
          defaults={failed?.values}
          serverErrors={failed?.fieldErrors}
          submitting={submitting}
          submitLabel="Create Sub Center"
          submittingLabel="Creating..."
        />
      </Card>
    </div>
  );
}
