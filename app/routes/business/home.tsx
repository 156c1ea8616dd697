import { Suspense } from "react";
import { Await, Form } from "react-router";
import {
  Bell,
  CalendarClock,
  CheckCircle2,
  ClipboardCheck,
  ExternalLink,
  Globe,
  GraduationCap,
  Hourglass,
  Inbox,
  IndianRupee,
  LayoutTemplate,
  ListChecks,
  ReceiptText,
} from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/home";
import { closedPages, loadBusinessCenter, siteAddresses, summarizeCenter } from "~/lib/business.server";
import type { StreamingHandle } from "~/lib/streaming";
import { onTrial, TRIAL_TEXTS } from "#common/trial.ts";
import { getRequestContext } from "~/lib/context.server";
import { daysLeft } from "#common/validation/centers.ts";
import { formatDate, formatRupees, thePlan } from "#common/format.ts";
import { PageHeader } from "~/components/ui/page-header";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Badge } from "~/components/ui/badge";
import { ButtonLink } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { cn } from "~/lib/cn";
import type { NoticeJson } from "#common/notices.ts";
import { MERCHANT_TEXTS } from "#common/validation/merchant-account.ts";

export const meta: Route.MetaFunction = () => [{ title: "Dashboard | Business" }];

// The domain's DNS check arrives while the page streams (app/lib/streaming.ts).
export const handle: StreamingHandle = { streams: true };

