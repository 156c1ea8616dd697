import { formatRupees } from "#common/format.ts";
import { cn } from "~/lib/cn";

export interface RevenuePoint {
  /** "2026-11-03" (day) or "2026-11" (month). */
  period: string;
  orders: number;
  revenue: number;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

function label(period: string, unit: "day" | "month"): string {
  const [, m, d] = period.split("-").map(Number);
  return unit === "day" ? `${d} ${MONTHS[m - 1]}` : MONTHS[m - 1];
}

/** 1, 2 or 5 × 10^k at or above `value`: round numbers for the axis. */
function niceCeiling(value: number): number {
  if (value <= 0) return 100;
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((m) => m * power).find((n) => n >= value)!;
}

/**
 * Revenue per day or month as bars: plain SVG for the bars (stretched to the box) and HTML for
 * the labels (so text stays readable at any width). No chart library, no client code.
 */
export function RevenueChart({ points, unit }: { points: RevenuePoint[]; unit: "day" | "month" }) {
  const max = niceCeiling(Math.max(0, ...points.map((p) => p.revenue)));
  const ticks = [1, 0.75, 0.5, 0.25, 0];
  const total = points.reduce((sum, p) => sum + p.revenue, 0);
  const every = unit === "day" ? 5 : 1;
  const slot = 10;
  return (
    <figure className="grid gap-2">
      <div className="relative h-56 pl-14">
        <div className="absolute inset-y-0 left-0 w-12" aria-hidden>
          {ticks.map((t) => (
            <span
              key={t}
              className="absolute right-0 -translate-y-1/2 text-[11px] tabular-nums text-muted-foreground"
              style={{ top: `${(1 - t) * 100}%` }}
            >
              {formatRupees(Math.round(max * t)).replace(/\.00$/, "")}
            </span>
          ))}
        </div>
        <svg
          viewBox={`0 0 ${points.length * slot} 100`}
          preserveAspectRatio="none"
          className="h-full w-full overflow-visible"
          role="img"
          aria-label={`Revenue per ${unit}: ${formatRupees(total)} in total over the last ${points.length} ${unit === "day" ? "days" : "months"}.`}
        >
          {ticks.map((t) => (
            <line
              key={t}
              x1={0}
              x2={points.length * slot}
              y1={(1 - t) * 100}
              y2={(1 - t) * 100}
              className="stroke-border"
              vectorEffect="non-scaling-stroke"
              strokeWidth={1}
            />
          ))}
          {points.map((p, i) => {
            const height = max ? (p.revenue / max) * 100 : 0;
            return (
              <g key={p.period}>
                {/* The whole column answers the pointer, so thin bars are easy to inspect. */}
                <rect x={i * slot} y={0} width={slot} height={100} className="fill-transparent hover:fill-muted/60">
                  <title>{`${label(p.period, unit)}: ${formatRupees(p.revenue)} (${p.orders} ${p.orders === 1 ? "order" : "orders"})`}</title>
                </rect>
                <rect
                  x={i * slot + slot * 0.15}
                  y={100 - height}
                  width={slot * 0.7}
                  height={height}
                  rx={0.8}
                  className="pointer-events-none fill-primary"
                />
              </g>
            );
          })}
        </svg>
      </div>
      <div className="flex pl-14 text-[11px] text-muted-foreground" aria-hidden>
        {points.map((p, i) => {
          const fromEnd = points.length - 1 - i;
          if (fromEnd % every !== 0) return <span key={p.period} className="min-w-0 flex-1" />;
          // On narrow screens every other label is dropped; the newest sits flush right so it never overflows.
          const narrowHidden = unit === "day" ? fromEnd % (every * 2) !== 0 : fromEnd % 2 !== 0;
          return (
            <span key={p.period} className={cn("relative h-4 min-w-0 flex-1", narrowHidden && "max-sm:invisible")}>
              <span
                className={cn("absolute whitespace-nowrap", fromEnd === 0 ? "right-0" : "left-1/2 -translate-x-1/2")}
              >
                {label(p.period, unit)}
              </span>
            </span>
          );
        })}
      </div>
      {total === 0 && (
        <figcaption className="text-center text-sm text-muted-foreground">No sales in this period yet.</figcaption>
      )}
    </figure>
  );
}
