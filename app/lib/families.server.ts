import type { RouterContextProvider } from "react-router";
import { loadBusinessCenter, notAllowed } from "./business.server";
import { failure, tryService } from "./actions.server";
import { FAMILY_TEXTS, maskPhone, type GuardianJson } from "#common/family.ts";

type Ctx = Readonly<RouterContextProvider>;
/** How many students the page lists at once; a search narrows them. */
const SHOWN = 100;

/**
 * The business area's Students page (decision 0047): the institute's students, searchable by name
 * or e-mail, each with their parents' links and invitations (status and consent), for those whose
 * role links families.
 */
export async function loadBusinessStudents(context: Ctx, request: Request) {
  const { center, services, viewer } = await loadBusinessCenter(context, request);
  if (!center) return { center: null } as const;
  const q = (new URL(request.url).searchParams.get("q") ?? "").trim();
  const needle = q.toLowerCase();
  const [all, links] = await Promise.all([
    services.feeAccounts.students(center.id),
    services.families.ofInstitute(viewer.id, center.id),
  ]);
  const matching = needle
    ? all.filter((s) => s.name.toLowerCase().includes(needle) || s.email.toLowerCase().includes(needle))
    : all;
  const parentsOf = new Map<string, GuardianJson[]>();
  for (const link of links) parentsOf.set(link.studentId, [...(parentsOf.get(link.studentId) ?? []), link]);
  return {
    center: { id: center.id, instituteName: center.instituteName },
    q,
    total: matching.length,
    students: matching.slice(0, SHOWN).map((s) => ({ ...s, parents: parentsOf.get(s._id) ?? [] })),
  };
}

/** The page's forms: invite a parent of a student, or end a parent's link (families.manage). */
export async function actOnFamilies(context: Ctx, request: Request) {
  const { center, services, may, viewer } = await loadBusinessCenter(context, request);
  if (!center) return failure("No active subscription found.", 404);
  if (!may("families.manage")) return failure(notAllowed("families.manage"), 403);
  const form = await request.formData();
  const field = (name: string) => String(form.get(name) ?? "");
  if (field("intent") === "remove") {
    const removed = await tryService(() => services.families.remove(viewer.id, center.id, field("guardianId")));
    if (!removed.ok) return removed.response;
    return { ok: true as const, message: `${removed.value.name}'s link was removed.` };
  }
  const invited = await tryService(() =>
    services.familyInvitations.invite(viewer, center.id, field("studentId"), {
      name: field("name"),
      relation: field("relation"),
      phone: field("phone"),
    }),
  );
  if (!invited.ok) return invited.response;
  const { guardian } = invited.value;
  return { ok: true as const, message: FAMILY_TEXTS.inviteSent(guardian.name, maskPhone(guardian.phone)) };
}
