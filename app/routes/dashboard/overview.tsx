import {
  Building2,
  CalendarCheck,
  CreditCard,
  BadgeCheck,
  ClipboardCheck,
  ClipboardList,
  Clock,
  GraduationCap,
  Hourglass,
  LayoutTemplate,
  List,
  Palette,
  PlusCircle,
  RotateCcw,
  Tags,
  TimerOff,
  TrendingDown,
  TrendingUp,
} from "lucide-react";
import type { Route } from "./+types/overview";
import { loadOverview } from "~/lib/admin-overview.server";
import type { ActivityItem, Growth } from "#common/admin-feed.ts";
import { billingPeriod, formatRupees } from "#common/validation/plans.ts";
import { PageHeader } from "~/components/ui/page-header";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { ButtonLink } from "~/components/ui/button";
import { Badge } from "~/components/ui/badge";
import { cn } from "~/lib/cn";
import { formatTime } from "#common/time.ts";

export const meta: Route.MetaFunction = () => [{ title: "Overview | Pathshala Admin" }];

export function loader({ context }: Route.LoaderArgs) {
  return loadOverview(context);
}

const number = new Intl.NumberFormat("en-IN");

export default function Overview({ loaderData }: Route.ComponentProps) {
  const { isAdmin, stats, centers, tests, growth, activity, plans } = loaderData;
  const c = stats.collections;
  return (
    <div className="mx-auto w-full max-w-6xl">
      <PageHeader
        title="Overview"
        description="The platform at a glance: institutes, learners, creators and what happened lately."
      />

      <section aria-label="Platform figures" className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
        <StatCard label="Total Business" value={c.businesses} icon={Building2} adminOnly={!isAdmin} />
        <StatCard label="Total Students" value={c.students} icon={GraduationCap} adminOnly={!isAdmin} />
        <StatCard label="Total Creators" value={c.creators} icon={Palette} adminOnly={!isAdmin} />
        <GrowthCard growth={growth} adminOnly={!isAdmin} />
      </section>

      <section aria-label="Centers" className="mt-3 grid grid-cols-1 gap-3 sm:mt-4 sm:grid-cols-3 sm:gap-4">
        <StatCard label="Paid centers" value={centers.paid} icon={BadgeCheck} adminOnly={!isAdmin} />
        <StatCard label="On free trial" value={centers.trials} icon={Hourglass} adminOnly={!isAdmin} />
        <StatCard label="Lapsed or refunded" value={centers.lapsed} icon={TimerOff} adminOnly={!isAdmin} />
      </section>

      <section aria-label="Mock tests" className="mt-3 grid grid-cols-1 gap-3 sm:mt-4 sm:grid-cols-3 sm:gap-4">
        <StatCard label="Mock tests published" value={tests.published} icon={ClipboardList} adminOnly={!isAdmin} />
        <StatCard label="Test sittings" value={tests.attempts} icon={Clock} adminOnly={!isAdmin} />
        <StatCard label="Sittings submitted" value={tests.submitted} icon={ClipboardCheck} adminOnly={!isAdmin} />
      </section>

      {/* minmax(0, …): a long activity line is truncated within the column instead of widening it past a phone's screen. */}
      <div className="mt-6 grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,2fr)]">
        <Card>
          <CardHeader>
            <CardTitle>Quick Actions</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-2">
            <ButtonLink to="/dashboard/centers/create" className="justify-start">
              <PlusCircle className="size-4" aria-hidden /> Create Sub Center
            </ButtonLink>
            <ButtonLink to="/dashboard/centers" variant="outline" className="justify-start">
              <List className="size-4" aria-hidden /> View All Centers
            </ButtonLink>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>Recent Activity</CardTitle>
          </CardHeader>
          <CardContent>
            {activity.length === 0 ? (
              <p className="py-6 text-center text-sm text-muted-foreground">No recent activity to display</p>
            ) : (
              <ul className="divide-y" aria-label="Recent activity">
                {activity.map((item) => (
                  <ActivityRow key={item.id} item={item} />
                ))}
              </ul>
            )}
          </CardContent>
        </Card>
      </div>

      <section aria-labelledby="plans-title" className="mt-6">
        <Card>
          <CardHeader className="flex-row flex-wrap items-center justify-between gap-3">
            <CardTitle id="plans-title">Pricing Plans</CardTitle>
            {isAdmin && (
              <ButtonLink to="/dashboard/settings/pricing" variant="outline" size="sm">
                <Tags className="size-4" aria-hidden /> Manage Plans
              </ButtonLink>
            )}
          </CardHeader>
          <CardContent>
            {plans.length === 0 ? (
              <p className="py-6 text-center text-sm text-muted-foreground">No plans found</p>
            ) : (
              <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
                {plans.map((plan) => (
                  <li key={plan._id} className="rounded-lg border p-4">
                    <div className="flex items-start justify-between gap-2">
                      <p className="font-medium">{plan.name}</p>
                      <div className="flex gap-1">
                        {plan.isPopular && <Badge>Popular</Badge>}
                        {!plan.isActive && <Badge tone="muted">Inactive</Badge>}
                      </div>
                    </div>
                    <p className="mt-1 text-xl font-semibold">
                      {formatRupees(plan.pricing[plan.activeDuration].price)}{" "}
                      <span className="text-sm font-normal text-muted-foreground">
                        {billingPeriod(plan.activeDuration, plan)}
                      </span>
                    </p>
                    <p className="mt-1 text-xs text-muted-foreground">
                      {plan.features.length} {plan.features.length === 1 ? "feature" : "features"}
                    </p>
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>
      </section>
    </div>
  );
}

function StatCard({
  label,
  value,
  icon: Icon,
  adminOnly,
}: {
  label: string;
  value: number;
  icon: typeof Building2;
  adminOnly: boolean;
}) {
  return (
    <Card className="p-4 sm:p-5" role="group" aria-label={label}>
      <div className="flex items-center justify-between gap-2">
        <p className="text-sm font-medium text-muted-foreground">{label}</p>
        <span className="grid size-9 place-items-center rounded-lg bg-primary/10 text-primary">
          <Icon className="size-5" aria-hidden />
        </span>
      </div>
      <p className="mt-3 text-3xl font-bold tracking-tight" data-testid={`stat-${label}`}>
        {number.format(adminOnly ? 0 : value)}
      </p>
      {adminOnly && <p className="mt-1 text-xs text-muted-foreground">Admin only</p>}
    </Card>
  );
}

/** New business accounts this month against last month, as a percentage. */
function GrowthCard({ growth, adminOnly }: { growth: Growth | null; adminOnly: boolean }) {
  let value = "0%";
  let caption = "Admin only";
  let down = false;
  if (!adminOnly && growth) {
    const { thisMonth, lastMonth, percent } = growth;
    const plural = (n: number) => `${n} new ${n === 1 ? "business" : "businesses"}`;
    if (percent !== null) {
      value = `${percent > 0 ? "+" : ""}${percent}%`;
      down = percent < 0;
      caption = `${plural(thisMonth)} this month vs ${lastMonth} last month`;
    } else if (thisMonth > 0) {
      value = `+${thisMonth}`;
      caption = `${plural(thisMonth)} this month, none last month`;
    } else {
      value = "+0%";
      caption = "No new businesses this month or last";
    }
  }
  const Icon = down ? TrendingDown : TrendingUp;
  return (
    <Card className="p-4 sm:p-5" role="group" aria-label="Growth">
      <div className="flex items-center justify-between gap-2">
        <p className="text-sm font-medium text-muted-foreground">Growth</p>
        <span
          className={cn(
            "grid size-9 place-items-center rounded-lg",
            down ? "bg-destructive/10 text-destructive" : "bg-success/15 text-success",
          )}
        >
          <Icon className="size-5" aria-hidden />
        </span>
      </div>
      <p className={cn("mt-3 text-3xl font-bold tracking-tight", down && "text-destructive")} data-testid="stat-Growth">
        {value}
      </p>
      <p className="mt-1 text-xs text-muted-foreground">{caption}</p>
    </Card>
  );
}

const ACTIVITY_ICONS = {
  purchase: CreditCard,
  template: LayoutTemplate,
  center: Building2,
  booking: CalendarCheck,
  trial: Hourglass,
  refund: RotateCcw,
} as const;

function ActivityRow({ item }: { item: ActivityItem }) {
  const Icon = ACTIVITY_ICONS[item.kind];
  return (
    <li className="flex items-start gap-3 py-3 first:pt-0 last:pb-0">
      <span className="mt-0.5 grid size-8 shrink-0 place-items-center rounded-full bg-muted text-muted-foreground">
        <Icon className="size-4" aria-hidden />
      </span>
      <div className="min-w-0 flex-1">
        <p className="text-sm font-medium">{item.title}</p>
        {item.detail && <p className="truncate text-xs text-muted-foreground">{item.detail}</p>}
      </div>
      <time dateTime={item.at} className="shrink-0 text-xs text-muted-foreground">
        {formatTime(item.at, "dayTime")}
      </time>
    </li>
  );
}
