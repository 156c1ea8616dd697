import type { TieBreak } from "#common/mock-tests/policies.ts";

/**
 * Rank and percentile among a test's takers (mock-tests.md §4). Rank is competition ranking
 * (1, 2, 2, 4): one more than the number of takers placed strictly ahead. The percentile is NTA's:
 * 100 × (takers with a score ≤ yours) ÷ takers, on the score alone, to seven decimals.
 */

export interface Taker {
  id: string;
  score: number;
  /** Marks lost to negative marking (positive), for the "fewer-negative" tie-break. */
  negative?: number;
  correct?: number;
  /** Wrong answers, for the "fewer-wrong" tie-break. */
  incorrect?: number;
  /** Seconds from the start to the submission (server times), for the "less-time" tie-break. */
  seconds?: number;
  /** Marks by subject, for the subject-order tie-break. */
  subjects?: Record<string, number>;
  /** When the attempt was submitted (ms since the epoch), for the "earlier-submission" tie-break. */
  submittedAt?: number;
}

export interface Standing {
  rank: number;
  percentile: number;
  takers: number;
}

/**
 * A tie-break as ranking applies it: "subject-order" becomes the paper's own subject order, which
 * only the caller knows.
 */
export type ResolvedTieBreak = Exclude<TieBreak, "subject-order">;

export function resolveTieBreaks(tieBreaks: readonly TieBreak[], paperSubjects: readonly string[]): ResolvedTieBreak[] {
  return tieBreaks.map((t) => (t === "subject-order" ? { subjectOrder: [...paperSubjects] } : t));
}

const hundredths = (marks: number) => Math.round(marks * 100);

function difference(a: Taker, b: Taker, tieBreak: ResolvedTieBreak): number {
  if (typeof tieBreak === "object") {
    for (const subject of tieBreak.subjectOrder) {
      const bySubject = hundredths(b.subjects?.[subject] ?? 0) - hundredths(a.subjects?.[subject] ?? 0);
      if (bySubject !== 0) return bySubject;
    }
    return 0;
  }
  switch (tieBreak) {
    case "fewer-negative":
      return hundredths(a.negative ?? 0) - hundredths(b.negative ?? 0);
    case "more-correct":
      return (b.correct ?? 0) - (a.correct ?? 0);
    case "fewer-wrong":
      return (a.incorrect ?? 0) - (b.incorrect ?? 0);
    case "less-time":
      return (a.seconds ?? Infinity) - (b.seconds ?? Infinity) || 0;
    case "earlier-submission":
      return (a.submittedAt ?? Infinity) - (b.submittedAt ?? Infinity) || 0;
  }
}

/** Negative when `a` is placed ahead of `b`, 0 when they tie. */
function compare(a: Taker, b: Taker, tieBreaks: readonly ResolvedTieBreak[]): number {
  const byScore = hundredths(b.score) - hundredths(a.score);
  if (byScore !== 0) return byScore;
  for (const tieBreak of tieBreaks) {
    const d = difference(a, b, tieBreak);
    if (d !== 0) return d;
  }
  return 0;
}

/** Every taker's rank and percentile, by id. O(n log n). */
export function standings(
  takers: readonly Taker[],
  tieBreaks: readonly ResolvedTieBreak[] = [],
): Map<string, Standing> {
  const ordered = [...takers].sort((a, b) => compare(a, b, tieBreaks));
  const count = ordered.length;
  const result = new Map<string, Standing>();
  // Takers with a score ≤ each distinct score, read from the end of the order.
  const atOrBelow = new Map<number, number>();
  for (let i = count - 1; i >= 0; i--) {
    const score = hundredths(ordered[i].score);
    atOrBelow.set(score, count - i);
  }
  let rank = 1;
  for (let i = 0; i < count; i++) {
    if (i > 0 && compare(ordered[i - 1], ordered[i], tieBreaks) !== 0) rank = i + 1;
    const taker = ordered[i];
    const percentile = (100 * atOrBelow.get(hundredths(taker.score))!) / count;
    result.set(taker.id, { rank, percentile: Math.round(percentile * 1e7) / 1e7, takers: count });
  }
  return result;
}
