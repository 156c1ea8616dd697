import { describe, expect, it } from "vitest";
import { safeRedirect, signedOutDestination } from "./redirects";
import { homeFor } from "#common/home.ts";

describe("redirects", () => {
  it("sends each role to its own area", () => {
    expect(homeFor("creator")).toBe("/creator");
    expect(homeFor("business")).toBe("/business");
    expect(homeFor("student")).toBe("/student");
    expect(homeFor("admin")).toBe("/dashboard/overview");
    expect(homeFor(undefined)).toBe("/student");
  });
  it("keeps local paths with their query and fragment", () => {
    expect(safeRedirect("/creator/upload?x=1", "/")).toBe("/creator/upload?x=1");
    expect(safeRedirect("/catalog#content-42", "/")).toBe("/catalog#content-42");
    expect(safeRedirect("/creator/contents?q=physics%20notes", "/")).toBe("/creator/contents?q=physics%20notes");
    expect(safeRedirect("/a/../student", "/")).toBe("/student");
  });
  it("refuses anything that could leave the site, falling back to the default page", () => {
    const refused = [
      "//evil.com",
      "https://evil.com",
      "javascript:alert(1)",
      "/\\evil.com",
      "/%09/evil.test",
      "/\t/evil.test",
      "/%0a/evil.test",
      "/%0D%0A/evil.test",
      "/\r\n/evil.test",
      "/%5cevil.test",
      "/%5C%5Cevil.test",
      "/%2509/evil.test",
      "/%252F%252Fevil.test",
      "/%2F%2Fevil.test",
      "/.//evil.test",
      "/..//evil.test",
      "/%2e%2e//evil.test",
      "/%E0%A4%A",
      "/\u0000",
      "/x".padEnd(3000, "x"),
      null,
      undefined,
      "",
      "evil.com",
    ];
    for (const bad of refused) expect(safeRedirect(bad, "/student"), String(bad)).toBe("/student");
  });
  it("signs each role out to its own sign-in", () => {
    expect(signedOutDestination("business")).toBe("/auth?role=business");
    expect(signedOutDestination("creator")).toBe("/auth?role=creator");
    expect(signedOutDestination("student")).toBe("/auth?role=student");
    expect(signedOutDestination("admin")).toBe("/dashboard");
  });
});
