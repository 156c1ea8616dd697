import * as v from "valibot";
import { storable } from "./storable.ts";
import { isUuid } from "./ids.ts";
import { rupees } from "./fees.ts";
import { formatRupees } from "../format.ts";
import { FEE_SETTING_DEFAULTS } from "../fees.ts";

/**
 * An institute's fee settings (issue 42 §1, §4, §5): when reminders go, when an overdue student is
 * a defaulter and what they lose by the institute's own written policy, the bounce fee, and
 * whether online payments may be part payments. Amounts in rupees.
 */

export interface FeeSettingsJson {
  centerId: string;
  remindDaysBefore: number;
  remindOnDay: boolean;
  remindDaysAfter: number;
  defaulterAfterDays: number;
  defaulterPolicy: string | null;
  bounceFee: number;
  allowPartialOnline: boolean;
  /** The policy enforced: a defaulter is held from batch content added after they became one (never a test). */
  defaulterHoldsNewContent: boolean;
  /** Null while the institute keeps the defaults. */
  updatedAt: string | null;
}

/** What an institute that has saved nothing gets (the spec's common defaults; the rules in common/fees.ts). */
export const FEE_SETTINGS_DEFAULTS = {
  ...FEE_SETTING_DEFAULTS,
  defaulterPolicy: null,
  bounceFee: 0,
  allowPartialOnline: false,
  defaulterHoldsNewContent: false,
} as const satisfies Omit<FeeSettingsJson, "centerId" | "updatedAt">;

export const FEE_SETTINGS_LIMITS = {
  remindDaysBefore: [0, 30],
  remindDaysAfter: [0, 60],
  defaulterAfterDays: [1, 365],
  policy: 1000,
  bounceFee: 10_000,
} as const;

export const FEE_SETTINGS_SAVED = "Fee settings saved.";
/** What a student sees on batch content withheld while their fees are overdue, when no policy is written. */
export const FEES_OVERDUE_HOLD = "Locked while your fees are overdue: pay what is overdue to open it.";
export const HOLD_NEEDS_POLICY =
  "Write what a defaulter loses (shown to students) before holding back new lectures and content.";
/** The heading the student's Fees page shows the institute's defaulter policy under. */
export const DEFAULTER_POLICY_HEADING = "If fees are overdue";

const days = (what: string, [min, max]: readonly [number, number]) =>
  v.pipe(
    v.number(`${what} must be a number of days`),
    v.integer(`${what} must be a whole number of days`),
    v.minValue(min, `${what} must be between ${min} and ${max}`),
    v.maxValue(max, `${what} must be between ${min} and ${max}`),
  );

/** `PUT /api/fee-settings`: every setting (the form shows them all), the policy may be left empty. */
export const FeeSettingsInput = v.pipe(
  v.object({
    centerId: v.optional(v.pipe(v.string("Institute not found"), v.check(isUuid, "Institute not found"))),
    remindDaysBefore: days("Days before the last date to remind", FEE_SETTINGS_LIMITS.remindDaysBefore),
    remindOnDay: v.boolean("Remind on the last date must be true or false"),
    remindDaysAfter: days("Days after the last date to remind", FEE_SETTINGS_LIMITS.remindDaysAfter),
    defaulterAfterDays: days("Days overdue before a student is a defaulter", FEE_SETTINGS_LIMITS.defaulterAfterDays),
    defaulterPolicy: v.optional(
      v.nullable(
        v.pipe(
          v.string("The defaulter policy must be text"),
          storable("The defaulter policy"),
          v.trim(),
          v.maxLength(
            FEE_SETTINGS_LIMITS.policy,
            `The defaulter policy is too long (${FEE_SETTINGS_LIMITS.policy} characters at most)`,
          ),
        ),
      ),
    ),
    bounceFee: v.pipe(
      rupees("The bounce fee", 0),
      v.maxValue(
        FEE_SETTINGS_LIMITS.bounceFee * 100,
        `The bounce fee must be at most ${formatRupees(FEE_SETTINGS_LIMITS.bounceFee)}`,
      ),
    ),
    allowPartialOnline: v.boolean("Allow part payments online must be true or false"),
    /** Off unless given: the written policy enforced on batch content (issue 42 §5). */
    defaulterHoldsNewContent: v.optional(v.boolean("Hold back new content must be true or false"), false),
  }),
  v.forward(
    v.check((s) => !s.defaulterHoldsNewContent || Boolean(s.defaulterPolicy), HOLD_NEEDS_POLICY),
    ["defaulterPolicy"],
  ),
);
export type FeeSettingsInput = v.InferOutput<typeof FeeSettingsInput>;

export const FeeSettingsQuery = v.object({
  centerId: v.optional(v.pipe(v.string("Institute not found"), v.check(isUuid, "Institute not found"))),
});
