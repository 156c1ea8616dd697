import { Suspense } from "react";
import { Await, Link } from "react-router";
import { CheckCircle2, Circle, Globe, Loader2 } from "lucide-react";
import type { Route } from "./+types/setup";
import { loadBusinessCenter, setupState } from "~/lib/business.server";
import { PageHeader } from "~/components/ui/page-header";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TBody, Td, Th, THead } from "~/components/ui/table";
import { Badge } from "~/components/ui/badge";
import { ButtonLink } from "~/components/ui/button";
import type { StreamingHandle } from "~/lib/streaming";

export const meta: Route.MetaFunction = () => [{ title: "Setup Details | Business" }];

// The domain's DNS check arrives while the page streams (app/lib/streaming.ts).
export const handle: StreamingHandle = { streams: true };

export async function loader({ request, context }: Route.LoaderArgs) {
  const { center, services } = await loadBusinessCenter(context, request);
  const { steps, domain } = setupState(center, await services.settings.effective());
  return {
    center: center ? { instituteName: center.instituteName, domain: center.customDomain } : null,
    steps,
    // Looked up while the page streams, so a slow DNS answer never holds the page.
    domain,
  };
}

export default function SetupDetails({ loaderData }: Route.ComponentProps) {
  const { center, steps, domain } = loaderData;
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
                {step.done ? (
                  <CheckCircle2 className="mt-0.5 size-5 text-success" aria-hidden />
                ) : (
                  <Circle className="mt-0.5 size-5 text-muted-foreground" aria-hidden />
                )}
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
                  <Await resolve={domain}>
                    {(check) =>
                      check.connected ? (
                        <CheckCircle2 className="mt-0.5 size-5 text-success" aria-hidden />
                      ) : (
                        <Circle className="mt-0.5 size-5 text-muted-foreground" aria-hidden />
                      )
                    }
                  </Await>
                </Suspense>
              ) : (
                <Circle className="mt-0.5 size-5 text-muted-foreground" aria-hidden />
              )}
              <div className="flex-1">
                <p className="font-medium">Domain records</p>
                <p className="text-sm text-muted-foreground">
                  Point your domain at Pathshala so your website opens on it.
                </p>
              </div>
            </li>
          </ul>
        </CardContent>
      </Card>

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
        <CardContent className="grid gap-4">
          {!center?.domain || !domain ? (
            <div className="flex flex-wrap items-center justify-between gap-3 text-sm text-muted-foreground">
              No domain yet: you choose it when you buy a plan.
              <ButtonLink to="/business/subscription-plan" size="sm">
                View Plans
              </ButtonLink>
            </div>
          ) : (
            <Suspense fallback={<p className="text-sm text-muted-foreground">Checking {center.domain}…</p>}>
              <Await resolve={domain}>
                {(check) => (
                  <>
                    <p className="text-sm">
                      <strong>{check.domain}</strong>{" "}
                      {check.connected ? (
                        <Badge tone="success">Connected</Badge>
                      ) : (
                        <Badge tone="warning">Not pointing here yet</Badge>
                      )}
                      {check.found.length > 0 && (
                        <span className="ml-2 text-muted-foreground">
                          Currently resolves to {check.found.join(", ")}
                        </span>
                      )}
                    </p>
                    {check.records.length > 0 ? (
                      <Table>
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
                        Your platform administrator has not published the address to point domains at yet. Please
                        contact support.
                      </p>
                    )}
                    <p className="text-xs text-muted-foreground">
                      A secure (https) certificate is issued automatically the first time someone opens your domain
                      after it points here.
                    </p>
                  </>
                )}
              </Await>
            </Suspense>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
