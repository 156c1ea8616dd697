import { describe, expect, it } from "vitest";
import { creatorPaths } from "./creator-paths";

describe("creatorPaths", () => {
  it("keeps the creator in the route family they use", () => {
    expect(creatorPaths("/creator/upload").content("abc")).toBe("/creator/contents/abc");
    expect(creatorPaths("/creator").contents).toBe("/creator/contents");
    expect(creatorPaths("/dashboard/creator/upload").content("abc")).toBe("/dashboard/creator/content/abc");
    expect(creatorPaths("/dashboard/creator/sales").upload).toBe("/dashboard/creator/upload");
  });
});
