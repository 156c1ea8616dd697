import type { SalesRow } from "./sales.ts";

/** The per-content sales table as CSV (Excel-friendly: BOM, CRLF, formula-safe cells). */
export function salesCsv(rows: SalesRow[]): string {
  const lines = [
    ["Title", "Orders", "Earnings (INR)"],
    ...rows.map((r) => [r.title, String(r.totalSales), r.totalEarnings.toFixed(2)]),
  ];
  return "\ufeff" + lines.map((cells) => cells.map(csvCell).join(",")).join("\r\n") + "\r\n";
}

function csvCell(value: string): string {
  // A cell starting with = + - @ would run as a formula in a spreadsheet.
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
