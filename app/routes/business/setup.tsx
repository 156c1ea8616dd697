import { Suspense, useEffect } from "react";
import { Await, Form, Link, useActionData, useNavigation } from "react-router";
import { CheckCircle2, Circle, Globe, Loader2, ShieldCheck } from "lucide-react";
import type { Route } from "./+types/setup";
import { loadBusinessCenter, setupState } from "~/lib/business.server";
import { failure, tryService } from "~/lib/actions.server";
import { toast } from "~/lib/toast";
import { PageHeader } from "~/components/ui/page-header";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TBody, Td, Th, THead } from "~/components/ui/table";
import { Badge } from "~/components/ui/badge";
import { Button, ButtonLink } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Field } from "~/components/ui/field";
import { FormError, FormNote } from "~/components/ui/form-message";
import type { StreamingHandle } from "~/lib/streaming";
import { formatDate } from "#common/format.ts";
import { CLAIM_DAYS, twinOf, type DomainStateJson } from "#common/domains.ts";

type DomainCheck = Awaited<NonNullable<ReturnType<typeof setupState>["domain"]>>;

export const meta: Route.MetaFunction = () => [{ title: "Setup Details | Business" }];

// The domain's DNS check arrives while the page streams (app/lib/streaming.ts).
export const handle: StreamingHandle = { streams: true };

export async function loader({ request, context }: Route.LoaderArgs) {
  const { center, services } = await loadBusinessCenter(context, request);
  const state = center ? await services.domains.state(center) : null;
  const { steps, domain } = setupState(
    center,
    await services.settings.effective(),
    // The domain waiting for proof while there is one (its records are what to add), else the bound one.
    (state?.claim?.status === "pending" ? state.claim.domain : state?.bound) ?? null,
  );
  return {
    center: center ? { instituteName: center.instituteName } : null,
    state,
    steps,
    // Looked up while the page streams, so a slow DNS answer never holds the page.
    domain,
  };
}

type DomainAction =
  { ok: true; intent: "claim" | "verify"; proven: boolean; message: string } | { ok: false; error: string };

export async function action({ request, context }: Route.ActionArgs) {
  const { center, services } = await loadBusinessCenter(context, request);
  if (!center) return failure("No active subscription found.", 404);
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent === "claim") {
    const result = await tryService(() => services.domains.ask(center, { domain: form.get("domain") ?? "" }));
    if (!result.ok) return result.response;
    return { ok: true as const, intent, proven: false, message: result.value.message };
  }
  if (intent === "verify") {
    const result = await tryService(() => services.domains.verify(center));
    if (!result.ok) return result.response;
    return { ok: true as const, intent, proven: result.value.proven, message: result.value.message };
  }
  return failure("Unknown request");
}

export default function SetupDetails({ loaderData }: Route.ComponentProps) {
  const { center, state, steps, domain } = loaderData;
  const done = (check: DomainCheck) => Boolean(state?.bound && check.domain === state.bound && check.connected);
  return (
    <div className="mx-auto grid max-w-4xl gap-6">
      <PageHeader
        title="Setup Details"
        description={
          center
            ? `Everything ${center.instituteName} needs to be live and looking its best.`
            : "Finish these steps to launch your institute online."
        }
      />
      <Card>
        <CardHeader>
          <CardTitle>Checklist</CardTitle>
        </CardHeader>
        <CardContent>
          <ul className="divide-y">
            {steps.map((step) => (
              <li key={step.key} className="flex items-start gap-3 py-3">
                <StepMark done={step.done} />
                <div className="flex-1">
                  <p className="font-medium">
                    {step.title} <span className="sr-only">{step.done ? "(done)" : "(to do)"}</span>
                  </p>
                  <p className="text-sm text-muted-foreground">{step.text}</p>
                </div>
                {!step.done && (
                  <Link to={step.to} className="text-sm font-medium text-primary hover:underline">
                    Set up
                  </Link>
                )}
              </li>
            ))}
            <li className="flex items-start gap-3 py-3">
              {domain ? (
                <Suspense
                  fallback={
                    <Loader2 className="mt-0.5 size-5 animate-spin text-muted-foreground" aria-label="Checking" />
                  }
                >
                  <Await resolve={domain}>{(check) => <StepMark done={done(check)} />}</Await>
                </Suspense>
              ) : (
                <StepMark done={false} />
              )}
              <div className="flex-1">
                <p className="font-medium">Domain records</p>
                <p className="text-sm text-muted-foreground">
                  Prove your domain is yours and point it at Pathshala so your website opens on it.
                </p>
              </div>
            </li>
          </ul>
        </CardContent>
      </Card>

      {center && state ? (
        <DomainCard state={state} domain={domain} />
      ) : (
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <Globe className="size-5" aria-hidden /> Your domain
            </CardTitle>
          </CardHeader>
          <CardContent>
            <div className="flex flex-wrap items-center justify-between gap-3 text-sm text-muted-foreground">
              No domain yet: you choose it when you buy a plan.
              <ButtonLink to="/business/subscription-plan" size="sm">
                View Plans
              </ButtonLink>
            </div>
          </CardContent>
        </Card>
      )}
    </div>
  );
}

