import { stringify } from "csv-stringify/sync";

export interface RankListRow {
  rank: number | null;
  name: string;
  email: string;
  score: number;
  percentile: number | null;
  submittedAt: string;
  submittedBy: string | null;
}

// A cell starting with = + - @ would run as a formula in a spreadsheet program.
const safe = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

/** A test's rank list as CSV for Excel (BOM, CRLF), names and e-mails formula-safe. */
export function rankListCsv(rows: RankListRow[]): string {
  return (
    "\ufeff" +
    stringify(
      [
        ["Rank", "Name", "E-mail", "Score", "Percentile", "Submitted at", "Submitted by"],
        ...rows.map((r) => [
          r.rank ?? "",
          safe(r.name),
          safe(r.email),
          r.score.toFixed(2),
          r.percentile === null ? "" : r.percentile.toFixed(7),
          r.submittedAt,
          r.submittedBy === "clock" ? "time up" : "student",
        ]),
      ],
      { record_delimiter: "\r\n" },
    )
  );
}
