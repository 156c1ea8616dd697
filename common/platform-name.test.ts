import { describe, expect, it } from "vitest";
import { nameSkeleton, readsAsPlatformName } from "./platform-name.ts";

describe("an institute's name that reads as the platform's", () => {
  it("is the platform's name, however written, alone or with words anyone uses for themselves", () => {
    for (const name of [
      "Pathshala",
      "PATHSHALA",
      "Pathshala Support",
      "Pathshala Security Team",
      "Team Pathshala",
      "The Official Pathshala Help Desk",
      "Pathshala.in",
      "pathshala-support",
      "PathshalaSupport",
      "P a t h s h a l a",
      "Pаthshala", // Cyrillic а
      "PathshaIa", // capital I for l
      "Path$hala Acc0unts",
      "Paathshaala Admin",
      "Ｐａｔｈｓｈａｌａ", // full-width
      "Páthshalà Billing",
      "Pathshala — No-Reply",
      "पाठशाला टीम",
    ])
      expect(readsAsPlatformName(name), name).toBe(true);
  });

  it("is not an institute's own name that has the word in it, nor any other name", () => {
    for (const name of [
      "Gyan Pathshala",
      "Pathshala Academy",
      "Sunrise Academy",
      "Vidya JEE & NEET Classes",
      "Support Classes",
      "Pathshalam Institute",
      "Sunrise Pathshala Team",
    ])
      expect(readsAsPlatformName(name), name).toBe(false);
  });

  it("is compared as a reader tells letters apart", () => {
    expect(nameSkeleton("Ｐáth-Shala 1|!")).toBe("pathshalalll");
    expect(nameSkeleton("Official")).toBe(nameSkeleton("0ffIcIal"));
  });
});
