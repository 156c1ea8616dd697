import { useCallback, useEffect, useState } from "react";
import { useLocation, useRevalidator } from "react-router";
import { ReceiptText, RefreshCw } from "lucide-react";
import type { Route } from "./+types/subscription-details";
import { loadSubscription } from "~/lib/business-billing.server";
import { getRequestContext } from "~/lib/context.server";
import { billingLabel, formatRupees, isBilling } from "#common/validation/plans.ts";
import { expiryLabel } from "#common/validation/centers.ts";
import { formatDate } from "#common/format.ts";
import { PageHeader } from "~/components/ui/page-header";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Badge } from "~/components/ui/badge";
import { Button, ButtonLink } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { Table, TBody, Td, Th, THead, Tr } from "~/components/ui/table";
import { cn } from "~/lib/cn";
import type { PurchaseJson } from "#common/purchases.ts";
import type { InvoiceJson } from "#common/invoices.ts";
import { InvoiceLink } from "~/components/invoices";

export const meta: Route.MetaFunction = () => [{ title: "Subscription Details | Business" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const [subscription, settings] = await Promise.all([
    loadSubscription(context, request),
    getRequestContext(context).services.settings.effective(),
  ]);
  // The platform's legal identity (Platform Settings) on the bills.
  const billedBy = { legalName: settings.legalName, legalAddress: settings.legalAddress, gstin: settings.gstin };
  return { ...subscription, billedBy };
}

type History =
  { state: "loading" } | { state: "failed" } | { state: "ready"; purchases: PurchaseJson[]; invoices: InvoiceJson[] };

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url, { headers: { accept: "application/json" } });
  if (!res.ok) throw new Error(String(res.status));
  return (await res.json()) as T;
}

/** The account's plan purchases (GET /api/payment/purchases/my) with their invoices and credit notes (GET /api/invoices/my). */
function useBillingHistory() {
  const [history, setHistory] = useState<History>({ state: "loading" });
  const load = useCallback(async () => {
    try {
      const [bought, billed] = await Promise.all([
        getJson<{ purchases?: PurchaseJson[] }>("/api/payment/purchases/my"),
        getJson<{ invoices?: InvoiceJson[] }>("/api/invoices/my"),
      ]);
      setHistory({ state: "ready", purchases: bought.purchases ?? [], invoices: billed.invoices ?? [] });
    } catch {
      setHistory({ state: "failed" });
    }
  }, []);
  return { history, load };
}

const STATUS = {
  active: { label: "Active", tone: "success" },
  trial: { label: "Free trial", tone: "warning" },
  expired: { label: "Expired", tone: "destructive" },
  inactive: { label: "Inactive", tone: "muted" },
} as const;
const REFUNDED = { label: "Refunded", tone: "destructive" } as const;
const PAYMENT = {
  paid: { label: "Paid", tone: "success" },
  failed: { label: "Failed", tone: "destructive" },
  created: { label: "Not paid", tone: "muted" },
} as const;

/**
 * Spec §2/§4: Refresh, plan, status, start date, next billing and billing history; the data
 * reloads on mount, on entering the page and when the window regains focus.
 */
