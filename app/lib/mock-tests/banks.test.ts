import { describe, expect, it } from "vitest";
import { defaultBank } from "./banks";

const own = { value: "own", name: "My own questions" };
const sunrise = { value: "c1", name: "Sunrise Academy" };
const vidya = { value: "c2", name: "Vidya" };

describe("defaultBank", () => {
  it("takes the bank asked for when it is one of the person's", () => {
    expect(defaultBank([own, sunrise, vidya], "c2")).toBe("c2");
    expect(defaultBank([own, sunrise], "own")).toBe("own");
  });

  it("else the first institute's bank, else the person's own", () => {
    expect(defaultBank([own, sunrise, vidya], "someone-elses")).toBe("c1");
    expect(defaultBank([own, sunrise], null)).toBe("c1");
    expect(defaultBank([own], null)).toBe("own");
    expect(defaultBank([], null)).toBe("own");
  });
});
