import type { SalesRow } from "./sales.ts";
import { toCsv } from "../formats/csv.ts";

/** The per-content sales table as CSV. */
export function salesCsv(rows: SalesRow[]): string {
  return toCsv([
    ["Title", "Orders", "Earnings (INR)"],
    ...rows.map((r) => [r.title, String(r.totalSales), r.totalEarnings.toFixed(2)]),
  ]);
}
