import { describe, expect, it } from "vitest";
import { JEE_ADVANCED_MULTIPLE, NTA_MARKING } from "./marking.ts";
import { describeMarking, formatMarks } from "./marking-text.ts";

describe("marking in words", () => {
  it("writes marks with their sign and a real minus", () => {
    expect([4, -1, 0, 0.5, -0.25].map(formatMarks)).toEqual(["+4", "−1", "0", "+0.5", "−0.25"]);
  });

  it("writes out the NTA marking for single-correct and numerical questions", () => {
    expect(describeMarking("single", NTA_MARKING)).toBe(
      "+4 for the correct option, −1 for an incorrect answer, 0 if not answered.",
    );
    expect(describeMarking("numerical", { correct: 3, incorrect: 0, unanswered: 0 })).toBe(
      "+3 for the correct value, 0 for an incorrect answer, 0 if not answered.",
    );
  });

  it("writes out JEE Advanced's partial marks", () => {
    expect(describeMarking("multiple", JEE_ADVANCED_MULTIPLE)).toBe(
      "+4 if all the correct options and no wrong option are chosen; +1 for each correct option chosen when only some of the correct options and no wrong option are chosen; −2 if any wrong option is chosen; 0 if not answered.",
    );
    expect(describeMarking("multiple", { correct: 4, incorrect: -1, unanswered: 0 })).not.toContain("for each");
  });
});
