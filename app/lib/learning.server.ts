import { redirect, type RouterContextProvider } from "react-router";
import { HttpError } from "../../server/http/errors.ts";
import type { Reader } from "../../server/services/content-access.ts";
import type { EnrollmentJson, LearningItemJson } from "#common/content-types.ts";
import type { ContentType } from "#common/validation/content.ts";
import { STUDENTS_ONLY } from "#common/validation/enrollment.ts";
import type { StudentBatchContentJson } from "#common/validation/batches.ts";
import { getRequestContext } from "./context.server";
import { getViewer } from "./session.server";
import { flashToastCookie } from "./toast.server";
import { safeRedirect } from "./redirects";

type Ctx = Readonly<RouterContextProvider>;

/** What the browser opens Checkout with: the public key and the script (Razorpay's or the sandbox's). */
export interface CheckoutConfig {
  key: string;
  script: string;
}

function readerOf(context: Ctx): Reader | null {
  const viewer = getViewer(context);
  return viewer ? { id: viewer.id, role: viewer.role } : null;
}

export function checkoutConfig(context: Ctx): CheckoutConfig {
  const { gateway } = getRequestContext(context).services.payments;
  return { key: gateway.keyId, script: gateway.checkoutScript };
}

/** The catalog of this site (one institute's on its domain), as the signed-in viewer may see it. */
export async function loadCatalog(
  context: Ctx,
  types?: ContentType[],
): Promise<{ items: LearningItemJson[]; checkout: CheckoutConfig }> {
  const { services, site } = getRequestContext(context);
  return { items: await services.catalog.list(site, readerOf(context), { types }), checkout: checkoutConfig(context) };
}

/** The signed-in student's enrolments on this site (behind the student area's guard). */
export async function loadMyCourses(context: Ctx): Promise<EnrollmentJson[]> {
  const { services, site } = getRequestContext(context);
  return services.enrollments.myCourses(readerOf(context)!, site);
}

/** What the signed-in student's batches open to them on this site (behind the student area's guard). */
export async function loadBatchContents(context: Ctx): Promise<StudentBatchContentJson[]> {
  const { services, site } = getRequestContext(context);
  return services.batchLearning.contentsFor(readerOf(context)!, site);
}

/**
 * Enrolment posted as a plain form (no JavaScript): free content is enrolled at once and the
 * student goes to My Courses; paying needs Checkout, which needs JavaScript. The pages with
 * JavaScript call the API instead; both reach the same service.
 */
export async function enrolFromForm(request: Request, context: Ctx): Promise<Response> {
  const form = await request.formData();
  const contentId = String(form.get("contentId") ?? "");
  const back = safeRedirect(form.get("back"), "/catalog");
  const viewer = getViewer(context);
  if (!viewer)
    throw redirect(`/auth?role=student&redirectTo=${encodeURIComponent(`${back.split("#")[0]}#content-${contentId}`)}`);
  const toast = (kind: "success" | "error", title: string, description?: string) => ({
    headers: { "Set-Cookie": flashToastCookie({ kind, title, description }) },
  });
  if (viewer.role !== "student") return redirect(back, toast("error", "Student account needed", STUDENTS_ONLY));
  const { services, site } = getRequestContext(context);
  try {
    const outcome = await services.enrollments.enroll({ id: viewer.id, role: viewer.role }, { contentId }, site);
    if (outcome.kind === "order")
      return redirect(
        back,
        toast("error", "Payment needs JavaScript", "Please turn on JavaScript in your browser to pay for this course."),
      );
    return redirect(
      `/student/my-courses#enrollment-${outcome.enrollmentId}`,
      toast("success", "Enrolled", "You're enrolled. Happy learning!"),
    );
  } catch (error) {
    if (error instanceof HttpError) return redirect(back, toast("error", "Enrolment failed", error.message));
    throw error;
  }
}