export async function loader({ request, context }: Route.LoaderArgs) {
  const { viewer, center, services, may } = await loadBusinessCenter(context, request);
  const inbox = await services.notices.forOwner(viewer.id, 5);
  if (!center)
    return { name: viewer.name, center: null, inbox, mayStartTrial: await services.trials.mayStart(viewer.id) };
  const [figures, enquiries, settings] = await Promise.all([
    services.businessFigures.figures(center.id),
    services.enquiries.countByStatus(center.id),
    services.settings.effective(),
  ]);
  const { domainCheck, ...addresses } = siteAddresses(
    center,
    request,
    getRequestContext(context).env.PLATFORM_DOMAIN,
    settings,
  );
  return {
    name: viewer.name,
    inbox,
    // Staff see the figures, not the links to what their role does not allow (decision 0039).
    closed: closedPages(may),
    // Looked up while the page streams, so a slow DNS answer never holds the page.
    domainCheck,
    center: {
      instituteName: center.instituteName,
      planName: center.planName,
      status: center.status,
      expiresAt: center.expiresAt?.toISOString() ?? null,
      templateId: center.templateId,
      hasPlan: summarizeCenter(center, null).hasPlan,
      trialEndsAt: center.trialEndsAt?.toISOString() ?? null,
      ...addresses,
      // Asked for and not proven yet: it opens nothing until then (Setup Details).
      pendingDomain: center.customDomain ? null : await services.domains.domainOf(center),
      // Its students cannot buy its paid items until it connects its own payment account (decision 0040).
      paymentsConnected: center.merchantAccountId !== null,
    },
    figures,
    enquiries: { ...enquiries, total: enquiries.new + enquiries.contacted + enquiries.enrolled },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { viewer, services } = await loadBusinessCenter(context, request);
  const form = await request.formData();
  if (form.get("intent") === "notices-read") await services.notices.markOwnerRead(viewer.id);
  return { ok: true };
}

const number = new Intl.NumberFormat("en-IN");

/** The institute's own figures: students in its content, revenue from its content, enquiries, days left in the plan. */
export default function BusinessDashboard({ loaderData }: Route.ComponentProps) {
  const { name, center, inbox } = loaderData;
  const firstName = name.trim().split(/\s+/)[0] || "Business User";
  if (!center || !loaderData.figures || !loaderData.enquiries) {
    return (
      <div className="mx-auto max-w-3xl">
        <PageHeader title={`Welcome, ${firstName}`} />
        <NoticeInbox notices={inbox.notices} unread={inbox.unread} />
        <EmptyState icon={<ReceiptText />} title="No active subscription found.">
          <p className="max-w-sm text-sm text-muted-foreground">
            Choose a plan to launch your institute's website on your own domain.
          </p>
          <div className="flex flex-wrap justify-center gap-2">
            <ButtonLink to="/pricing">View Plans</ButtonLink>
            {loaderData.mayStartTrial && (
              <ButtonLink to="/pricing/setup?trial=1" variant="outline">
                Start Free Trial
              </ButtonLink>
            )}
          </div>
        </EmptyState>
      </div>
    );
  }
  const { figures, enquiries, domainCheck } = loaderData;
  const opens = (to: string) => !loaderData.closed.includes(to.split("#")[0]);
  const left = daysLeft(center.expiresAt);
  const live = center.hasPlan;
  const trial = center.trialEndsAt !== null;
  const trialRunning = trial && onTrial(center);
  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader title={`Welcome, ${firstName}`} description={`${center.instituteName} at a glance.`} />
      {!center.paymentsConnected && opens("/business/site") && (
        <section
          aria-label={MERCHANT_TEXTS.title}
          className="mb-6 flex flex-wrap items-center justify-between gap-3 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 dark:bg-amber-950/30"
        >
          <p className="text-sm">{MERCHANT_TEXTS.notConnected}</p>
          <ButtonLink to="/business/site#payments" size="sm" variant="outline">
            Connect Razorpay
          </ButtonLink>
        </section>
      )}
      {trial && (
        <section
          aria-label="Free trial"
          data-testid="trial-banner"
          className={cn(
            "mb-6 flex flex-wrap items-center justify-between gap-3 rounded-lg border px-4 py-3",
            trialRunning
              ? "border-amber-300 bg-amber-50 dark:bg-amber-950/30"
              : "border-destructive/40 bg-destructive/5",
          )}
        >
          <p className="flex items-center gap-2 text-sm">
            <Hourglass className="size-4 shrink-0" aria-hidden />
            {trialRunning ? (
              <span>
                <strong>
                  {left} {left === 1 ? "day" : "days"} left
                </strong>{" "}
                in your free trial of {thePlan(center.planName ?? "")} (until {formatDate(center.trialEndsAt!)}). Buy
                the plan to keep your website online; everything you set up stays.
              </span>
            ) : (
              <span>
                <strong>Your free trial has ended.</strong> Visitors see “temporarily unavailable” until you buy a plan;
                everything you set up is kept.
              </span>
            )}
          </p>
          {opens("/business/subscription-plan") && (
            <ButtonLink to="/business/subscription-plan" size="sm">
              {TRIAL_TEXTS.buy}
            </ButtonLink>
          )}
        </section>
      )}
      <NoticeInbox notices={inbox.notices} unread={inbox.unread} />

      <section aria-label="Your figures" className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
        <Figure
          label="Students enrolled"
          value={number.format(figures.studentsEnrolled)}
          icon={GraduationCap}
          hint={`${figures.contentsOnSale} ${figures.contentsOnSale === 1 ? "item" : "items"} of content on sale`}
        />
        <Figure
          label="Revenue"
          value={formatRupees(figures.revenue / 100)}
          icon={IndianRupee}
          hint={`from ${figures.paidOrders} paid ${figures.paidOrders === 1 ? "order" : "orders"} of your content`}
        />
        <Figure
          label="Enquiries"
          value={number.format(enquiries.total)}
          icon={Inbox}
          hint={`${enquiries.new} new · ${enquiries.contacted} contacted · ${enquiries.enrolled} enrolled`}
          to={opens("/business/leads") ? "/business/leads" : undefined}
        />
        <Figure
          label="Days left in plan"
          value={left === null ? "—" : left === 0 ? "Expired" : number.format(left)}
          icon={CalendarClock}
          hint={
            center.expiresAt
              ? `${center.planName ?? "Plan"}${trial ? " (free trial)" : ""} until ${formatDate(center.expiresAt)}`
              : "No expiry date"
          }
          tone={left === 0 ? "destructive" : left !== null && left <= 14 ? "warning" : undefined}
          to={opens("/business/subscription-plan") ? "/business/subscription-plan" : undefined}
        />
      </section>

      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader className="flex-row flex-wrap items-center justify-between gap-3">
            <CardTitle as="h2">Your website</CardTitle>
            <Badge tone={live ? "success" : "destructive"}>{live ? "Live" : "Offline"}</Badge>
          </CardHeader>
          <CardContent className="grid gap-3 text-sm">
            {center.workingHost && (
              <p data-testid="working-address">
                <span className="text-muted-foreground">Working address: </span>
                <a
                  href={center.workingUrl!}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="font-medium text-primary hover:underline"
                >
                  {center.workingHost}
                </a>{" "}
                <Badge tone="success">Works now</Badge>
              </p>
            )}
            {center.domain && (
              <p data-testid="custom-domain">
                <span className="text-muted-foreground">Your domain: </span>
                <span className="font-medium">{center.domain}</span>{" "}
                <Suspense fallback={<Badge tone="muted">Checking DNS…</Badge>}>
                  <Await resolve={domainCheck} errorElement={<Badge tone="muted">DNS not checked</Badge>}>
                    {(check) => <DnsBadge check={check} />}
                  </Await>
                </Suspense>
              </p>
            )}
            {!center.domain && center.pendingDomain && (
              <p data-testid="custom-domain">
                <span className="text-muted-foreground">Your domain: </span>
                <span className="font-medium">{center.pendingDomain}</span> <Badge tone="warning">Not proven yet</Badge>{" "}
                {opens("/business/setup") && (
                  <Link to="/business/setup" className="font-medium text-primary hover:underline">
                    Prove it
                  </Link>
                )}
              </p>
            )}
            <p>
              <span className="text-muted-foreground">Template: </span>
              {center.templateId.toUpperCase()}
            </p>
            {!live && (
              <p className="text-destructive">
                {trial
                  ? "Your free trial has ended, so visitors see “temporarily unavailable”. Buy a plan to bring the site back."
                  : "Your plan is not active, so visitors see “temporarily unavailable”. Renew it to bring the site back."}
              </p>
            )}
            <div className="flex flex-wrap gap-2">
              <Suspense fallback={<OpenWebsite url={center.workingUrl ?? center.domainUrl} />}>
                <Await resolve={domainCheck} errorElement={<OpenWebsite url={center.workingUrl ?? center.domainUrl} />}>
                  {(check) => (
                    <OpenWebsite
                      // The custom domain once its DNS leads here; until then the address that works.
                      url={
                        check?.connected && center.domainUrl
                          ? center.domainUrl
                          : (center.workingUrl ?? center.domainUrl)
                      }
                    />
                  )}
                </Await>
              </Suspense>
              {opens("/business/site") && (
                <ButtonLink to="/business/site" variant="outline" size="sm" className="h-9">
                  <Globe className="size-4" aria-hidden /> Website Details
                </ButtonLink>
              )}
              {opens("/business/templates") && (
                <ButtonLink to="/business/templates" variant="outline" size="sm" className="h-9">
                  <LayoutTemplate className="size-4" aria-hidden /> Template
                </ButtonLink>
              )}
            </div>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle as="h2">Next steps</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-2">
            {opens("/business/setup") && (
              <ButtonLink to="/business/setup" variant="outline" className="justify-start">
                <ListChecks className="size-4" aria-hidden /> Finish your setup checklist
              </ButtonLink>
            )}
            {opens("/business/leads") && (
              <ButtonLink to="/business/leads" variant="outline" className="justify-start">
                <Inbox className="size-4" aria-hidden /> Answer {enquiries.new} new{" "}
                {enquiries.new === 1 ? "enquiry" : "enquiries"}
              </ButtonLink>
            )}
            {opens("/business/subscription-details") && (
              <ButtonLink to="/business/subscription-details" variant="outline" className="justify-start">
                <ReceiptText className="size-4" aria-hidden /> See payments and next billing
              </ButtonLink>
            )}
            {opens("/business/tests") && (
              <ButtonLink to="/business/tests" variant="outline" className="justify-start">
                <ClipboardCheck className="size-4" aria-hidden /> Build and run mock tests
              </ButtonLink>
            )}
          </CardContent>
        </Card>
      </div>
    </div>
  );
}

