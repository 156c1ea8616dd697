import { Link, useLocation } from "react-router";
import {
  BarChart3,
  ClipboardCheck,
  FileStack,
  FileText,
  IndianRupee,
  Radio,
  ShoppingBag,
  Upload,
  Video,
} from "lucide-react";
import type { Route } from "./+types/home";
import { loadCreatorDesk } from "~/lib/creator.server";
import { getViewer } from "~/lib/session.server";
import { creatorPaths } from "~/lib/creator-paths";
import { formatDate, formatRupees } from "#common/format.ts";
import { buttonClasses } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { EmptyState } from "~/components/ui/empty-state";

export const meta: Route.MetaFunction = () => [{ title: "Dashboard | Creator Studio" }];

export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, creator, may, desk } = await loadCreatorDesk(context, request);
  const [counts, summary] = await Promise.all([
    services.content.countsByType(creator),
    // Earnings stay the person's own (by authorship), whichever institute they work on.
    services.sales.summary(creator.id),
  ]);
  return {
    name: getViewer(context)!.name,
    // What the person's role here allows: the page leaves out the rest (the server refuses it too).
    mayContent: may("content.write"),
    mayTests: may("tests.write"),
    desk: desk?.name ?? null,
    counts,
    totalRevenue: summary.totalRevenue,
    totalOrders: summary.totalOrders,
    last30: summary.daily.reduce((sum, d) => sum + d.revenue, 0),
    recent: summary.recent,
  };
}

export default function CreatorHome({ loaderData }: Route.ComponentProps) {
  const { name, counts, totalRevenue, totalOrders, last30, recent, mayContent, mayTests, desk } = loaderData;
  const paths = creatorPaths(useLocation().pathname);
  const contents = counts.pdf.total + counts.video.total + counts.live.total;
  const active = counts.pdf.active + counts.video.active + counts.live.active;
  return (
    <div className="mx-auto max-w-6xl">
      <div className="mb-6 rounded-2xl bg-gradient-to-r from-primary to-primary/70 p-6 text-primary-foreground shadow-sm">
        <p className="text-sm opacity-90">{desk ? `Creator Studio · ${desk}` : "Creator Studio"}</p>
        <h1 className="mt-1 text-2xl font-semibold tracking-tight">Welcome back, {name}</h1>
        <p className="mt-2 max-w-xl text-sm opacity-90">
          Publish notes, videos and live classes, and see what they earn.
        </p>
        <div className="mt-4 flex flex-wrap gap-2">
          {mayContent && (
            <>
              <Link to={paths.upload} className={buttonClasses("secondary", "sm")}>
                <Upload className="size-4" aria-hidden /> Upload
              </Link>
              <Link to={paths.contents} className={buttonClasses("secondary", "sm")}>
                <FileStack className="size-4" aria-hidden /> Manage Contents
              </Link>
              <Link to={paths.sales} className={buttonClasses("secondary", "sm")}>
                <BarChart3 className="size-4" aria-hidden /> Sales
              </Link>
            </>
          )}
          {mayTests && (
            <Link to="/creator/tests" className={buttonClasses("secondary", "sm")}>
              <ClipboardCheck className="size-4" aria-hidden /> Tests
            </Link>
          )}
        </div>
      </div>

      <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        <Stat label="Contents" value={String(contents)} note={`${active} active`} icon={<FileStack />} />
        <Stat label="Orders" value={String(totalOrders)} note="paid, all time" icon={<ShoppingBag />} />
        <Stat label="Revenue" value={formatRupees(totalRevenue)} note="all time" icon={<IndianRupee />} />
        <Stat label="Last 30 days" value={formatRupees(last30)} note="revenue" icon={<BarChart3 />} />
      </div>

      <div className="mt-6 grid grid-cols-1 gap-6 lg:grid-cols-[1fr_1.4fr]">
        <Card>
          <CardHeader>
            <CardTitle>Contents by type</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-3">
            {(
              [
                ["pdf", "PDFs", FileText],
                ["video", "Videos", Video],
                ["live", "Live classes", Radio],
              ] as const
            ).map(([type, label, Icon]) => (
              <div key={type} className="flex items-center justify-between gap-3 rounded-lg border p-3">
                <span className="flex items-center gap-2 text-sm font-medium">
                  <Icon className="size-4 text-primary" aria-hidden /> {label}
                </span>
                <span className="text-sm tabular-nums text-muted-foreground">
                  <span className="font-semibold text-foreground">{counts[type].total}</span> ({counts[type].active}{" "}
                  active)
                </span>
              </div>
            ))}
          </CardContent>
        </Card>
        <Card>
          <CardHeader className="flex-row items-center justify-between">
            <CardTitle>Latest sales</CardTitle>
            {mayContent && (
              <Link to={paths.sales} className="text-sm text-primary underline-offset-4 hover:underline">
                View all
              </Link>
            )}
          </CardHeader>
          <CardContent>
            {recent.length === 0 ? (
              <EmptyState title="No sales yet. Assign your content to a business so students can buy it." />
            ) : (
              <ul className="divide-y">
                {recent.map((sale) => (
                  <li key={sale.orderId} className="flex items-center justify-between gap-3 py-3 text-sm">
                    <Link
                      to={paths.content(sale.contentId)}
                      className="min-w-0 truncate font-medium hover:text-primary"
                    >
                      {sale.title}
                    </Link>
                    <span className="shrink-0 text-right">
                      <span className="font-semibold tabular-nums">{formatRupees(sale.amount)}</span>
                      <span className="block text-xs text-muted-foreground">{formatDate(sale.paidAt)}</span>
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>
      </div>
    </div>
  );
}

function Stat({ label, value, note, icon }: { label: string; value: string; note: string; icon: React.ReactNode }) {
  return (
    <Card>
      <CardContent className="flex items-start justify-between gap-3 p-4 sm:p-5">
        <div className="min-w-0">
          <p className="text-sm text-muted-foreground">{label}</p>
          <p className="mt-1 truncate text-xl font-semibold tabular-nums sm:text-2xl">{value}</p>
          <p className="mt-1 text-xs text-muted-foreground">{note}</p>
        </div>
        <div className="hidden size-10 shrink-0 place-items-center rounded-full bg-primary/10 text-primary sm:grid [&_svg]:size-5">
          {icon}
        </div>
      </CardContent>
    </Card>
  );
}
