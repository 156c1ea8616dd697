import * as v from "valibot";
import { isUuid } from "./ids.ts";
import { FEE_PLAN_NOT_FOUND } from "./fees.ts";

/**
 * Scholarships from the institute's own admission-cum-scholarship test (issue 42 §2): rank slabs
 * (rank from–to → percent) applied to the accounts under a plan of the students who sat a mock
 * test, as a scholarship discount in the fixed stacking order, each with its reason and approver.
 */

export const SCHOLARSHIP_TEST_NOT_FOUND = "Mock test not found";
export const SCHOLARSHIP_SLABS_OVERLAP = "Rank slabs must not overlap";
export const SCHOLARSHIP_NOT_RANKED = "This test has no ranks yet: scholarships follow its rank list.";
export const SCHOLARSHIP_SKIPPED = {
  already: "already has a scholarship on this plan",
  noSlab: "rank in no slab",
  nothingOpen: "nothing left to take off: the fee is paid or already fully discounted",
  refunded: "left the institute: a refund of this account was confirmed",
} as const;
export const scholarshipReason = (rank: number, test: string) => `Rank ${rank} in ${test}`;

const id = (message: string) => v.pipe(v.string(message), v.check(isUuid, message));
const rankNumber = (label: string) =>
  v.pipe(
    v.number(`${label} must be a rank`),
    v.integer(`${label} must be a whole number`),
    v.minValue(1, `${label} must be at least 1`),
    v.maxValue(1_000_000, `${label} must be at most 1000000`),
  );

export const ScholarshipSlab = v.pipe(
  v.object({
    from: rankNumber("A slab's first rank"),
    to: rankNumber("A slab's last rank"),
    percent: v.pipe(
      v.number("A slab's percent must be a number"),
      v.minValue(0.01, "A slab's percent must be more than 0"),
      v.maxValue(100, "A scholarship cannot be more than 100 %"),
    ),
  }),
  v.check((s) => s.from <= s.to, "A slab's last rank must not be before its first"),
);

/** `POST /api/fees/scholarships`. */
export const ScholarshipInput = v.pipe(
  v.object({
    centerId: v.optional(id("Institute not found")),
    testId: id(SCHOLARSHIP_TEST_NOT_FOUND),
    feePlanId: id(FEE_PLAN_NOT_FOUND),
    slabs: v.pipe(
      v.array(ScholarshipSlab, "Slabs must be a list"),
      v.minLength(1, "Add at least one rank slab"),
      v.maxLength(20, "At most 20 rank slabs"),
    ),
  }),
  v.forward(
    v.check((body) => {
      const sorted = [...body.slabs].sort((a, b) => a.from - b.from);
      return sorted.every((s, i) => i === 0 || sorted[i - 1].to < s.from);
    }, SCHOLARSHIP_SLABS_OVERLAP),
    ["slabs"],
  ),
);

export interface ScholarshipAwardJson {
  accountId: string;
  student: { _id: string; name: string };
  rank: number;
  percent: number | null;
  /** Rupees taken off now (0 when skipped). */
  amount: number;
  skipped: string | null;
}

export interface RankedTestJson {
  _id: string;
  title: string;
  takers: number;
}