function OpenWebsite({ url }: { url: string | null }) {
  if (!url) return null;
  return (
    <a
      href={url}
      target="_blank"
      rel="noopener noreferrer"
      data-testid="open-website"
      className="inline-flex h-9 items-center gap-1.5 rounded-md bg-primary px-3 text-sm font-medium text-primary-foreground hover:bg-primary/90"
    >
      Open website <ExternalLink className="size-3.5" aria-hidden />
    </a>
  );
}

function DnsBadge({ check }: { check: { connected: boolean } | null }) {
  if (!check) return null;
  return check.connected ? (
    <Badge tone="success">
      <CheckCircle2 className="mr-1 inline size-3" aria-hidden />
      DNS connected
    </Badge>
  ) : (
    <span className="inline-flex flex-wrap items-center gap-2">
      <Badge tone="warning">DNS not pointing here yet</Badge>
      <Link to="/business/setup" className="text-xs font-medium text-primary hover:underline">
        DNS records
      </Link>
    </span>
  );
}

/** The owner's notices (trial ended, refund), newest first, with a way to mark them read. */
function NoticeInbox({ notices, unread }: { notices: NoticeJson[]; unread: number }) {
  if (notices.length === 0) return null;
  return (
    <Card className="mb-6" aria-label="Notifications">
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-3">
        <CardTitle as="h2" className="flex items-center gap-2 text-base">
          <Bell className="size-4" aria-hidden /> Notifications
          {unread > 0 && <Badge tone="warning">{unread} new</Badge>}
        </CardTitle>
        {unread > 0 && (
          <Form method="post">
            <input type="hidden" name="intent" value="notices-read" />
            <button type="submit" className="text-sm font-medium text-primary hover:underline">
              Mark all read
            </button>
          </Form>
        )}
      </CardHeader>
      <CardContent>
        <ul className="divide-y text-sm">
          {notices.map((n) => (
            <li key={n._id} className="py-2 first:pt-0 last:pb-0" data-unread={n.readAt ? undefined : true}>
              <p className={cn("font-medium", !n.readAt && "text-foreground")}>{n.title}</p>
              <p className="text-muted-foreground">{n.body}</p>
              <p className="text-xs text-muted-foreground">{formatDate(n.createdAt)}</p>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

function Figure({
  label,
  value,
  icon: Icon,
  hint,
  tone,
  to,
}: {
  label: string;
  value: string;
  icon: typeof Inbox;
  hint: string;
  tone?: "warning" | "destructive";
  to?: string;
}) {
  const body = (
    <>
      <div className="flex items-center justify-between gap-2">
        <p className="text-sm font-medium text-muted-foreground">{label}</p>
        <span className="grid size-9 shrink-0 place-items-center rounded-lg bg-primary/10 text-primary">
          <Icon className="size-5" aria-hidden />
        </span>
      </div>
      <p
        className={cn(
          "mt-3 text-2xl font-bold tracking-tight sm:text-3xl",
          tone === "destructive" && "text-destructive",
          tone === "warning" && "text-amber-600",
        )}
        data-testid={`figure-${label}`}
      >
        {value}
      </p>
      <p className="mt-1 text-xs text-muted-foreground">{hint}</p>
    </>
  );
  return (
    <Card className="p-4 sm:p-5" role="group" aria-label={label}>
      {to ? (
        <Link to={to} className="block rounded-md focus-visible:outline-2 focus-visible:outline-ring">
          {body}
        </Link>
      ) : (
        body
      )}
    </Card>
  );
}
