import { describe, expect, it } from "vitest";
import { formatTime } from "./time.ts";

describe("formatTime", () => {
  it("shows India time whatever zone the process runs in", () => {
    // 13:00 UTC is 6:30 pm in India; the test's process zone is not consulted.
    const at = "2026-11-29T13:00:00.000Z";
    expect(formatTime(at)).toBe("29 Nov 2026, 6:30 pm");
    expect(formatTime(at, "dayTime")).toBe("29 Nov, 6:30 pm");
    expect(formatTime(at, "weekdayTime")).toBe("Sun, 29 Nov, 6:30 pm");
    expect(formatTime(at, "time")).toBe("6:30 pm");
    // Just before midnight UTC is the next morning in India.
    expect(formatTime("2026-11-29T23:45:00.000Z")).toBe("30 Nov 2026, 5:15 am");
  });

  it("uses plain spaces only, so server and browser ICU versions give the same text", () => {
    expect(formatTime(new Date(0))).not.toMatch(/[\u202f\u00a0]/);
  });
});
