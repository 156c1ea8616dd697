import { data, type RouterContextProvider } from "react-router";
import { HttpError } from "../../server/http/errors.ts";
import { getRequestContext } from "./context.server";
import { getViewer, requireViewer } from "./session.server";
import { FAMILY_TEXTS, maskPhone } from "#common/family.ts";
import { isUuid } from "#common/validation/ids.ts";
import type { ParentInviteFields, ParentInviteResult } from "#common/parent-area.ts";

type Ctx = Readonly<RouterContextProvider>;

/**
 * The student's "My parents" card (issue 41, decision 0047): at each institute where they study (on
 * an institute's domain, that one), their parents and invitations with their status.
 */
export async function loadMyParents(context: Ctx) {
  const viewer = getViewer(context)!;
  const { services, site } = getRequestContext(context);
  const studying = (await services.members.mine(viewer)).filter(
    (m) => m.role === "student" && m.centerId && (site.kind !== "tenant" || m.centerId === site.center.id),
  );
  return Promise.all(
    studying.map(async (m) => ({
      centerId: m.centerId!,
      institute: m.institute,
      parents: await services.families.familyOf(viewer.id, m.centerId!, viewer.id),
    })),
  );
}

const FIELDS = new Set<string>(["name", "relation", "phone"]);

/**
 * The card's form: the student invites a parent (name, relation, mobile number) at one of their
 * institutes, through the same service as POST /api/students/{id}/parents. A refusal comes back in
 * the product's words, with the fields it names.
 */
export async function inviteMyParent(context: Ctx, request: Request) {
  const viewer = requireViewer(context, request);
  const { services, site } = getRequestContext(context);
  const form = await request.formData();
  const centerId = String(form.get("centerId") ?? "");
  const refuse = (error: string, status: number, fields: ParentInviteFields = {}) =>
    data<ParentInviteResult>({ ok: false, error, fields }, { status });
  if (!isUuid(centerId) || (site.kind === "tenant" && site.center.id !== centerId))
    return refuse(FAMILY_TEXTS.notStudentHere, 403);
  const input = { name: form.get("name") ?? "", relation: form.get("relation") ?? "", phone: form.get("phone") ?? "" };
  try {
    const made = await services.familyInvitations.invite(viewer, centerId, viewer.id, input);
    return data<ParentInviteResult>({
      ok: true,
      message: FAMILY_TEXTS.inviteSent(made.guardian.name, maskPhone(made.guardian.phone)),
    });
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    const fields: ParentInviteFields = {};
    for (const issue of (error.extra.issues ?? []) as { field?: string; message: string }[])
      if (issue.field && FIELDS.has(issue.field)) fields[issue.field as keyof ParentInviteFields] ??= issue.message;
    return refuse(error.message, error.status, fields);
  }
}
