import { redirect, type RouterContextProvider } from "react-router";
import { failure, tryService } from "../actions.server";
import { flashToastCookie } from "../toast.server";
import { myChildren, parentArea } from "./area.server";
import { FAMILY_TEXTS } from "#common/family.ts";

type Ctx = Readonly<RouterContextProvider>;

/** "Consent & data": per child, what the parent was shown and answered, and when (the record is append-only). */
export async function loadConsent(context: Ctx) {
  const { viewer, services } = parentArea(context);
  const children = await myChildren(context);
  return {
    children: await Promise.all(
      children.map(async (child) => ({
        linkId: child._id,
        name: child.name,
        institute: child.institute,
        linkedAt: child.linkedAt,
        consents: await services.families.consents(viewer.id, child._id),
      })),
    ),
  };
}

/**
 * The parent withdraws consent for one child (a confirm step on the page): recorded, and the link
 * ends at once. The parent lands back on the page with the product's words for what happened.
 */
export async function withdrawConsent(context: Ctx, request: Request) {
  const { viewer, services } = parentArea(context);
  const form = await request.formData();
  const linkId = String(form.get("linkId") ?? "");
  // Only a child this page lists (an active link of the parent's; on an institute's domain, one there).
  if (!(await myChildren(context)).some((c) => c._id === linkId)) return failure(FAMILY_TEXTS.childNotFound, 404);
  const done = await tryService(() => services.families.withdraw(viewer.id, linkId));
  if (!done.ok) return done.response;
  throw redirect("/parent/consent", {
    headers: {
      "Set-Cookie": flashToastCookie({ kind: "success", title: done.value.message }),
    },
  });
}
