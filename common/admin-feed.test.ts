import { describe, expect, it } from "vitest";
import { badgeLabel, isUnread, newestShown } from "./admin-feed";

describe("the bell's badge (spec §9: capped at 99)", () => {
  it("shows nothing for 0, the count up to 99, then 99+", () => {
    expect(badgeLabel(0)).toBeNull();
    expect(badgeLabel(1)).toBe("1");
    expect(badgeLabel(99)).toBe("99");
    expect(badgeLabel(100)).toBe("99+");
    expect(badgeLabel(5000)).toBe("99+");
  });
});

describe("read state", () => {
  it("counts an item unread when newer than both the seen and the cleared time", () => {
    expect(isUnread("2026-11-21T10:00:00.000Z", null, null)).toBe(true);
    expect(isUnread("2026-11-21T10:00:00.000Z", "2026-11-21T10:00:00.000Z", null)).toBe(false);
    expect(isUnread("2026-11-21T10:00:00.001Z", "2026-11-21T10:00:00.000Z", null)).toBe(true);
    expect(isUnread("2026-11-21T10:00:00.001Z", "2026-11-20T00:00:00.000Z", "2026-11-22T00:00:00.000Z")).toBe(false);
  });
  it("marks read up to the newest item shown of each kind", () => {
    const p = (createdAt: string) => ({ createdAt }) as never;
    const s = (appliedAt: string) => ({ appliedAt }) as never;
    expect(
      newestShown({
        purchases: [p("2026-11-01T00:00:00.000Z"), p("2026-11-03T00:00:00.000Z")],
        selections: [],
        notices: [p("2026-11-02T00:00:00.000Z")],
      }),
    ).toEqual({
      purchasesSeenAt: "2026-11-03T00:00:00.000Z",
      selectionsSeenAt: null,
      noticesSeenAt: "2026-11-02T00:00:00.000Z",
    });
    expect(
      newestShown({ purchases: [], selections: [s("2026-11-02T00:00:00.000Z")], notices: [] }).selectionsSeenAt,
    ).toBe("2026-11-02T00:00:00.000Z");
  });
});
