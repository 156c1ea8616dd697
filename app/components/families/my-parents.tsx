import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import { Users } from "lucide-react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Select } from "~/components/ui/input";
import { FormError, FormNote } from "~/components/ui/form-message";
import { formatDate } from "#common/format.ts";
import { RELATION_LABELS, type GuardianJson } from "#common/family.ts";
import { GuardianStatusBadge, ParentFields } from "~/components/families/parent-fields";
import { MY_PARENTS_TEXTS, type ParentInviteResult } from "#common/parent-area.ts";

interface InstituteFamily {
  centerId: string;
  institute: string;
  parents: GuardianJson[];
}

/**
 * The student's "My parents" card (issue 41, decision 0047): their parents at each institute with
 * the link's status, and a form to invite one by mobile number (posted to /account/parents).
 */
export function MyParentsCard({ families }: { families: InstituteFamily[] }) {
  const fetcher = useFetcher<ParentInviteResult>();
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (result?.ok) form.current?.reset();
  }, [result]);
  if (families.length === 0) return null;
  const failed = result && !result.ok ? result : null;
  return (
    <Card role="region" aria-labelledby="my-parents-heading">
      <CardHeader>
        <CardTitle id="my-parents-heading">{MY_PARENTS_TEXTS.title}</CardTitle>
        <CardDescription>{MY_PARENTS_TEXTS.description}</CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-6">
        {families.map((f) => (
          <section key={f.centerId} aria-label={`Parents at ${f.institute}`} className="grid gap-2">
            {families.length > 1 && <h3 className="text-sm font-semibold">{f.institute}</h3>}
            {f.parents.length === 0 ? (
              <p className="text-sm text-muted-foreground">{MY_PARENTS_TEXTS.none}</p>
            ) : (
              <ul className="divide-y rounded-lg border">
                {f.parents.map((p) => (
                  <li key={p._id} className="flex flex-wrap items-center gap-x-3 gap-y-1 p-3 text-sm">
                    <span className="font-medium">{p.name}</span>
                    <span className="text-muted-foreground">{RELATION_LABELS[p.relation]}</span>
                    <span className="tabular-nums text-muted-foreground">{p.phone}</span>
                    <span className="ml-auto flex items-center gap-2">
                      <span className="text-xs text-muted-foreground">
                        {formatDate(p.linkedAt ?? p.endedAt ?? p.invitedAt)}
                      </span>
                      <GuardianStatusBadge parent={{ status: p.status, expired: false }} />
                    </span>
                    {p.expired && (
                      <p className="basis-full text-xs text-muted-foreground">{MY_PARENTS_TEXTS.expired}</p>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </section>
        ))}
        <fetcher.Form ref={form} method="post" action="/account/parents" className="grid gap-4 border-t pt-6">
          <h3 className="font-semibold">Invite a parent</h3>
          {families.length > 1 ? (
            <Field label="Institute">
              <Select name="centerId" required defaultValue={families[0].centerId}>
                {families.map((f) => (
                  <option key={f.centerId} value={f.centerId}>
                    {f.institute}
                  </option>
                ))}
              </Select>
            </Field>
          ) : (
            <input type="hidden" name="centerId" value={families[0].centerId} />
          )}
          <div className="grid gap-4 sm:grid-cols-3">
            <ParentFields errors={failed?.fields} />
          </div>
          {failed && Object.keys(failed.fields).length === 0 && <FormError>{failed.error}</FormError>}
          {result?.ok && <FormNote>{result.message}</FormNote>}
          <Button type="submit" className="justify-self-start" disabled={fetcher.state !== "idle"}>
            <Users className="size-4" aria-hidden /> Send invitation
          </Button>
        </fetcher.Form>
      </CardContent>
    </Card>
  );
}
