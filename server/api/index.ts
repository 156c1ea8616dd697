import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { authRouter } from "./auth.ts";
import { pricingRouter } from "./pricing.ts";
import { templatesRouter } from "./templates.ts";
import { centersRouter } from "./centers.ts";
import { enquiriesRouter } from "./enquiries.ts";
import { paymentRouter } from "./payment.ts";
import { operation, openApiDocument, routeMethods } from "./openapi.ts";
import { contentRouter } from "./content.ts";
import { businessesRouter } from "./businesses.ts";
import { salesRouter } from "./sales.ts";
import { filesRouter } from "./files.ts";
import { bookingsRouter, bookRouter } from "./book.ts";
import { invoicesRouter } from "./invoices.ts";
import { messagesRouter } from "./messages.ts";
import { adminRouter } from "./admin.ts";
import { studentRouter } from "./student.ts";
import { contentsRouter } from "./contents.ts";
import { siteContentsRouter, teamRouter } from "./team.ts";
import { trialRouter } from "./trial.ts";
import { settingsRouter } from "./settings.ts";
import { purchasesRouter } from "./refunds.ts";
import { questionsRouter } from "./questions.ts";
import { questionImagesRouter } from "./question-images.ts";
import { testsRouter } from "./mock-tests.ts";
import { attemptsRouter } from "./attempts.ts";
import { seriesRouter } from "./series.ts";
import { domainClaimsRouter } from "./domain-claims.ts";
import { instituteRouter } from "./institute.ts";
import { meRouter, membersRouter } from "./members.ts";
import { batchesRouter } from "./batches.ts";
import { batchTimetableRouter, calendarRouter, holidaysRouter, sessionsRouter } from "./timetables.ts";
import { attendanceRouter } from "./attendance.ts";
import { familiesRouter } from "./families.ts";
import { feesRouters } from "./fees.ts";
import { feeDuesRouter } from "./fee-dues.ts";
import { feeDeskRouters } from "./fee-desk.ts";
import { feeOnlineRouter } from "./fee-online.ts";
import { feeMandateRouters } from "./fee-mandates.ts";
import { feeRefundRouters } from "./fee-refunds.ts";
import { feeScholarshipsRouter } from "./fee-scholarships.ts";
import { attendanceQrRouter, sessionAttendanceRouter } from "./registers.ts";
import { studentPaymentsRouter } from "./student-payments.ts";

/** Endpoints that take file uploads and enforce their own body limits. */
const UPLOADS: { method: string; path: RegExp }[] = [
  { method: "PUT", path: /^\/api\/auth\/avatar$/ },
  // Content uploads stream to storage with per-file limits (MAX_PDF_BYTES, MAX_VIDEO_BYTES, MAX_IMAGE_BYTES).
  { method: "POST", path: /^\/api\/content\/?$/ },
  // A question file or ZIP has its own limit (QUESTION_ARCHIVE_LIMITS.maxBytes).
  { method: "POST", path: /^\/api\/questions\/import$/ },
  // A question's image (QUESTION_IMAGE_LIMITS.maxBytes).
  { method: "POST", path: /^\/api\/question-images\/?$/ },
  // The upload page's form posted without JavaScript reaches its action the same way.
  { method: "POST", path: /^\/(creator|dashboard\/creator)\/upload(\.data)?$/ },
];

export function isUploadRequest(method: string, path: string): boolean {
  return UPLOADS.some((u) => u.method === method && u.path.test(path));
}

/**
 * Every `/api` router, mounted in one place, and what the document and a 405's Allow header are
 * made from: these routes and `mountedEarlier` (routers the app mounts under /api before its guards).
 */
