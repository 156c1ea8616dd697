import { describe, expect, it } from "vitest";
import { isTenantPath } from "./tenant-paths.ts";

describe("isTenantPath", () => {
  it("allows the institute's own pages", () => {
    for (const path of [
      "/",
      "/auth",
      "/catalog",
      "/student",
      "/student/live",
      "/business/templates",
      "/my-courses/",
      "/forgot-password",
      "/reset-password",
      "/login-code",
      "/confirm-email",
      "/account/phone",
      "/account/billing",
      "/account/language",
    ]) {
      expect(isTenantPath(path), path).toBe(true);
    }
  });
  it("keeps platform pages off institute domains", () => {
    for (const path of [
      "/pricing",
      "/invest",
      "/dashboard/overview",
      "/creator",
      "/studentx",
      "/about",
      "/account/other",
    ]) {
      expect(isTenantPath(path), path).toBe(false);
    }
  });
});
