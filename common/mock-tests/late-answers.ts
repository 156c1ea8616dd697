import * as v from "valibot";

/**
 * Answers made before time was up that reach the server after it (issue 38 §2, decision 0034).
 * The screen stamps each save with when it was made, in the server's clock; a save that arrives
 * after the deadline is judged by that stamp against the server's clock, within the institute's
 * grace period, and the institute's policy says whether it counts. Every late answer is recorded
 * with its decision and the reason, and the student is told each one.
 */

/** What the institute does with an answer made in time that arrives within the grace period. */
export const LATE_ANSWER_POLICIES = ["count", "review", "ignore"] as const;
export type LateAnswerPolicy = (typeof LATE_ANSWER_POLICIES)[number];

export const LATE_ANSWER_DEFAULTS = { graceMinutes: 10, policy: "count" as LateAnswerPolicy };

/** What happened to one late answer. */
export type LateDecision = "counted" | "held" | "not-counted" | "refused";

/**
 * Why. `in-time`: made before time was up and arrived within the grace period. The others refuse it:
 * `after-grace` arrived after the grace period; `made-late` was made after time was up;
 * `unstamped` carries no time it was made; `before-start`, `in-future` and `out-of-order` are times
 * that cannot be true (before the sitting began, later than it arrived, earlier than an answer made
 * before it); `policy` the institute does not count late answers; `reviewed` the institute decided.
 */
export type LateReason =
  | "in-time"
  | "after-grace"
  | "made-late"
  | "unstamped"
  | "before-start"
  | "in-future"
  | "out-of-order"
  | "policy"
  | "reviewed";

/** A late answer as the student and the institute see it. */
export interface LateAnswerJson {
  _id: string;
  questionId: string;
  /** The answer's number in the paper (1 for the first question). */
  questionNumber: number;
  decision: LateDecision;
  reason: LateReason;
  /** When the screen says it was made (server clock), if it said. */
  answeredAt: string | null;
  arrivedAt: string;
  deadline: string;
  graceMinutes: number;
}

/** What a save answers about a late answer: the decision and, in the student's words, why. */
export interface LateSaveJson {
  decision: LateDecision;
  reason: LateReason;
  message: string;
}

/** How far the screen's stamp may run ahead of the server's clock (its offset is measured, not exact). */
export const STAMP_SKEW_MS = 5_000;

/**
 * A clock submit this close to the deadline is taken: the screen counts down on its own monotonic
 * clock from the server's, which may drift by a second or so over a long sitting.
 */
export const CLOCK_SUBMIT_TOLERANCE_MS = 3_000;

const clockTime = (iso: string) =>
  new Date(iso).toLocaleTimeString("en-IN", {
    timeZone: "Asia/Kolkata",
    hour: "numeric",
    minute: "2-digit",
    second: "2-digit",
  });

/** One sentence per late answer, the same on the save's answer, the result and the submit note. */
export function lateAnswerText(
  late: Pick<LateAnswerJson, "decision" | "reason" | "answeredAt" | "arrivedAt" | "graceMinutes">,
): string {
  const made = late.answeredAt ? `Made at ${clockTime(late.answeredAt)}, ` : "";
  const arrived = `reached the server at ${clockTime(late.arrivedAt)}, after time was up`;
  const grace = `${late.graceMinutes} minute${late.graceMinutes === 1 ? "" : "s"}`;
  switch (late.reason) {
    case "in-time":
      if (late.decision === "counted") return `${made}before time was up; ${arrived}: counted.`;
      if (late.decision === "held")
        return `${made}before time was up; ${arrived}: held for the institute's review, not counted until it decides.`;
      return `${made}before time was up; ${arrived}: not counted.`;
    case "policy":
      return `${made}before time was up; ${arrived}: not counted, as this institute does not count answers that arrive after time is up.`;
    case "reviewed":
      return late.decision === "counted"
        ? `${made}before time was up; ${arrived}: counted after the institute's review.`
        : `${made}before time was up; ${arrived}: not counted, by the institute's review.`;
    case "after-grace":
      return `${made}${arrived} and after the ${grace} allowed for answers made offline: not counted.`;
    case "made-late":
      return `${made}after time was up: not counted.`;
    case "unstamped":
      return `This answer ${arrived}, without the time it was made: not counted.`;
    case "before-start":
      return `${made}which is before this sitting began: the time cannot be right, so it was not counted.`;
    case "in-future":
      return `${made}which is later than it reached the server: the time cannot be right, so it was not counted.`;
    case "out-of-order":
      return `${made}which is earlier than an answer made before it: the time cannot be right, so it was not counted.`;
  }
}

/** `PUT /api/businesses/{id}/late-answers`: the institute's grace period and what late answers do. */
export const LateAnswerSettingsSchema = v.object({
  graceMinutes: v.pipe(
    v.number("The grace period must be a number of minutes"),
    v.integer("The grace period must be whole minutes"),
    v.minValue(0, "The grace period cannot be negative"),
    v.maxValue(60, "The grace period can be at most 60 minutes"),
  ),
  policy: v.picklist(
    LATE_ANSWER_POLICIES,
    'What late answers do must be "count", "review" (held for review) or "ignore" (not counted)',
  ),
});
export type LateAnswerSettings = v.InferOutput<typeof LateAnswerSettingsSchema>;

/** `PUT /api/tests/{id}/late-answers/{lateId}`: the institute's review of an answer held for it. */
export const LateReviewSchema = v.object({
  decision: v.picklist(["count", "not-count"], 'The decision must be "count" or "not-count"'),
});

/** The note's first line: how many late answers there were and what became of them. */
export function lateAnswersSummary(list: readonly Pick<LateAnswerJson, "decision">[]): string {
  const n = (k: number) => (k === 1 ? "1 answer" : `${k} answers`);
  const counted = list.filter((l) => l.decision === "counted").length;
  const held = list.filter((l) => l.decision === "held").length;
  const not = list.length - counted - held;
  const parts = [
    counted ? `${counted} counted` : "",
    held ? `${held} held for the institute's review` : "",
    not ? `${not} not counted` : "",
  ].filter(Boolean);
  return `${n(list.length)} reached the server after time was up: ${parts.join(", ")}.`;
}

/** The institute's setting as its owner reads it (Website Details). */
export const LATE_ANSWER_SETTING_TEXTS = {
  title: "Answers made offline",
  description:
    "A student whose network drops near the end keeps answering; the answers are sent when the connection returns. Those made before time was up that arrive within the grace period are taken as you choose here. Each student is told which of theirs counted and why, and each test's results list them.",
  grace: "Grace period (minutes after the deadline)",
  policy: "Answers made in time that arrive late",
  policies: {
    count: "Count them",
    review: "Hold them for review in the test's results",
    ignore: "Do not count them",
  } satisfies Record<LateAnswerPolicy, string>,
  save: "Save",
  saved: "Saved: answers made offline follow the new setting",
} as const;
