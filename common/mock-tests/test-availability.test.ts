import { describe, expect, it } from "vitest";
import { resultsReleased, testAvailability, type StudentTestOutline } from "./test-availability.ts";

const now = new Date("2026-03-01T10:00:00Z");
const at = (minutes: number) => new Date(now.getTime() + minutes * 60_000).toISOString();

const test = (extra: Partial<StudentTestOutline> = {}): StudentTestOutline => ({
  price: 0,
  entitled: true,
  opensAt: null,
  closesAt: null,
  attemptsAllowed: 1,
  resultRelease: "immediate",
  resultsPublishedAt: null,
  attempts: [],
  ...extra,
});
const sitting = (number: number, deadline: string, submittedAt: string | null = null) => ({
  _id: `a${number}`,
  number,
  deadline,
  submittedAt,
  score: submittedAt ? 12 : null,
});

describe("what a student can do with a test", () => {
  it("resumes a sitting under way before anything else, even on a test that has since closed", () => {
    expect(testAvailability(test({ closesAt: at(-1), attempts: [sitting(1, at(30))] }), now)).toEqual({
      kind: "resume",
      attemptId: "a1",
    });
  });

  it("offers to buy a paid test not bought, and to start a bought one", () => {
    expect(testAvailability(test({ price: 199, entitled: false }), now)).toEqual({ kind: "buy" });
    expect(testAvailability(test({ price: 199, entitled: true }), now)).toEqual({ kind: "start", again: false });
  });

  it("never sells a test whose window has closed", () => {
    expect(testAvailability(test({ price: 199, entitled: false, closesAt: at(-1) }), now)).toEqual({ kind: "closed" });
    expect(testAvailability(test({ price: 199, entitled: false, opensAt: at(60) }), now)).toEqual({ kind: "buy" });
  });

  it("waits for the window to open, and stops when it has closed", () => {
    expect(testAvailability(test({ opensAt: at(60) }), now)).toEqual({ kind: "not-open", opensAt: at(60) });
    expect(testAvailability(test({ closesAt: at(0) }), now)).toEqual({ kind: "closed" });
  });

  it("counts the attempts used, a sitting past its deadline among them", () => {
    expect(testAvailability(test({ attempts: [sitting(1, at(-5))] }), now)).toEqual({ kind: "used-up" });
    expect(testAvailability(test({ attemptsAllowed: 2, attempts: [sitting(1, at(-5), at(-6))] }), now)).toEqual({
      kind: "start",
      again: true,
    });
  });
});

describe("whether results are out", () => {
  it("follows the test's release: at once, when published, after the window", () => {
    expect(resultsReleased(test(), now)).toBe(true);
    expect(resultsReleased(test({ resultRelease: "manual" }), now)).toBe(false);
    expect(resultsReleased(test({ resultRelease: "manual", resultsPublishedAt: at(-1) }), now)).toBe(true);
    expect(resultsReleased(test({ resultRelease: "after-window", closesAt: at(10) }), now)).toBe(false);
    expect(resultsReleased(test({ resultRelease: "after-window", closesAt: at(-10) }), now)).toBe(true);
  });
});