function StepMark({ done }: { done: boolean }) {
  return done ? (
    <CheckCircle2 className="mt-0.5 size-5 text-success" aria-hidden />
  ) : (
    <Circle className="mt-0.5 size-5 text-muted-foreground" aria-hidden />
  );
}

/**
 * The institute's own domain: bound (proven), waiting for proof (the TXT record to add, Check
 * now), lapsed (ask again), or none yet (ask for one).
 */
function DomainCard({ state, domain }: { state: DomainStateJson; domain: Promise<DomainCheck> | null }) {
  const actionData = useActionData<typeof action>() as DomainAction | undefined;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" ? navigation.formData?.get("intent") : null;
  useEffect(() => {
    if (!actionData) return;
    if (!actionData.ok) toast.error("Your domain", { description: actionData.error, duration: 4000 });
    else if (actionData.proven) toast.success("Domain proven", { description: actionData.message, duration: 5000 });
    else if (actionData.intent === "verify")
      toast.error("Not proven yet", { description: actionData.message, duration: 4000 });
  }, [actionData]);
  const { bound, claim, workingHost } = state;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Globe className="size-5" aria-hidden /> Your domain
        </CardTitle>
        <CardDescription>
          Create these records at the company you bought your domain from (GoDaddy, Hostinger, BigRock, Cloudflare…).
          Changes can take up to a few hours to spread.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        {actionData && !actionData.ok && <FormError>{actionData.error}</FormError>}
        {/* A check that found nothing is told beside the claim (its last result). */}
        {actionData?.ok && (actionData.intent === "claim" || actionData.proven) && (
          <FormNote>{actionData.message}</FormNote>
        )}

        {bound && (
          <section aria-label="Proven domain" className="grid gap-3">
            <p className="flex flex-wrap items-center gap-2 text-sm">
              <strong>{bound}</strong> <Badge tone="success">Proven</Badge>
              {domain && (
                <Suspense fallback={<Badge tone="muted">Checking DNS…</Badge>}>
                  <Await resolve={domain} errorElement={<Badge tone="muted">DNS not checked</Badge>}>
                    {(check) =>
                      check.domain === bound &&
                      (check.connected ? (
                        <Badge tone="success">Connected</Badge>
                      ) : (
                        <Badge tone="warning">Not pointing here yet</Badge>
                      ))
                    }
                  </Await>
                </Suspense>
              )}
            </p>
            <p className="text-sm text-muted-foreground">
              Your website opens on {bound} and on {twinOf(bound)}, which leads to it. No other institute can use
              either.
            </p>
            {claim?.status !== "pending" && domain && <Records domain={domain} />}
          </section>
        )}

        {claim && (
          <section aria-label="Domain waiting for proof" className="grid gap-3">
            <p className="flex flex-wrap items-center gap-2 text-sm">
              <strong>{claim.domain}</strong>{" "}
              {claim.status === "pending" ? (
                <Badge tone="warning">Waiting for proof</Badge>
              ) : (
                <Badge tone="destructive">Lapsed</Badge>
              )}
            </p>
            {claim.status === "pending" ? (
              <>
                <p className="text-sm">
                  Prove that {claim.domain} is yours by {formatDate(claim.expiresAt)}. Add this TXT record, then press
                  Check now:
                </p>
                <Table aria-label="The TXT record that proves your domain">
                  <THead>
                    <tr>
                      <Th>Type</Th>
                      <Th>Name</Th>
                      <Th>Value</Th>
                    </tr>
                  </THead>
                  <TBody>
                    <tr>
                      <Td className="font-mono">TXT</Td>
                      <Td className="font-mono break-all">{claim.txt.name}</Td>
                      <Td className="font-mono break-all" data-testid="txt-value">
                        {claim.txt.value}
                      </Td>
                    </tr>
                  </TBody>
                </Table>
                <p className="text-sm text-muted-foreground">
                  Or point {claim.domain} at Pathshala with the records below: once it leads here, Check now sees it
                  (unless another institute has asked for it too; then only the TXT record counts).
                </p>
                {domain && <Records domain={domain} />}
                {claim.lastResult && (
                  <p role="status" className="text-sm">
                    <span className="text-muted-foreground">
                      Last checked {claim.checkedAt ? formatDate(claim.checkedAt) : ""}:{" "}
                    </span>
                    {claim.lastResult}
                  </p>
                )}
                <Form method="post">
                  <input type="hidden" name="intent" value="verify" />
                  <Button type="submit" disabled={busy === "verify"}>
                    {busy === "verify" ? (
                      <Loader2 className="size-4 animate-spin" aria-hidden />
                    ) : (
                      <ShieldCheck className="size-4" aria-hidden />
                    )}
                    Check now
                  </Button>
                </Form>
              </>
            ) : (
              <>
                <p className="text-sm">
                  The time to prove {claim.domain} ran out on {formatDate(claim.expiresAt)}. Ask for it again to get a
                  new code: you then have {CLAIM_DAYS} days to prove it.
                </p>
                <Form method="post">
                  <input type="hidden" name="intent" value="claim" />
                  <input type="hidden" name="domain" value={claim.domain} />
                  <Button type="submit" disabled={busy === "claim"}>
                    Ask again
                  </Button>
                </Form>
              </>
            )}
          </section>
        )}

        {!bound && workingHost && (
          <p className="text-sm text-muted-foreground">
            Until your domain is proven, your website opens on <strong>{workingHost}</strong>.
          </p>
        )}

        <Form
          method="post"
          // A new claim (or a binding) starts the form afresh.
          key={`${bound}:${claim?.txt.value}`}
          className="grid gap-3 border-t pt-4 sm:grid-cols-[1fr_auto] sm:items-end"
        >
          <input type="hidden" name="intent" value="claim" />
          <Field
            label={bound || claim ? "Use a different domain" : "Your domain"}
            hint={`You get a TXT record to prove it is yours, within ${CLAIM_DAYS} days.`}
          >
            <Input name="domain" placeholder="yourinstitute.com" autoComplete="off" required />
          </Field>
          <Button type="submit" variant={bound || claim ? "outline" : "default"} disabled={busy === "claim"}>
            Use this domain
          </Button>
        </Form>
        <p className="text-xs text-muted-foreground">
          A secure (https) certificate is issued automatically the first time someone opens your domain after it is
          proven and points here.
        </p>
      </CardContent>
    </Card>
  );
}

