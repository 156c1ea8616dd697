import { describe, expect, it } from "vitest";
import { pagePath } from "./page-url";

describe("pagePath", () => {
  it("strips the data-request suffix and parameter", () => {
    expect(pagePath(new Request("http://x/business/templates.data?center=1&_routes=a,b"))).toBe(
      "/business/templates?center=1",
    );
    expect(pagePath(new Request("http://x/_root.data"))).toBe("/");
    expect(pagePath(new Request("http://x/creator/upload?x=1"))).toBe("/creator/upload?x=1");
  });
});
