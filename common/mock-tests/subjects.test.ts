import { describe, expect, it } from "vitest";
import { paperSubjects, sectionSubject, subjectTotals, type PaperLayoutSection } from "./subjects.ts";
import type { StoredResult } from "./score.ts";

const section = (name: string, subject: string | null, ids: [string, string | null][]): PaperLayoutSection => ({
  name,
  subject,
  questions: ids.map(([id, tag]) => ({ id, subject: tag, maxMarks: 4 })),
});

describe("a paper's subjects", () => {
  it("takes a section's subject from the section, else from its pattern by name", () => {
    expect(sectionSubject({ name: "Anything", subject: "Zoology" }, "custom")).toBe("Zoology");
    expect(sectionSubject({ name: "Mathematics Section B" }, "jee-main-2025")).toBe("Mathematics");
    expect(sectionSubject({ name: "Botany" }, "neet-2025")).toBe("Botany");
    expect(sectionSubject({ name: "Section 1" }, "custom")).toBeNull();
  });

  it("keeps a section's own totals (attempt any N of M) and splits a mixed section by question", () => {
    const layout = [
      section("Physics Section A", "Physics", [
        ["p1", "Physics"],
        ["p2", "Physics"],
      ]),
      section("Mixed", null, [
        ["c1", "Chemistry"],
        ["m1", null],
      ]),
    ];
    const result: Pick<StoredResult, "sections" | "questions"> = {
      sections: [
        // "Attempt any 1 of 2": the section's maximum is 4, not 8.
        {
          name: "Physics Section A",
          score: 4,
          maxScore: 4,
          correct: 1,
          partial: 0,
          incorrect: 0,
          unattempted: 1,
          negative: 0,
        },
        { name: "Mixed", score: 3, maxScore: 8, correct: 1, partial: 0, incorrect: 1, unattempted: 0, negative: 1 },
      ],
      questions: [
        { id: "p1", marks: 4, outcome: "correct", seconds: 30 },
        { id: "p2", marks: 0, outcome: "not-evaluated", seconds: 5 },
        { id: "c1", marks: -1, outcome: "incorrect", seconds: 20 },
        { id: "m1", marks: 4, outcome: "correct", seconds: 40 },
      ],
    };
    expect(paperSubjects(layout)).toEqual(["Physics", "Chemistry", "Mixed"]);
    expect(subjectTotals(layout, result)).toEqual([
      {
        name: "Physics",
        score: 4,
        maxScore: 4,
        correct: 1,
        partial: 0,
        incorrect: 0,
        unattempted: 1,
        negative: 0,
        seconds: 35,
        sections: ["Physics Section A"],
      },
      {
        name: "Chemistry",
        score: -1,
        maxScore: 4,
        correct: 0,
        partial: 0,
        incorrect: 1,
        unattempted: 0,
        negative: 1,
        seconds: 20,
        sections: ["Mixed"],
      },
      // A question with no subject anywhere counts under its section's name.
      {
        name: "Mixed",
        score: 4,
        maxScore: 4,
        correct: 1,
        partial: 0,
        incorrect: 0,
        unattempted: 0,
        negative: 0,
        seconds: 40,
        sections: ["Mixed"],
      },
    ]);
  });
});
