import { data, type RouterContextProvider } from "react-router";
import { HttpError } from "../../../server/http/errors.ts";
import type { AttendanceViewer } from "../../../server/services/attendance-access.ts";
import type { ChildLink } from "../../../server/services/families/index.ts";
import { getRequestContext } from "../context.server";
import { getViewer } from "../session.server";
import { FAMILY_TEXTS, type ChildJson } from "#common/family.ts";
import { isUuid } from "#common/validation/ids.ts";

type Ctx = Readonly<RouterContextProvider>;

/**
 * The parent's area (issue 41, decision 0047) reaches a child only through an active link of the
 * signed-in account, by the link's id: never a student id from the address. On an institute's own
 * domain, only that institute's children.
 */
export function parentArea(context: Ctx) {
  const viewer = getViewer(context)!;
  const { services, site } = getRequestContext(context);
  const siteCenterId = site.kind === "tenant" ? site.center.id : null;
  return { viewer, services, site, siteCenterId };
}

/** The signed-in account's children through their active links (on an institute's domain, those there). */
export function myChildren(context: Ctx): Promise<ChildJson[]> {
  const { viewer, services, siteCenterId } = parentArea(context);
  return services.families.children(viewer.id, siteCenterId);
}

/**
 * The child the link `linkId` of the signed-in account names, or the 404 page: another family's
 * link, an ended one, a made-up id, or (on an institute's domain) another institute's child.
 */
export async function childOfLink(context: Ctx, linkId: string): Promise<ChildLink> {
  const { viewer, services, siteCenterId } = parentArea(context);
  const missing = () => data({ message: FAMILY_TEXTS.childNotFound }, { status: 404 });
  if (!isUuid(linkId)) throw missing();
  try {
    const link = await services.families.child(viewer.id, linkId);
    if (siteCenterId && link.centerId !== siteCenterId) throw missing();
    return link;
  } catch (error) {
    if (error instanceof HttpError) throw data({ message: error.message }, { status: error.status });
    throw error;
  }
}

/**
 * The attendance reports' view of a parent reading one child: the family scope, narrowed to the
 * child the active link names (checked just before). Built from the link rather than from the
 * parent's roles at the institute, so a parent who also studies or works there still reads their
 * child's record, and only that child's.
 */
export const familyViewer = (parentId: string, link: ChildLink): AttendanceViewer => ({
  scope: "family",
  userId: parentId,
  centerId: link.centerId,
  studentIds: [link.studentId],
});

/**
 * A parent-only account: a "student" account (as a parent's account is made) that studies nowhere
 * (no live student role at any institute) and has a child linked (on an institute's domain, there). Its
 * student home is the parent's area.
 */
export async function isParentOnly(context: Ctx): Promise<boolean> {
  const { viewer, services } = parentArea(context);
  if (viewer.role !== "student") return false;
  // The roles first: kept in memory, and a student who studies somewhere is never parent-only.
  if ((await services.members.mine(viewer)).some((m) => m.role === "student")) return false;
  return (await myChildren(context)).length > 0;
}
