import { describe, expect, it } from "vitest";
import { testsPaths } from "./area-paths";

describe("testsPaths", () => {
  it("keeps an owner in the business area and a creator in the studio", () => {
    expect(testsPaths("/business/tests/new").bank).toBe("/business/tests/questions");
    expect(testsPaths("/creator/tests").test("abc")).toBe("/creator/tests/abc");
    expect(testsPaths("/creator/tests/questions").question("q1")).toBe("/creator/tests/questions/q1");
  });
});
