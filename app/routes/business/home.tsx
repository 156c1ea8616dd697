import {
  CalendarClock,
  ExternalLink,
  Globe,
  GraduationCap,
  Inbox,
  IndianRupee,
  LayoutTemplate,
  ListChecks,
  ReceiptText,
} from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/home";
import { loadBusinessCenter, siteUrlFor, summarizeCenter } from "~/lib/business.server";
import { getRequestContext } from "~/lib/context.server";
import { daysLeft } from "#common/validation/centers.ts";
import { formatDate, formatRupees } from "#common/format.ts";
import { PageHeader } from "~/components/ui/page-header";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Badge } from "~/components/ui/badge";
import { ButtonLink } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { cn } from "~/lib/cn";

export const meta: Route.MetaFunction = () => [{ title: "Dashboard | Business" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { viewer, center, services } = await loadBusinessCenter(context, request);
  if (!center) return { name: viewer.name, center: null };
  const [figures, enquiries] = await Promise.all([
    services.businessFigures.figures(center.id),
    services.enquiries.countByStatus(center.id),
  ]);
  return {
    name: viewer.name,
    center: {
      instituteName: center.instituteName,
      domain: center.customDomain,
      planName: center.planName,
      status: center.status,
      expiresAt: center.expiresAt?.toISOString() ?? null,
      templateId: center.templateId,
      hasPlan: summarizeCenter(center, null).hasPlan,
      siteUrl: siteUrlFor(center, request, getRequestContext(context).env.PLATFORM_DOMAIN),
    },
    figures,
    enquiries: { ...enquiries, total: enquiries.new + enquiries.contacted + enquiries.enrolled },
  };
}

const number = new Intl.NumberFormat("en-IN");

/** The institute's own figures: students in its content, revenue from its content, enquiries, days left in the plan. */
export default function BusinessDashboard({ loaderData }: Route.ComponentProps) {
  const { name, center } = loaderData;
  const firstName = name.trim().split(/\s+/)[0] || "Business User";
  if (!center || !loaderData.figures || !loaderData.enquiries) {
    return (
      <div className="mx-auto max-w-3xl">
        <PageHeader title={`Welcome, ${firstName}`} />
        <EmptyState icon={<ReceiptText />} title="No active subscription found.">
          <p className="max-w-sm text-sm text-muted-foreground">
            Choose a plan to launch your institute's website on your own domain.
          </p>
          <ButtonLink to="/pricing">View Plans</ButtonLink>
        </EmptyState>
      </div>
    );
  }
  const { figures, enquiries } = loaderData;
  const left = daysLeft(center.expiresAt);
  const live = center.hasPlan;
  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader title={`Welcome, ${firstName}`} description={`${center.instituteName} at a glance.`} />

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
          to="/business/leads"
        />
        <Figure
          label="Days left in plan"
          value={left === null ? "—" : left === 0 ? "Expired" : number.format(left)}
          icon={CalendarClock}
          hint={
            center.expiresAt ? `${center.planName ?? "Plan"} until ${formatDate(center.expiresAt)}` : "No expiry date"
          }
          tone={left === 0 ? "destructive" : left !== null && left <= 14 ? "warning" : undefined}
          to="/business/subscription-plan"
        />
      </section>

      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader className="flex-row flex-wrap items-center justify-between gap-3">
            <CardTitle as="h2">Your website</CardTitle>
            <Badge tone={live ? "success" : "destructive"}>{live ? "Live" : "Offline"}</Badge>
          </CardHeader>
          <CardContent className="grid gap-3 text-sm">
            <p>
              <span className="text-muted-foreground">Address: </span>
              {center.domain ?? "—"}
            </p>
            <p>
              <span className="text-muted-foreground">Template: </span>
              {center.templateId.toUpperCase()}
            </p>
            {!live && (
              <p className="text-destructive">
                Your plan is not active, so visitors see “temporarily unavailable”. Renew it to bring the site back.
              </p>
            )}
            <div className="flex flex-wrap gap-2">
              {center.siteUrl && (
                <a
                  href={center.siteUrl}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="inline-flex h-9 items-center gap-1.5 rounded-md bg-primary px-3 text-sm font-medium text-primary-foreground hover:bg-primary/90"
                >
                  Open website <ExternalLink className="size-3.5" aria-hidden />
                </a>
              )}
              <ButtonLink to="/business/site" variant="outline" size="sm" className="h-9">
                <Globe className="size-4" aria-hidden /> Website Details
              </ButtonLink>
              <ButtonLink to="/business/templates" variant="outline" size="sm" className="h-9">
                <LayoutTemplate className="size-4" aria-hidden /> Template
              </ButtonLink>
            </div>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle as="h2">Next steps</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-2">
            <ButtonLink to="/business/setup" variant="outline" className="justify-start">
              <ListChecks className="size-4" aria-hidden /> Finish your setup checklist
            </ButtonLink>
            <ButtonLink to="/business/leads" variant="outline" className="justify-start">
              <Inbox className="size-4" aria-hidden /> Answer {enquiries.new} new{" "}
              {enquiries.new === 1 ? "enquiry" : "enquiries"}
            </ButtonLink>
            <ButtonLink to="/business/subscription-details" variant="outline" className="justify-start">
              <ReceiptText className="size-4" aria-hidden /> See payments and next billing
            </ButtonLink>
          </CardContent>
        </Card>
      </div>
    </div>
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
