import { describe, expect, it } from "vitest";
import { secondsPerQuestion } from "./timing.ts";

const at = (seconds: number) => new Date(Date.UTC(2026, 10, 26, 9, 0, seconds));
const visit = (questionId: string, seconds: number) => ({ type: "visited", questionId, at: at(seconds) });

describe("secondsPerQuestion", () => {
  it("gives each question the time until the next question is shown, and the last until the end", () => {
    const times = secondsPerQuestion([visit("q1", 0), visit("q2", 40), visit("q1", 100)], at(130));
    expect(Object.fromEntries(times)).toEqual({ q1: 70, q2: 60 });
  });

  it("counts nothing before the first question is shown", () => {
    const times = secondsPerQuestion([{ type: "opened", questionId: null, at: at(0) }, visit("q1", 30)], at(50));
    expect(Object.fromEntries(times)).toEqual({ q1: 20 });
  });

  it("counts the time before a resume on the question that was on screen, at most the pause limit", () => {
    const events = [visit("q1", 0), { type: "resumed", questionId: null, at: at(300) }, visit("q2", 310)];
    expect(Object.fromEntries(secondsPerQuestion(events, at(320)))).toEqual({ q1: 310, q2: 10 });
    expect(Object.fromEntries(secondsPerQuestion(events, at(320), 100_000))).toEqual({ q1: 110, q2: 10 });
  });

  it("caps a long silence at the pause limit", () => {
    const times = secondsPerQuestion([visit("q1", 0)], at(3600), 600_000);
    expect(times.get("q1")).toBe(600);
  });
});