/** The A/CNAME records that point a domain here, and what it resolves to now. */
function Records({ domain }: { domain: Promise<DomainCheck> }) {
  return (
    <Suspense fallback={<p className="text-sm text-muted-foreground">Checking DNS…</p>}>
      <Await resolve={domain}>
        {(check) => (
          <div className="grid gap-2">
            {check.found.length > 0 && (
              <p className="text-sm text-muted-foreground">
                {check.domain} currently resolves to {check.found.join(", ")}
              </p>
            )}
            {check.records.length > 0 ? (
              <Table aria-label="The records that point your domain here">
                <THead>
                  <tr>
                    <Th>Type</Th>
                    <Th>Name</Th>
                    <Th>Value</Th>
                  </tr>
                </THead>
                <TBody>
                  {check.records.map((r) => (
                    <tr key={`${r.type}${r.name}`}>
                      <Td className="font-mono">{r.type}</Td>
                      <Td className="font-mono">{r.name}</Td>
                      <Td className="font-mono">{r.value}</Td>
                    </tr>
                  ))}
                </TBody>
              </Table>
            ) : (
              <p className="text-sm text-muted-foreground">
                Your platform administrator has not published the address to point domains at yet. Please contact
                support.
              </p>
            )}
          </div>
        )}
      </Await>
    </Suspense>
  );
}
