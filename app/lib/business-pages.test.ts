import { describe, expect, it } from "vitest";
import { refusedAction } from "./business-pages";
import { ROLE_ACTIONS, type MemberRole } from "#common/memberships.ts";

const as = (role: MemberRole) => (action: string) => (ROLE_ACTIONS[role] as readonly string[]).includes(action);

describe("which business pages each role may open", () => {
  it("opens every page to the owner", () => {
    for (const path of [
      "/business",
      "/business/site",
      "/business/subscription-plan",
      "/business/tests/new",
      "/business/x",
    ])
      expect(refusedAction(path, as("owner")), path).toBeNull();
  });

  it("opens the dashboard, team, leads, student payments, batches, fees, profile and help to staff, and nothing of the plan, the site or tests", () => {
    for (const path of [
      "/business",
      "/business/",
      "/business/team",
      "/business/leads",
      "/business/payments",
      "/business/batches",
      "/business/attendance",
      "/business/fees",
      "/business/account",
      "/business/contact",
    ])
      expect(refusedAction(path, as("staff")), path).toBeNull();
    expect(refusedAction("/business/subscription-plan", as("staff"))).toBe("billing.manage");
    expect(refusedAction("/business/subscription-details", as("staff"))).toBe("billing.manage");
    expect(refusedAction("/business/site", as("staff"))).toBe("site.edit");
    expect(refusedAction("/business/templates", as("staff"))).toBe("site.edit");
    expect(refusedAction("/business/website", as("staff"))).toBe("site.edit");
    expect(refusedAction("/business/tests/questions", as("staff"))).toBe("tests.write");
  });

  it("keeps a page missing from the table for the owner alone, and does not match a page by its name's start", () => {
    expect(refusedAction("/business/payroll", as("staff"))).not.toBeNull();
    expect(refusedAction("/business/teamwork", as("staff"))).not.toBeNull();
    expect(refusedAction("/business/teamwork", as("owner"))).toBeNull();
  });
});
