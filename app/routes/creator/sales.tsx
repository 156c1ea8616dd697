import { Link, useLocation } from "react-router";
import { Download, IndianRupee, ShoppingBag } from "lucide-react";
import type { Route } from "./+types/sales";
import { creatorContext } from "~/lib/creator.server";
import { creatorPaths } from "~/lib/creator-paths";
import { formatRupees } from "#common/format.ts";
import { RevenueChart } from "~/components/creator/revenue-chart";
import { buttonClasses } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { EmptyState } from "~/components/ui/empty-state";
import { PageHeader } from "~/components/ui/page-header";
import { Table, TBody, THead, Td, Th, Tr } from "~/components/ui/table";
import { cn } from "~/lib/cn";

export const meta: Route.MetaFunction = () => [{ title: "Sales & Revenue | Creator Studio" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { services, creator } = await creatorContext(context, request);
  const range = new URL(request.url).searchParams.get("range") === "12m" ? "12m" : "30d";
  const summary = await services.sales.summary(creator.id);
  return {
    range,
    totalRevenue: summary.totalRevenue,
    totalOrders: summary.totalOrders,
    rows: summary.rows,
    series: range === "12m" ? summary.monthly : summary.daily,
  };
}

export default function SalesPage({ loaderData }: Route.ComponentProps) {
  const { range, totalRevenue, totalOrders, rows, series } = loaderData;
  const paths = creatorPaths(useLocation().pathname);
  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader
        title="Sales & Revenue"
        description="What your content has earned, from paid orders."
        actions={
          <a href="/api/sales/my?format=csv" download className={buttonClasses("outline")}>
            <Download className="size-4" aria-hidden /> Export CSV
          </a>
        }
      />
      <div className="grid grid-cols-2 gap-3 sm:gap-4">
        <Stat label="Total Revenue" value={formatRupees(totalRevenue)} icon={<IndianRupee />} />
        <Stat label="Total Orders" value={String(totalOrders)} icon={<ShoppingBag />} />
      </div>

      <Card className="mt-6">
        <CardHeader className="flex-row flex-wrap items-center justify-between gap-3">
          <div>
            <CardTitle>Revenue over time</CardTitle>
            <CardDescription>
              {range === "12m" ? "By month, last 12 months" : "By day, last 30 days"} (India time)
            </CardDescription>
          </div>
          <div role="group" aria-label="Period" className="grid grid-cols-2 rounded-lg bg-muted p-1 text-sm">
            {(
              [
                ["30d", "30 days"],
                ["12m", "12 months"],
              ] as const
            ).map(([value, text]) => (
              <Link
                key={value}
                to={value === "30d" ? "?" : `?range=${value}`}
                preventScrollReset
                replace
                aria-current={range === value ? "true" : undefined}
                className={cn(
                  "rounded-md px-3 py-1 text-center font-medium",
                  range === value ? "bg-background shadow-sm" : "text-muted-foreground hover:text-foreground",
                )}
              >
                {text}
              </Link>
            ))}
          </div>
        </CardHeader>
        <CardContent>
          <RevenueChart points={series} unit={range === "12m" ? "month" : "day"} />
        </CardContent>
      </Card>

      <h2 className="mb-3 mt-8 text-lg font-semibold">By content</h2>
      {rows.length === 0 ? (
        <EmptyState
          icon={<ShoppingBag />}
          title="No content yet: sales appear here once students buy what you publish."
        >
          <Link to={paths.upload} className={buttonClasses()}>
            Upload content
          </Link>
        </EmptyState>
      ) : (
        <Table>
          <THead>
            <tr>
              <Th>Title</Th>
              <Th className="text-right">Orders</Th>
              <Th className="text-right">Earnings</Th>
            </tr>
          </THead>
          <TBody>
            {rows.map((row) => (
              <Tr key={row.contentId}>
                <Td className="font-medium">{row.title}</Td>
                <Td className="text-right tabular-nums">{row.totalSales}</Td>
                <Td className="text-right tabular-nums">{formatRupees(row.totalEarnings)}</Td>
              </Tr>
            ))}
          </TBody>
        </Table>
      )}
    </div>
  );
}

function Stat({ label, value, icon }: { label: string; value: string; icon: React.ReactNode }) {
  return (
    <Card>
      <CardContent className="flex items-center justify-between gap-4 p-4 sm:p-6">
        <div className="min-w-0">
          <p className="text-sm text-muted-foreground">{label}</p>
          <p className="mt-1 truncate text-2xl font-semibold tabular-nums sm:text-3xl">{value}</p>
        </div>
        <div className="hidden size-11 shrink-0 place-items-center rounded-full bg-primary/10 text-primary sm:grid [&_svg]:size-5">
          {icon}
        </div>
      </CardContent>
    </Card>
  );
}
