import { ROLE_ACTIONS, type Action } from "#common/memberships.ts";

/**
 * What each page of the business area needs (issue 40, decision 0039): the action the policy
 * (#common/memberships.ts ROLE_ACTIONS) must allow the person's roles in the institute it shows.
 * Null: every owner and staff member may open it (their own profile, help). The navigation hides
 * what a person may not open, and the page answers 403 when opened directly. A page missing from
 * this table is the owner's alone (every action of theirs), so a new page is never open by mistake.
 */
export const BUSINESS_PAGES: readonly (readonly [path: string, action: Action | null])[] = [
  ["/business", "dashboard.view"],
  ["/business/account", null],
  ["/business/contact", null],
  ["/business/subscription-plan", "billing.manage"],
  ["/business/subscription-details", "billing.manage"],
  ["/business/setup", "site.edit"],
  ["/business/templates", "site.edit"],
  ["/business/site", "site.edit"],
  ["/business/website", "site.edit"],
  ["/business/content", "site.edit"],
  ["/business/team", "members.view"],
  ["/business/tests", "tests.write"],
  ["/business/leads", "leads.manage"],
  ["/business/payments", "payments.view"],
  ["/business/students", "families.manage"],
  ["/business/batches", "batches.manage"],
  ["/business/attendance", "attendance.view"],
  ["/business/fees", "fees.manage"],
  ["/business/fees/dues", "fees.manage"],
  ["/business/fees/cheques", "fees.manage"],
];

/** The actions a page needs: its own (none for a page open to all), or the owner's every action for one not in the table. */
export function businessPageNeeds(pathname: string): readonly Action[] {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  const found = BUSINESS_PAGES.find(([page]) =>
    page === "/business" ? path === page : path === page || path.startsWith(`${page}/`),
  );
  if (!found) return ROLE_ACTIONS.owner;
  return found[1] ? [found[1]] : [];
}

/** The first action `pathname` needs that `may` refuses, or null when the page may be opened. */
export function refusedAction(pathname: string, may: (action: Action) => boolean): Action | null {
  return businessPageNeeds(pathname).find((action) => !may(action)) ?? null;
}
