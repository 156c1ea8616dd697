import { describe, expect, it } from "vitest";
import { minutesIn, onlineStatus } from "./online-minutes.ts";

const min = 60_000;

describe("minutes in an online class", () => {
  it("counts overlapping and repeated intervals once", () => {
    expect(
      minutesIn(
        [
          { from: 0, to: 20 * min },
          { from: 10 * min, to: 30 * min },
          { from: 5 * min, to: 6 * min },
        ],
        0,
        60 * min,
      ),
    ).toBe(30);
  });

  it("clips to the session and leaves the gaps out", () => {
    expect(
      minutesIn(
        [
          { from: -10 * min, to: 5 * min },
          { from: 50 * min, to: 80 * min },
        ],
        0,
        60 * min,
      ),
    ).toBe(15);
    expect(minutesIn([{ from: 70 * min, to: 80 * min }], 0, 60 * min)).toBe(0);
  });

  it("counts whole minutes only", () => {
    expect(minutesIn([{ from: 0, to: 59_999 }], 0, 60 * min)).toBe(0);
  });
});

describe("an online class's mark", () => {
  const base = { minimumMinutes: 45, sessionMinutes: 60, firstJoin: 0, lateAfter: 10 * min };
  it("is present with the minimum, absent without", () => {
    expect(onlineStatus({ ...base, minutes: 45 })).toBe("present");
    expect(onlineStatus({ ...base, minutes: 44 })).toBe("absent");
  });
  it("takes the whole session as the minimum when the session is shorter", () => {
    expect(onlineStatus({ ...base, sessionMinutes: 30, minutes: 30 })).toBe("present");
  });
  it("is late when the first join came after the threshold", () => {
    expect(onlineStatus({ ...base, firstJoin: 11 * min, minutes: 45 })).toBe("late");
    expect(onlineStatus({ ...base, firstJoin: 11 * min, minutes: 10 })).toBe("absent");
  });
});
