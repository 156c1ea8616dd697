import { describe, expect, it } from "vitest";
import type { AttemptSection } from "./attempt.ts";
import { JEE_ADVANCED_MULTIPLE, NTA_MARKING } from "./marking.ts";
import { paperSummary, paperTotals } from "./paper-summary.ts";

const sections: AttemptSection[] = [
  {
    name: "Physics",
    marking: { single: NTA_MARKING, multiple: JEE_ADVANCED_MULTIPLE },
    questions: [
      { _id: "a", type: "single", text: "a", options: ["1", "2"] },
      { _id: "b", type: "multiple", text: "b", options: ["1", "2"], hindi: { text: "ब" } },
      { _id: "c", type: "single", text: "c", options: ["1", "2"] },
    ],
  },
  {
    name: "Chemistry",
    marking: { numerical: { correct: 3, incorrect: 0, unanswered: 0 } },
    questions: [{ _id: "d", type: "numerical", text: "d" }],
  },
];

describe("a paper's summary for the instructions", () => {
  it("counts each section's questions by type and sees a Hindi version", () => {
    const paper = paperSummary({ title: "T", durationMinutes: 60, mode: "cbt", alertMinutes: [5], sections });
    expect(paper.sections.map((s) => s.counts)).toEqual([{ single: 2, multiple: 1 }, { numerical: 1 }]);
    expect(paper.hasHindi).toBe(true);
    expect(paperTotals(paper)).toEqual({ questions: 4, marks: 4 + 4 + 4 + 3 });
  });
});