export function createApi(deps: AppDeps, mountedEarlier: Record<string, Hono<AppEnv>> = {}) {
  const api = new Hono<AppEnv>();
  api.route("/auth", authRouter(deps));
  api.route("/pricing", pricingRouter(deps));
  api.route("/templates", templatesRouter(deps));
  api.route("/centers/:id/members", membersRouter(deps));
  api.route("/centers/:id/payments", studentPaymentsRouter(deps));
  api.route("/centers", centersRouter(deps));
  api.route("/me", meRouter(deps));
  api.route("/batches/:id", batchTimetableRouter(deps));
  api.route("/batches", batchesRouter(deps));
  api.route("/sessions", sessionsRouter(deps));
  api.route("/holidays", holidaysRouter(deps));
  api.route("/calendar", calendarRouter(deps));
  api.route("/attendance", attendanceRouter(deps));
  const fees = feesRouters(deps);
  api.route("/fee-plans", fees.plans);
  api.route("/fee-accounts", fees.accounts);
  api.route("/fee-receipts", fees.receipts);
  api.route("/fees", feeDuesRouter(deps));
  const feeDesk = feeDeskRouters(deps);
  api.route("/fee-accounts", feeDesk.accounts);
  api.route("/fee-receipts", feeDesk.receipts);
  api.route("/fee-cheques", feeDesk.cheques);
  api.route("/fee-settings", feeDesk.settings);
  api.route("/fee-dues", feeOnlineRouter(deps));
  const feeRefunds = feeRefundRouters(deps);
  api.route("/fee-accounts", feeRefunds.accounts);
  api.route("/fee-refunds", feeRefunds.refunds);
  const feeMandates = feeMandateRouters(deps);
  api.route("/fee-accounts", feeMandates.accounts);
  api.route("/fee-mandates", feeMandates.mandates);
  api.route("/fees", feeScholarshipsRouter(deps));
  api.route("/sessions", sessionAttendanceRouter(deps));
  api.route("/attendance", attendanceQrRouter(deps));
  const families = familiesRouter(deps);
  api.route("/students", families.students);
  api.route("/parents", families.parents);
  api.route("/family/invitations", families.invitations);
  api.route("/parent/children", families.children);
  api.route("/enquiries", enquiriesRouter(deps));
  api.route("/payment", paymentRouter(deps));
  api.route("/content", contentRouter(deps));
  api.route("/businesses", businessesRouter(deps));
  api.route("/sales", salesRouter(deps));
  api.route("/files", filesRouter(deps));
  api.route("/book", bookRouter(deps));
  api.route("/bookings", bookingsRouter(deps));
  api.route("/admin", adminRouter(deps));
  api.route("/student", studentRouter(deps));
  api.route("/contents", contentsRouter(deps));
  api.route("/team", teamRouter(deps));
  api.route("/site-contents", siteContentsRouter(deps));
  api.route("/trial", trialRouter(deps));
  api.route("/settings", settingsRouter(deps));
  api.route("/purchases", purchasesRouter(deps));
  api.route("/questions", questionsRouter(deps));
  api.route("/question-images", questionImagesRouter(deps));
  api.route("/tests", testsRouter(deps));
  api.route("/attempts", attemptsRouter(deps));
  api.route("/series", seriesRouter(deps));
  api.route("/messages", messagesRouter(deps));
  api.route("/invoices", invoicesRouter(deps));
  api.route("/domains", domainClaimsRouter(deps));
  api.route("/institute", instituteRouter(deps));

  // The document does not change while the process runs: made once, when first asked for.
  let document: ReturnType<typeof openApiDocument> | undefined;
  api.get(
    "/openapi.json",
    operation({
      tag: "meta",
      auth: "public",
      summary: "This document",
      responses: { 200: "The OpenAPI 3.1 document" },
    }),
    async (c) => c.json(await (document ??= openApiDocument(whole))),
  );
  // After the last route: `route` copies the routes it is given.
  const whole = new Hono<AppEnv>();
  for (const [path, router] of Object.entries(mountedEarlier)) whole.route(path, router);
  whole.route("/", api);
  return { api, methodsAt: routeMethods(whole) };
}
