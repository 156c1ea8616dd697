import { describe, expect, it } from "vitest";
import { createTestBody, draftFor, draftFromTest, patternCount, perChapterRules, sectionTotal } from "./builder";

describe("the test builder's draft", () => {
  it("prefills JEE Main 2025's six sections with 20 single-correct and 5 numerical questions each pair", () => {
    const draft = draftFor("jee-main-2025");
    expect(draft.sections.map((s) => s.name)).toEqual([
      "Physics Section A",
      "Physics Section B",
      "Chemistry Section A",
      "Chemistry Section B",
      "Mathematics Section A",
      "Mathematics Section B",
    ]);
    expect(draft.sections.map(patternCount)).toEqual([20, 5, 20, 5, 20, 5]);
    expect(draft.durationMinutes).toBe(180);
  });

  it("makes one rule per chapter and difficulty", () => {
    const rules = perChapterRules(
      [
        { subject: "Physics", chapter: "Optics" },
        { subject: "Physics", chapter: "Waves" },
      ],
      ["easy", "hard"],
      2,
    );
    expect(rules).toHaveLength(4);
    expect(rules[1]).toEqual({ subject: "Physics", chapter: "Optics", difficulty: "hard", type: "", count: 2 });
  });

  it("writes the API's body: a free test has price 0, anytime has no window, empty tags are left out", () => {
    const draft = draftFor("custom");
    draft.title = "Weekly";
    draft.paid = false;
    draft.price = 99;
    draft.opensAt = "2026-12-01T09:00";
    draft.sections[0].picked = [{ _id: "q1", text: "x", type: "single" }];
    draft.sections[0].rules = perChapterRules([{ subject: null, chapter: "Optics" }], [], 3);
    draft.tieBreaks = ["less-time", "fewer-wrong"];
    const body = createTestBody(draft);
    expect(body).toMatchObject({ title: "Weekly", price: 0, opensAt: null, closesAt: null, businessId: null });
    // Tie-breaks go in the order the builder lists them, whatever order they were ticked in.
    expect(body.tieBreaks).toEqual(["fewer-wrong", "less-time"]);
    expect(body.sections[0].questions).toEqual(["q1"]);
    expect(body.sections[0].draw).toEqual([{ chapter: "Optics", count: 3 }]);
    expect(sectionTotal(draft.sections[0])).toBe(4);
  });

  it("reads the window in India time both ways", () => {
    const draft = draftFor("custom");
    draft.scheduled = true;
    draft.opensAt = "2026-12-01T09:00";
    draft.closesAt = "2026-12-01T12:30";
    expect(createTestBody(draft)).toMatchObject({
      opensAt: "2026-12-01T03:30:00.000Z",
      closesAt: "2026-12-01T07:00:00.000Z",
    });
  });

  it("turns a saved draft back into the builder's draft, which writes the same body again", () => {
    const jee = draftFor("jee-main-2025");
    const saved = {
      title: "Full mock 1",
      pattern: "jee-main-2025",
      businessId: "b1",
      price: 149,
      durationMinutes: 180,
      opensAt: "2026-12-01T03:30:00.000Z",
      closesAt: "2026-12-01T06:30:00.000Z",
      attemptsAllowed: 2,
      resultRelease: "after-window" as const,
      practice: false,
      sections: jee.sections.map((s) => ({ name: s.name, marking: s.marking })),
    };
    const { draft, lost } = draftFromTest(saved, [
      { section: 0, sourceId: "q1", text: "One", type: "single" },
      { section: 1, sourceId: "q2", text: "Two", type: "numerical" },
      { section: 1, sourceId: null, text: "Orphan", type: "numerical" },
    ]);
    expect(lost).toBe(1);
    expect(draft).toMatchObject({
      paid: true,
      scheduled: true,
      opensAt: "2026-12-01T09:00",
      closesAt: "2026-12-01T12:00",
    });
    expect(draft.sections.map(patternCount)).toEqual([20, 5, 20, 5, 20, 5]);
    expect(draft.sections[1].picked).toEqual([{ _id: "q2", text: "Two", type: "numerical" }]);
    expect(createTestBody(draft)).toMatchObject({
      title: "Full mock 1",
      businessId: "b1",
      price: 149,
      opensAt: saved.opensAt,
      closesAt: saved.closesAt,
      attemptsAllowed: 2,
      resultRelease: "after-window",
    });
    expect(createTestBody(draft).sections[0].questions).toEqual(["q1"]);
  });
});