export default function SubscriptionDetails({ loaderData }: Route.ComponentProps) {
  const { center, subscription, billedBy } = loaderData;
  const revalidator = useRevalidator();
  const { history, load } = useBillingHistory();
  const location = useLocation();

  const refresh = useCallback(() => {
    void load();
    if (revalidator.state === "idle") void revalidator.revalidate();
  }, [load, revalidator]);

  // Mount and every entry into this page (a new history entry has a new key).
  useEffect(() => {
    void load();
  }, [load, location.key]);

  useEffect(() => {
    const onFocus = () => refresh();
    window.addEventListener("focus", onFocus);
    return () => window.removeEventListener("focus", onFocus);
  }, [refresh]);

  const refreshing = revalidator.state === "loading" || history.state === "loading";
  // Purchases of this institute: the ones that made or renewed it, and unpaid attempts for its domain.
  const rows =
    history.state === "ready"
      ? history.purchases.filter(
          (p) => !center || p.centerId === center.id || (!p.centerId && center.domain && p.domain === center.domain),
        )
      : [];
  // A plan the money-back guarantee refunded ended for that reason, not because it ran out.
  const refunded = subscription?.status === "expired" && rows.some((p) => p.refund?.status === "processed");
  const status = subscription
    ? refunded
      ? REFUNDED
      : (STATUS[subscription.status as keyof typeof STATUS] ?? STATUS.inactive)
    : null;
  const hasSubscription = Boolean(subscription && (subscription.status === "active" || subscription.plan));

  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader
        title="Subscription Details"
        description={center ? `${center.instituteName}'s plan and payments.` : "Your plan and payments."}
        actions={
          <Button variant="outline" onClick={refresh} disabled={refreshing}>
            <RefreshCw className={cn("size-4", refreshing && "animate-spin")} aria-hidden /> Refresh
          </Button>
        }
      />

      {!hasSubscription || !subscription || !status ? (
        <EmptyState icon={<ReceiptText />} title="No active subscription found.">
          <ButtonLink to="/business/subscription-plan" size="sm">
            View Plans
          </ButtonLink>
        </EmptyState>
      ) : (
        <Card>
          <CardContent className="grid gap-4 p-6 sm:grid-cols-2 lg:grid-cols-4">
            <Fact term="Plan" testId="subscription-plan">
              {subscription.plan ?? "—"}
              {subscription.billing && isBilling(subscription.billing) && (
                <span className="block text-xs font-normal text-muted-foreground">
                  {billingLabel(subscription.billing)}
                </span>
              )}
            </Fact>
            <Fact term="Status" testId="subscription-status">
              <Badge tone={status.tone}>{status.label}</Badge>
            </Fact>
            <Fact term="Start date" testId="subscription-start">
              {formatDate(subscription.subscriptionStartAt)}
            </Fact>
            <Fact term="Next billing" testId="subscription-next">
              {subscription.expiresAt ? formatDate(subscription.expiresAt) : "—"}
              {subscription.expiresAt && (
                <span className="block text-xs font-normal text-muted-foreground">
                  {expiryLabel(subscription.expiresAt)}
                </span>
              )}
            </Fact>
          </CardContent>
        </Card>
      )}

      <Card className="mt-6">
        <CardHeader>
          <CardTitle as="h2">Billing history</CardTitle>
        </CardHeader>
        <CardContent>
          {history.state === "loading" ? (
            <p className="py-6 text-center text-sm text-muted-foreground">Loading...</p>
          ) : history.state === "failed" ? (
            <div className="flex flex-col items-center gap-3 py-6 text-center">
              <p role="alert" className="text-sm text-destructive">
                Could not load billing history.
              </p>
              <Button variant="outline" size="sm" onClick={() => void load()}>
                Try again
              </Button>
            </div>
          ) : rows.length === 0 ? (
            <p className="py-6 text-center text-sm text-muted-foreground">No payments yet.</p>
          ) : (
            <Table aria-label="Billing history">
              <THead>
                <tr>
                  <Th>Date</Th>
                  <Th>Plan</Th>
                  <Th>Billing</Th>
                  <Th className="text-right">Amount</Th>
                  <Th>Status</Th>
                  <Th>Order</Th>
                  <Th>Invoice</Th>
                </tr>
              </THead>
              <TBody>
                {rows.map((p) => {
                  const refunded = p.refund?.status === "processed" ? p.refund : null;
                  const pay = refunded ? REFUNDED : PAYMENT[p.status];
                  return (
                    <Tr key={p._id}>
                      <Td className="whitespace-nowrap">{formatDate(p.paidAt ?? p.createdAt)}</Td>
                      <Td>{p.plan}</Td>
                      <Td className="whitespace-nowrap">
                        {isBilling(p.billing) ? billingLabel(p.billing) : p.billing}
                      </Td>
                      <Td className="whitespace-nowrap text-right tabular-nums">
                        {p.currency === "INR"
                          ? formatRupees(p.amount / 100)
                          : `${(p.amount / 100).toFixed(2)} ${p.currency}`}
                      </Td>
                      <Td>
                        <Badge tone={pay.tone}>{pay.label}</Badge>
                        {refunded && (
                          <p className="mt-1 whitespace-nowrap text-xs text-muted-foreground">
                            {formatRupees(refunded.amount / 100)} back on{" "}
                            {formatDate(refunded.processedAt ?? refunded.createdAt)}
                          </p>
                        )}
                      </Td>
                      <Td className="font-mono text-xs text-muted-foreground">{p.orderId}</Td>
                      <Td>
                        <div className="grid gap-1">
                          {history.invoices
                            .filter((invoice) => invoice.orderId === p._id)
                            .map((invoice) => (
                              <InvoiceLink key={invoice.id} invoice={invoice} />
                            ))}
                        </div>
                      </Td>
                    </Tr>
                  );
                })}
              </TBody>
            </Table>
          )}
          {billedBy.legalName && (
            <p className="mt-4 text-xs text-muted-foreground" data-testid="billed-by">
              Billed by {billedBy.legalName}
              {billedBy.legalAddress && `, ${billedBy.legalAddress}`}
              {billedBy.gstin && ` · GSTIN ${billedBy.gstin}`}
            </p>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

function Fact({ term, testId, children }: { term: string; testId: string; children: React.ReactNode }) {
  return (
    <div>
      <p className="text-sm text-muted-foreground">{term}</p>
      <div className="mt-1 font-medium" data-testid={testId}>
        {children}
      </div>
    </div>
  );
}
