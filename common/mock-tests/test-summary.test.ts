import { describe, expect, it } from "vitest";
import { JEE_ADVANCED_MULTIPLE, NTA_MARKING } from "./marking.ts";
import { paperTotals } from "./paper-summary.ts";
import { testSummary, type TestOutline } from "./test-summary.ts";

const outline = (sections: TestOutline["sections"], extra: Partial<TestOutline> = {}): TestOutline => ({
  title: "Mock 1",
  mode: "cbt",
  practice: false,
  durationMinutes: 180,
  questionCount: sections.reduce((sum, s) => sum + s.questions, 0),
  maxScore: 0,
  sections,
  hasHindi: false,
  ...extra,
});

describe("a test's summary for the instructions, from its record", () => {
  it("writes out each section's questions by type and takes the totals from the record", () => {
    const summary = testSummary(
      outline(
        [
          { name: "Physics Section A", marking: { single: NTA_MARKING }, questions: 3, counts: { single: 3 } },
          { name: "Physics Section B", marking: { numerical: NTA_MARKING }, questions: 2, counts: { numerical: 2 } },
        ],
        { maxScore: 20 },
      ),
    );
    expect(summary.sections.map((s) => s.counts)).toEqual([{ single: 3 }, { numerical: 2 }]);
    expect(summary.mode).toBe("cbt");
    expect(paperTotals(summary)).toEqual({ questions: 5, marks: 20 });
  });

  it("gives a mixed section's split as the record states it", () => {
    const marking = { single: NTA_MARKING, multiple: JEE_ADVANCED_MULTIPLE };
    const [known] = testSummary(
      outline([{ name: "Chapter test", marking, questions: 10, counts: { single: 7, multiple: 3 } }]),
    ).sections;
    expect(known.counts).toEqual({ single: 7, multiple: 3 });
  });

  it("shows a practice test as practice, and offers Hindi only when the paper has it", () => {
    expect(testSummary(outline([], { practice: true })).mode).toBe("practice");
    expect(testSummary(outline([], { hasHindi: true })).hasHindi).toBe(true);
    expect(testSummary(outline([])).hasHindi).toBe(false);
  });
});
