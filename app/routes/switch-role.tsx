import { redirect } from "react-router";
import type { Route } from "./+types/switch-role";
import { getRequestContext } from "~/lib/context.server";
import { getViewer } from "~/lib/session.server";
import { tryService } from "~/lib/actions.server";
import { CHOSEN_MEMBERSHIP_COOKIE, ROLE_AREAS } from "#common/memberships.ts";

/**
 * The header's switcher posts here (issue 40): the chosen role, if it is one of the person's own,
 * is remembered for the browser session (the server resolves the caller's institute with it) and
 * the person lands in that role's area; an owner's business area opens on the chosen institute.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = getViewer(context);
  if (!viewer) return redirect("/auth?mode=login");
  const { services, secure } = getRequestContext(context);
  const form = await request.formData();
  const key = String(form.get("as") ?? "");
  const found = await tryService(() => services.members.choose(viewer, key));
  if (!found.ok) return found.response;
  const chosen = found.value;
  const area = ROLE_AREAS[chosen.role];
  // The area the role lands in must be one the account can open (decision 0039): else its own home.
  // The business area opens to every owner and staff member, whatever their account (decision 0039),
  // and the parent's area to every account with a child linked (decision 0047).
  const opens =
    (chosen.role === "admin") === (viewer.role === "admin") &&
    (area === "/business" || area === "/parent" || areaOpens(area, viewer.role));
  const target = opens ? area : homeOf(viewer.role);
  const to = target === "/business" && chosen.centerId ? `/business?center=${chosen.centerId}` : target;
  return redirect(to, {
    headers: {
      "Set-Cookie": `${CHOSEN_MEMBERSHIP_COOKIE}=${key}; Path=/; SameSite=Lax; HttpOnly${secure ? "; Secure" : ""}`,
    },
  });
}

const AREA_OF_ACCOUNT = { admin: "/admin", business: "/business", creator: "/creator", student: "/student" } as const;
const homeOf = (role: keyof typeof AREA_OF_ACCOUNT) => AREA_OF_ACCOUNT[role];
const areaOpens = (area: string, role: keyof typeof AREA_OF_ACCOUNT) => AREA_OF_ACCOUNT[role] === area;

export function loader() {
  return redirect("/");
}
