/**
 * What a student can do with a test on their list right now (issue 29 §6), and whether its results
 * are out. The server decides again when the sitting starts or the result is asked for; this only
 * picks the button to show.
 */

export interface StudentAttemptOutline {
  _id: string;
  number: number;
  deadline: string;
  submittedAt: string | null;
  score: number | null;
}

export interface StudentTestOutline {
  price: number;
  entitled: boolean;
  opensAt: string | null;
  closesAt: string | null;
  attemptsAllowed: number;
  resultRelease: "immediate" | "after-window" | "manual";
  resultsPublishedAt: string | null;
  attempts: StudentAttemptOutline[];
}

export type TestAvailability =
  | { kind: "resume"; attemptId: string }
  | { kind: "buy" }
  | { kind: "not-open"; opensAt: string }
  | { kind: "closed" }
  | { kind: "used-up" }
  | { kind: "start"; again: boolean };

/** A sitting under way: not submitted and before its deadline (past it, the server's clock submits it). */
/** The student's last submitted sitting of the test (its result is what "Attempted" links to). */
export function lastSubmitted(test: Pick<StudentTestOutline, "attempts">): StudentAttemptOutline | null {
  return test.attempts.findLast((a) => a.submittedAt !== null) ?? null;
}

export function attemptInProgress(test: Pick<StudentTestOutline, "attempts">, now: Date): StudentAttemptOutline | null {
  return test.attempts.find((a) => !a.submittedAt && Date.parse(a.deadline) > now.getTime()) ?? null;
}

export function testAvailability(test: StudentTestOutline, now: Date): TestAvailability {
  const open = attemptInProgress(test, now);
  if (open) return { kind: "resume", attemptId: open._id };
  // A closed test is never sold: nobody could sit it.
  if (test.closesAt && Date.parse(test.closesAt) <= now.getTime()) return { kind: "closed" };
  if (!test.entitled && test.price > 0) return { kind: "buy" };
  if (test.opensAt && Date.parse(test.opensAt) > now.getTime()) return { kind: "not-open", opensAt: test.opensAt };
  if (test.attempts.length >= test.attemptsAllowed) return { kind: "used-up" };
  return { kind: "start", again: test.attempts.length > 0 };
}

type Instant = string | Date | null;
const millis = (at: string | Date) => (typeof at === "string" ? Date.parse(at) : at.getTime());

/** Whether the test's results are out: at once, when the institute publishes them, or after the window closes. */
export function resultsReleased(
  test: { resultRelease: StudentTestOutline["resultRelease"]; resultsPublishedAt: Instant; closesAt: Instant },
  now: Date = new Date(),
): boolean {
  if (test.resultRelease === "immediate") return true;
  if (test.resultsPublishedAt) return true;
  return test.resultRelease === "after-window" && test.closesAt !== null && millis(test.closesAt) <= now.getTime();
}
