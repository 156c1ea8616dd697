import type { Action } from "#common/memberships.ts";

/**
 * What each page of the creator area needs (issue 40, decision 0039): the action the policy
 * (#common/memberships.ts ROLE_ACTIONS) must allow the person's roles in the institute they work
 * on (chosen in the header), or, working on their own, their account. Null: open to everyone in
 * the area (the dashboard, their profile). The navigation hides what a person may not open, and
 * the page answers 403 when opened directly. A page missing from the table needs both actions.
 */
export const CREATOR_PAGES: readonly (readonly [path: string, action: Action | null])[] = [
  ["/creator", null],
  ["/creator/account", null],
  // A teacher's own classes (issue 41 §2): whoever works in the area has a week.
  ["/creator/week", null],
  ["/creator/upload", "content.write"],
  ["/creator/contents", "content.write"],
  ["/creator/sales", "content.write"],
  ["/creator/tests", "tests.write"],
  ["/dashboard/creator/upload", "content.write"],
  ["/dashboard/creator/contents", "content.write"],
  ["/dashboard/creator/content", "content.write"],
  ["/dashboard/creator/sales", "content.write"],
];

const BOTH: readonly Action[] = ["content.write", "tests.write"];

/** The actions a page of the creator area needs. */
export function creatorPageNeeds(pathname: string): readonly Action[] {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  const found = CREATOR_PAGES.find(([page]) =>
    page === "/creator" ? path === page : path === page || path.startsWith(`${page}/`),
  );
  if (!found) return BOTH;
  return found[1] ? [found[1]] : [];
}

/** The first action `pathname` needs that `may` refuses, or null when the page may be opened. */
export function refusedCreatorAction(pathname: string, may: (action: Action) => boolean): Action | null {
  return creatorPageNeeds(pathname).find((action) => !may(action)) ?? null;
}
