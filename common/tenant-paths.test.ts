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
      "/parent",
      "/parent/children/3b0f4e0a-6a59-4d8e-9d38-0c7f8d2b1a11",
      "/account/parents",
      "/business/templates",
      "/my-courses/",
      "/forgot-password",
      "/reset-password",
      "/login-code",
      "/confirm-email",
      "/account/phone",
      "/account/billing",
      "/account/language",
      "/attend",
      "/sessions/3b0f4e0a-6a59-4d8e-9d38-0c7f8d2b1a11/join",
      "/family/abcdefghijklmnopqrstuvwxyz234567",
      "/parent",
      "/parent/fees",
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
      "/attendance",
      "/parents",
      "/familyx",
    ]) {
      expect(isTenantPath(path), path).toBe(false);
    }
  });
});
