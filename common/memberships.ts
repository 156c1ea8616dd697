/**
 * People's roles in institutes (issue 40, decision 0039), client-safe: the roles, what each may
 * do, which roles each may grant, and where each role's area is. The server decides with these
 * (server/auth/permissions.ts); the pages only use them to show what the server will allow.
 */

export const MEMBER_ROLES = ["owner", "staff", "teacher", "creator", "student", "parent"] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];
export const MEMBER_STATUSES = ["invited", "active", "removed"] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

export const ROLE_LABELS: Record<MemberRole, string> = {
  owner: "Owner",
  staff: "Staff",
  teacher: "Teacher",
  creator: "Creator",
  student: "Student",
  parent: "Parent",
};

/** Staff may carry a duty: what they do at the institute. */
export const STAFF_DUTIES = ["front desk", "accountant"] as const;
export type StaffDuty = (typeof STAFF_DUTIES)[number];

export const ACTIONS = [
  "members.view",
  "members.invite",
  "members.remove",
  "content.write",
  "tests.write",
  "site.edit",
  "payments.connect",
  "students.view",
  "dashboard.view",
  "leads.manage",
  "billing.manage",
  "payments.view",
  "payments.refund",
  "batches.manage",
  "attendance.mark",
  "attendance.view",
  "fees.manage",
  "families.manage",
] as const;
export type Action = (typeof ACTIONS)[number];

/** THE table of what each role may do in its institute. */
export const ROLE_ACTIONS: Record<MemberRole, readonly Action[]> = {
  owner: [
    "members.view",
    "members.invite",
    "members.remove",
    "content.write",
    "tests.write",
    "site.edit",
    "payments.connect",
    "students.view",
    "dashboard.view",
    "leads.manage",
    "billing.manage",
    "payments.view",
    "payments.refund",
    "batches.manage",
    "attendance.mark",
    "attendance.view",
    "fees.manage",
    "families.manage",
  ],
  // The front desk and the accountant: they bring people in, see the students, the institute's
  // figures and its students' payments, answer its enquiries, run its batches (admissions, moves,
  // the waiting list) and collect its fees (plans, accounts, the desk, reversals); never the plan
  // and its bills, the money's settings, a refund (the owner's decision) or the site.
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
  // A teacher (and a creator, who may teach a batch too) marks and reads the registers of the
  // sessions and batches they teach (the attendance services narrow it to those); timetables are
  // the front desk's.
  teacher: ["tests.write", "students.view", "attendance.mark", "attendance.view"],
  creator: ["content.write", "tests.write", "attendance.mark", "attendance.view"],
  student: [],
  parent: [],
};

/**
 * Which roles each role may invite. Nobody grants a role above their own, and the owner's role
 * comes with the institute (its plan and its bills), never by invitation; students join by
 * signing up on the site or buying from it, parents through their child (decision 0047).
 */
export const GRANTS: Record<MemberRole, readonly MemberRole[]> = {
  owner: ["staff", "teacher", "creator"],
  staff: ["teacher", "creator"],
  teacher: [],
  creator: [],
  student: [],
  parent: [],
};

/** The roles an invitation can name. */
export const INVITABLE_ROLES = ["staff", "teacher", "creator"] as const;
export type InvitableRole = (typeof INVITABLE_ROLES)[number];

/**
 * Where each role lands. Staff work in the business area (what their role allows), teachers in
 * the creator area (tests and the bank), parents in their own area (their children's records).
 */
export const ROLE_AREAS: Record<MemberRole | "admin", string> = {
  admin: "/admin",
  owner: "/business",
  staff: "/business",
  teacher: "/creator",
  creator: "/creator",
  student: "/student",
  parent: "/parent",
};

/** What the creator area is for: a role with either may work there (owners, creators, teachers). */
export const CREATOR_AREA_ACTIONS = ["content.write", "tests.write"] as const satisfies readonly Action[];

/** One of the caller's roles as the header's switcher shows it; `centerId` null is the platform admin role. */
export interface MembershipJson {
  _id: string | null;
  centerId: string | null;
  institute: string;
  role: MemberRole | "admin";
  duty: string | null;
}

/** An institute's member or invitation as its owner and staff see them. */
export interface MemberJson {
  _id: string;
  role: MemberRole;
  duty: string | null;
  status: MemberStatus;
  name: string | null;
  email: string | null;
  phone: string | null;
  invitedBy: string | null;
  invitedAt: string | null;
  acceptedAt: string | null;
  removedAt: string | null;
  expiresAt: string | null;
  /** An invitation whose link has run out (inviting again makes a fresh one). */
  expired: boolean;
}

/** The value the switcher posts and the cookie keeps: `admin`, or `<centerId>:<role>`. */
export const membershipKey = (m: { centerId: string | null; role: string }) =>
  m.centerId ? `${m.centerId}:${m.role}` : "admin";

/**
 * The switcher's choice of a creator account's own work (no institute: what they sell on the
 * platform alone, by authorship), offered in the creator area beside their institutes.
 */
export const OWN_WORK_KEY = "own";
export const OWN_WORK_NAME = "My own work";

/** The cookie that remembers, for the session, which of their roles the person is acting in. */
export const CHOSEN_MEMBERSHIP_COOKIE = "pathshala_as";

export const SWITCH_NOT_YOURS = "You do not hold that role. Choose one of yours.";
