import type { RouterContextProvider } from "react-router";
import { loadBusinessCenter, notAllowed } from "./business.server";
import { failure, tryService } from "./actions.server";
import { FAMILY_TEXTS, LONGEST_STUDENT_SEARCH, maskPhone } from "#common/family.ts";

type Ctx = Readonly<RouterContextProvider>;
/** How many students the page lists at once; a search narrows them, the pager goes on. */
const STUDENTS_PER_PAGE = 100;

/**
 * The business area's Students page (decision 0047): the institute's students, a page at a time,
 * searched (in the database, among all of them) by name, e-mail or phone number, each with their
 * parents' links and invitations (status and consent), for those whose role links families.
 */
export async function loadBusinessStudents(context: Ctx, request: Request) {
  const { center, services, viewer } = await loadBusinessCenter(context, request);
  if (!center) return { center: null } as const;
  const params = new URL(request.url).searchParams;
  const q = (params.get("q") ?? "").trim().slice(0, LONGEST_STUDENT_SEARCH);
  let page = Math.max(1, Math.min(100_000, Number.parseInt(params.get("page") ?? "1", 10) || 1));
  const read = (page: number) =>
    services.families.studentsPage(viewer.id, center.id, {
      q,
      limit: STUDENTS_PER_PAGE,
      offset: (page - 1) * STUDENTS_PER_PAGE,
    });
  let { total, students } = await read(page);
  // A page past the end (an old link, a search that now finds fewer) shows the last page.
  const last = Math.max(1, Math.ceil(total / STUDENTS_PER_PAGE));
  if (page > last) ({ total, students } = await read((page = last)));
  const offset = (page - 1) * STUDENTS_PER_PAGE;
  return {
    center: { id: center.id, instituteName: center.instituteName },
    q,
    page,
    pages: last,
    /** The number of the page's first student in the whole list. */
    first: offset + 1,
    total,
    students,
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
