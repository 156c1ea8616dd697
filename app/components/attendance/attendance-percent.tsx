/** A share of sessions attended, or a dash when no session counts yet. */
export function AttendancePercent({ percent }: { percent: number | null }) {
  if (percent === null) return <span className="text-muted-foreground">—</span>;
  return <span className="tabular-nums">{percent}%</span>;
}
