import { describe, expect, it } from "vitest";
import { formatBytes, formatPrice, formatRupees, thePlan } from "./format";

describe("formats", () => {
  it("shows rupees the Indian way and 0 as Free", () => {
    expect(formatRupees(149900)).toBe("₹1,49,900");
    expect(formatRupees(499.5)).toBe("₹499.50");
    expect(formatPrice(0)).toBe("Free");
    expect(formatPrice(199)).toBe("₹199");
  });
  it("shows sizes in binary units", () => {
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(100 * 1024 * 1024)).toBe("100 MB");
    expect(formatBytes(12.34 * 1024 * 1024)).toBe("12.3 MB");
    expect(formatBytes(4 * 1024 ** 3)).toBe("4 GB");
  });
});

describe("a plan's name in a sentence", () => {
  it("says 'plan' once", () => {
    expect(thePlan("3 Year Plan")).toBe("the 3 Year Plan");
    expect(thePlan("Starter plan ")).toBe("the Starter plan");
    expect(thePlan("Professional")).toBe("the Professional plan");
    expect(thePlan("Planner")).toBe("the Planner plan");
  });
});
