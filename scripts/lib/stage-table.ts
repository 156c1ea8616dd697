/** One stage of a test run as the closing table shows it. */
export interface StageResult {
  name: string;
  seconds: number;
  ok: boolean;
  /** Why the stage did not run, when it did not. */
  skipped?: string;
  tests?: { passed: number; failed: number; skipped: number; files?: number };
}

/**
 * The table a test run ends with: each stage's seconds, outcome and test counts, then the wall
 * time (stages overlap, so the seconds add up to more than it).
 */
export function stageTable(results: StageResult[], wallSeconds: number): string {
  const rows = results.map((r) => [
    r.name,
    r.skipped ? "-" : `${r.seconds}`,
    r.skipped ? `not run (${r.skipped})` : r.ok ? "passed" : "FAILED",
    r.tests ? `${r.tests.passed}` : "",
    r.tests ? `${r.tests.failed}` : "",
    r.tests ? `${r.tests.skipped}` : "",
    r.tests?.files !== undefined ? `${r.tests.files}` : "",
  ]);
  const header = ["stage", "seconds", "outcome", "passed", "failed", "skipped", "files"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 || i === 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  return [
    "",
    line(header),
    line(widths.map((w) => "-".repeat(w))),
    ...rows.map(line),
    `wall time ${wallSeconds}s`,
  ].join("\n");
}
