import { describe, expect, it } from "vitest";
import { can, mayGrant } from "./permissions.ts";
import { ACTIONS, MEMBER_ROLES, type Action, type MemberRole } from "#common/memberships.ts";

/** The policy as a table: every role against every action, and who may grant what (decision 0039). */
const EXPECTED: Record<MemberRole, Action[]> = {
  owner: [...ACTIONS],
  staff: [
    "members.view",
    "members.invite",
    "students.view",
    "dashboard.view",
    "leads.manage",
    "payments.view",
    "batches.manage",
    "attendance.mark",
    "attendance.view",
    "fees.manage",
    "families.manage",
  ],
  teacher: ["tests.write", "students.view", "attendance.mark", "attendance.view"],
  creator: ["content.write", "tests.write", "attendance.mark", "attendance.view"],
  student: [],
  parent: [],
};

describe("what each role may do", () => {
  for (const role of MEMBER_ROLES)
    for (const action of ACTIONS)
      it(`${role} ${EXPECTED[role].includes(action) ? "may" : "may not"} ${action}`, () => {
        expect(can({ roles: [role] }, action)).toBe(EXPECTED[role].includes(action));
      });

  it("adds up the roles one person holds in an institute, and nobody without a role may do anything", () => {
    expect(can({ roles: ["teacher", "staff"] }, "members.invite")).toBe(true);
    expect(can({ roles: ["teacher", "staff"] }, "site.edit")).toBe(false);
    for (const action of ACTIONS) expect(can({ roles: [] }, action)).toBe(false);
    expect(can(null, "students.view")).toBe(false);
  });

  it("grants no role above the granter's own, and the owner's role never by invitation", () => {
    const grants = Object.fromEntries(
      MEMBER_ROLES.map((granter) => [granter, MEMBER_ROLES.filter((role) => mayGrant({ roles: [granter] }, role))]),
    );
    expect(grants).toEqual({
      owner: ["staff", "teacher", "creator"],
      staff: ["teacher", "creator"],
      teacher: [],
      creator: [],
      student: [],
      parent: [],
    });
  });
});
