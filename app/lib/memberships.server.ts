import type { RouterContextProvider } from "react-router";
import { getRequestContext } from "./context.server";
import { getViewer } from "./session.server";
import { readCookie } from "../../server/auth/cookies.ts";
import {
  CHOSEN_MEMBERSHIP_COOKIE,
  OWN_WORK_KEY,
  OWN_WORK_NAME,
  ROLE_LABELS,
  membershipKey,
  type MemberRole,
  type MembershipJson,
} from "#common/memberships.ts";

export interface SwitcherOption {
  key: string;
  label: string;
}

/** The areas' own roles: which membership an area shows when none was chosen (or the chosen one is elsewhere). */
const AREA_ROLES: Record<"admin" | "business" | "creator" | "student" | "parent", readonly (MemberRole | "admin")[]> = {
  admin: ["admin"],
  business: ["owner", "staff"],
  creator: ["teacher", "creator"],
  student: ["student"],
  parent: ["parent"],
};

export const switcherLabel = (m: MembershipJson) =>
  m.role === "admin" ? `${m.institute} · Admin` : `${m.institute} · ${ROLE_LABELS[m.role]}`;

/**
 * The header's switcher for a person with more than one role or institute (issue 40): every live
 * role, and the one they are acting in (the session's choice, if it belongs to this area, else
 * the area's first; in the business area, the institute it shows). Null for one role only.
 */
export async function roleSwitcher(
  context: Readonly<RouterContextProvider>,
  request: Request,
  area: keyof typeof AREA_ROLES,
  centerId: string | null = null,
): Promise<{ options: SwitcherOption[]; current: string | null } | null> {
  const viewer = getViewer(context);
  if (!viewer) return null;
  const { services, site } = getRequestContext(context);
  // An institute's own domain is that institute's: the platform's switcher is not offered there.
  if (site.kind === "tenant") return null;
  const mine = await services.members.mine(viewer);
  // In the creator area a creator account may also work on its own (no institute): one more choice.
  const ownWork = area === "creator" && viewer.role === "creator" && mine.some((m) => m.role !== "admin");
  if (mine.length + (ownWork ? 1 : 0) < 2) return null;
  const ownOption = { key: OWN_WORK_KEY, label: `${OWN_WORK_NAME} · ${ROLE_LABELS.creator}` };
  if (ownWork && !centerId) return { options: [ownOption, ...mine.map(optionOf)], current: OWN_WORK_KEY };
  const here = mine.filter((m) => AREA_ROLES[area].includes(m.role));
  const chosen = readCookie(request.headers.get("cookie"), CHOSEN_MEMBERSHIP_COOKIE);
  const current =
    here.find((m) => membershipKey(m) === chosen && (!centerId || m.centerId === centerId)) ??
    here.find((m) => !centerId || m.centerId === centerId) ??
    null;
  return {
    options: [...(ownWork ? [ownOption] : []), ...mine.map(optionOf)],
    current: current ? membershipKey(current) : null,
  };
}

const optionOf = (m: MembershipJson): SwitcherOption => ({ key: membershipKey(m), label: switcherLabel(m) });
