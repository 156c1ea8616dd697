import { describe, expect, it } from "vitest";
import { feesAtAGlance } from "./parent-area.ts";
import type { FeeAccountJson, FeeDueJson } from "./validation/fees.ts";

const due = (label: string, dueOn: string, balance: number, overdueDays = 0): FeeDueJson => ({
  _id: label,
  label,
  amount: balance,
  dueOn,
  discount: 0,
  paid: 0,
  lateFee: 0,
  waived: 0,
  balance,
  overdueDays,
});
const account = (dues: FeeDueJson[]) => ({ dues }) as FeeAccountJson;

describe("feesAtAGlance", () => {
  it("owes now what is due today or before, across accounts, and names the next due still to come", () => {
    const glance = feesAtAGlance(
      [
        account([due("Admission", "2026-11-20", 12_000.5, 9), due("Second", "2027-01-13", 6_000)]),
        account([
          due("Hostel", "2026-11-29", 2_500),
          due("Books", "2026-12-05", 800),
          due("Paid", "2026-10-01", 0, 59),
        ]),
      ],
      "2026-11-29",
    );
    expect(glance).toEqual({
      owedNow: 14_500.5,
      overdueDays: 9,
      nextDue: { label: "Books", dueOn: "2026-12-05", balance: 800 },
    });
  });

  it("owes nothing when every due is paid or still to come", () => {
    expect(feesAtAGlance([account([due("Paid", "2026-01-01", 0, 300)])], "2026-11-29")).toEqual({
      owedNow: 0,
      overdueDays: 0,
      nextDue: null,
    });
    expect(feesAtAGlance([], "2026-11-29")).toEqual({ owedNow: 0, overdueDays: 0, nextDue: null });
  });
});
