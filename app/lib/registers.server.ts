import { redirect, type RouterContextProvider } from "react-router";
import { HttpError } from "../../server/http/errors.ts";
import type { Asker } from "../../server/services/attendance/access.ts";
import { getRequestContext } from "./context.server";
import { getViewer } from "./session.server";
import { orRespond } from "./creator.server";
import { pagePath } from "./page-url";

type Ctx = Readonly<RouterContextProvider>;

/**
 * The attendance pages' loaders (issue 41 §3): the signed-in person (else the sign-in page of
 * `signInAs`, and back here), and the attendance services, which decide who may see what.
 */
function askerFrom(context: Ctx, request: Request, signInAs: "creator" | "student"): Asker {
  const viewer = getViewer(context);
  if (!viewer) throw redirect(`/auth?role=${signInAs}&redirectTo=${encodeURIComponent(pagePath(request))}`);
  const { site } = getRequestContext(context);
  return { userId: viewer.id, siteCenterId: site.kind === "tenant" ? site.center.id : null };
}

/** The register and its history, for the session's teacher, staff and owners. */
export async function loadRegister(context: Ctx, request: Request, sessionId: string) {
  const asker = askerFrom(context, request, "creator");
  const { services } = getRequestContext(context);
  const register = await orRespond(() => services.attendance.registers.view(asker, sessionId));
  const changes = await orRespond(() => services.attendance.corrections.history(asker, sessionId));
  return { register, changes };
}

/** The QR code to show now, or why there is none (the class is not running). */
export async function loadQr(context: Ctx, request: Request, sessionId: string) {
  const asker = askerFrom(context, request, "creator");
  const { services } = getRequestContext(context);
  const register = await orRespond(() => services.attendance.registers.view(asker, sessionId));
  try {
    return { session: register.session, qr: await services.attendance.qr.code(asker, sessionId), refusal: null };
  } catch (error) {
    if (error instanceof HttpError && error.status === 409)
      return { session: register.session, qr: null, refusal: error.message };
    throw error;
  }
}

/** A student's landing from the QR code: signed in first (the code kept in the address). */
export function requireStudentForScan(context: Ctx, request: Request) {
  askerFrom(context, request, "student");
  return { code: new URL(request.url).searchParams.get("c") ?? "" };
}

/** An online class's join page: the session and the student's standing, without joining. */
export async function loadJoin(context: Ctx, request: Request, sessionId: string) {
  const asker = askerFrom(context, request, "student");
  const { services } = getRequestContext(context);
  return orRespond(() => services.attendance.online.standing(asker, sessionId));
}
