/** An interval in an online class: from a join to the last beat (or the leave). */
export interface Interval {
  from: number;
  to: number;
}

/**
 * Whole minutes in the class: the union of the intervals (rejoins and overlaps counted once),
 * clipped to the session's start and end.
 */
export function minutesIn(intervals: readonly Interval[], start: number, end: number): number {
  const clipped = intervals
    .map((i) => ({ from: Math.max(i.from, start), to: Math.min(i.to, end) }))
    .filter((i) => i.to > i.from)
    .sort((a, b) => a.from - b.from);
  let total = 0;
  let reach = -Infinity;
  for (const i of clipped) {
    if (i.to <= reach) continue;
    total += i.to - Math.max(i.from, reach);
    reach = i.to;
  }
  return Math.floor(total / 60_000);
}

/**
 * An online class's mark from its minutes: present with enough minutes (the institute's minimum,
 * or the whole session when it is shorter), late when the first join came after the late
 * threshold, else absent.
 */
export function onlineStatus(input: {
  minutes: number;
  minimumMinutes: number;
  sessionMinutes: number;
  firstJoin: number;
  lateAfter: number;
}): "present" | "late" | "absent" {
  if (input.minutes < Math.min(input.minimumMinutes, input.sessionMinutes)) return "absent";
  return input.firstJoin > input.lateAfter ? "late" : "present";
}
