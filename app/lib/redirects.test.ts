import { describe, expect, it } from "vitest";
import { homeFor, safeRedirect, signedOutDestination } from "./redirects";

describe("redirects", () => {
  it("sends each role to its own area", () => {
    expect(homeFor("creator")).toBe("/creator");
    expect(homeFor("business")).toBe("/business");
    expect(homeFor("student")).toBe("/student");
    expect(homeFor("admin")).toBe("/dashboard/overview");
    expect(homeFor(undefined)).toBe("/student");
  });
  it("keeps redirects on this site", () => {
    expect(safeRedirect("/creator/upload?x=1", "/")).toBe("/creator/upload?x=1");
    for (const bad of ["//evil.com", "https://evil.com", "javascript:alert(1)", "/\\evil.com", null, ""]) {
      expect(safeRedirect(bad, "/student")).toBe("/student");
    }
  });
  it("signs each role out to its own sign-in", () => {
    expect(signedOutDestination("business")).toBe("/auth?role=business");
    expect(signedOutDestination("creator")).toBe("/auth?role=creator");
    expect(signedOutDestination("student")).toBe("/auth?role=student");
    expect(signedOutDestination("admin")).toBe("/dashboard");
  });
});
