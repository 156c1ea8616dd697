import { useSubmit } from "react-router";
import { Download } from "lucide-react";
import type { Route } from "./+types/consent";
import { loadConsent, withdrawConsent } from "~/lib/parent/consent.server";
import { PageHeader } from "~/components/ui/page-header";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Badge } from "~/components/ui/badge";
import { Button, buttonClasses } from "~/components/ui/button";
import { ConfirmedSubmit } from "~/components/ui/confirm";
import { FormError } from "~/components/ui/form-message";
import { formatDate } from "#common/format.ts";
import { CONSENT_ANSWER_LABELS, PARENT_TEXTS } from "#common/parent-area.ts";

export const meta: Route.MetaFunction = () => [{ title: "Consent & data | Parent" }];

export const loader = ({ context }: Route.LoaderArgs) => loadConsent(context);

export const action = ({ context, request }: Route.ActionArgs) => withdrawConsent(context, request);

const TONES = { granted: "success", refused: "muted", withdrawn: "destructive" } as const;

/**
 * "Consent & data" (DPDP Act, 2023): per child, the consent notice the parent answered, word for
 * word, with when and the answer; everything Pathshala holds about the child as one file; and
 * withdrawing consent, after a confirm step.
 */
export default function ParentConsent({ loaderData, actionData }: Route.ComponentProps) {
  const submit = useSubmit();
  return (
    <div className="mx-auto grid max-w-4xl grid-cols-1 gap-6">
      <PageHeader
        title="Consent & data"
        description="What you agreed to for each child, a copy of everything kept about them, and withdrawing your consent."
      />
      {actionData && !actionData.ok && <FormError>{actionData.error}</FormError>}
      {loaderData.children.map((child) => (
        <Card key={child.linkId} role="region" aria-label={child.name}>
          <CardHeader>
            <CardTitle>{child.name}</CardTitle>
            <CardDescription>
              {child.institute} · linked since {formatDate(child.linkedAt)}
            </CardDescription>
          </CardHeader>
          <CardContent className="grid grid-cols-1 gap-4">
            <ol className="grid gap-3" aria-label="Consent record">
              {child.consents.map((c) => (
                <li key={c._id} className="grid gap-2 rounded-lg border p-3">
                  <p className="flex flex-wrap items-center gap-2 text-sm">
                    <Badge tone={TONES[c.answer]}>{CONSENT_ANSWER_LABELS[c.answer]}</Badge>
                    <span>
                      {formatDate(c.at)} at{" "}
                      {new Date(c.at).toLocaleTimeString("en-IN", {
                        hour: "numeric",
                        minute: "2-digit",
                        timeZone: "Asia/Kolkata",
                      })}
                    </span>
                    <span className="text-muted-foreground">Notice version {c.noticeVersion}</span>
                  </p>
                  <details>
                    <summary className="cursor-pointer text-sm font-medium">The notice you were shown</summary>
                    <div className="mt-2 grid gap-2 whitespace-pre-line rounded-md bg-muted p-3 text-sm">
                      {c.noticeText}
                    </div>
                  </details>
                </li>
              ))}
            </ol>
            <div className="flex flex-wrap gap-2">
              <a
                href={`/api/parent/children/${child.linkId}/data`}
                download
                className={buttonClasses("outline")}
                aria-label={`Download ${child.name}'s data`}
              >
                <Download className="size-4" aria-hidden /> Download data
              </a>
              <ConfirmedSubmit
                button={(type) => (
                  <Button type={type} variant="destructive" aria-label={`Withdraw consent for ${child.name}`}>
                    Withdraw consent
                  </Button>
                )}
                fields={{ linkId: child.linkId }}
                submit={(fields) => submit(fields, { method: "post" })}
                title={PARENT_TEXTS.withdrawTitle(child.name)}
                description={PARENT_TEXTS.withdrawDescription(child.name, child.institute)}
                confirmLabel="Withdraw consent"
              />
            </div>
          </CardContent>
        </Card>
      ))}
    </div>
  );
}
