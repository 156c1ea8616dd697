import type { SessionJson } from "./validation/timetables.ts";
import type { FeeAccountJson } from "./validation/fees.ts";

/**
 * The parent's area's own words (issue 41, decision 0047), beside common/family.ts's: shared by
 * its pages and their tests.
 */
export const PARENT_TEXTS = {
  noChildren: "No children are linked to your account yet. Your child's institute sends you a link on WhatsApp or SMS.",
  withdrawTitle: (child: string) => `Withdraw your consent for ${child}?`,
  withdrawDescription: (child: string, institute: string) =>
    `${institute} stops showing you ${child}'s record and stops messaging you about ${child} at once. Your answers stay on record. To follow ${child} again, ask ${institute} for a new invitation.`,
  noResults: "No tests sat yet.",
  noReleasedResult: "No result released yet.",
  notReleased: "Result not released yet",
  noNextClass: "No class in the next two weeks.",
  noFees: "No fees to show.",
} as const;

/** A consent answer in the product's words. */
export const CONSENT_ANSWER_LABELS = {
  granted: "Agreed",
  refused: "Did not agree",
  withdrawn: "Withdrew consent",
} as const;

/** What a parent's "My children" page shows of one child. */
export interface ChildCardJson {
  linkId: string;
  name: string;
  institute: string;
  /** This month: present + late over the classes counted; null when none counts yet. */
  attendance: { percent: number | null; sessions: number };
  nextClass: Pick<SessionJson, "subject" | "batchName" | "on" | "start" | "end" | "online"> | null;
  fees: FeesAtAGlance;
  /** The latest test whose result the institute has released. */
  latestResult: { title: string; score: number; rank: number | null; submittedAt: string } | null;
}

export interface FeesAtAGlance {
  /** Balance of the dues whose last date has come (today or before). */
  owedNow: number;
  /** How long the oldest due still owing has been past its last date (0: nothing overdue). */
  overdueDays: number;
  /** The first due still owing whose last date is still to come. */
  nextDue: { label: string; dueOn: string; balance: number } | null;
}

/** The student's "My parents" form: the fields a refusal names. */
export type ParentInviteFields = Partial<Record<"name" | "relation" | "phone", string>>;

/** What the "My parents" form's post answers. */
export type ParentInviteResult =
  { ok: true; message: string } | { ok: false; error: string; fields: ParentInviteFields };

export const MY_PARENTS_TEXTS = {
  title: "My parents",
  description:
    "Your parents can follow your classes, attendance, results and fees, and pay fees, once they agree to your institute's consent notice. Invite them with their mobile number: they get a link on WhatsApp and by SMS.",
  none: "No parents linked yet.",
  expired: "The link has expired: invite them again to send a new one.",
} as const;

/** What the dues of a child's accounts owe now, and the next one to come (rupees, India dates). */
export function feesAtAGlance(accounts: FeeAccountJson[], today: string): FeesAtAGlance {
  const dues = accounts.flatMap((a) => a.dues).filter((d) => d.balance > 0);
  const owedNow = dues.filter((d) => d.dueOn <= today).reduce((sum, d) => Math.round((sum + d.balance) * 100) / 100, 0);
  const next = dues.filter((d) => d.dueOn > today).sort((a, b) => a.dueOn.localeCompare(b.dueOn))[0];
  const overdueDays = Math.max(0, ...dues.map((d) => d.overdueDays));
  return {
    owedNow,
    overdueDays,
    nextDue: next ? { label: next.label, dueOn: next.dueOn, balance: next.balance } : null,
  };
}
