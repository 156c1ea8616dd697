import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { jsonBody } from "../http/errors.ts";
import { operation } from "./openapi.ts";
import { requireRole } from "./guards.ts";
import { EnrollSchema } from "#common/validation/enrollment.ts";
import { VerifyPaymentSchema } from "#common/validation/setup.ts";

/** The student API (spec §7): enrolment, paid checkout, the student's courses and what their batches open to them. */
export function studentRouter({ services }: AppDeps) {
  const api = new Hono<AppEnv>();

  api.post(
    "/enroll",
    operation({
      tag: "student",
      auth: "student",
      summary:
        "Enrol in a content offered on this site: free at once; paid gives a gateway order (priced from the content) for Checkout. Enrolling again is harmless.",
      body: EnrollSchema,
      responses: {
        200: "Paid: {success, order: {id, amount, currency}, key_id}; already enrolled (a test: also through a series bought): {success, enrollmentId, alreadyEnrolled: true}",
        201: "Free: {success, enrollmentId}",
        400: "Invalid input",
        404: "Not offered on this site",
        409: "A test whose window has closed: This test has closed",
        429: "Rate limited",
        502: "Failed to create order",
      },
    }),
    async (c) => {
      const { user } = requireRole(c, "student");
      const outcome = await services.enrollments.enroll(user, await jsonBody(c), c.get("site"));
      if (outcome.kind === "order") {
        return c.json({
          success: true,
          order: outcome.order,
          key_id: outcome.keyId,
          content: { _id: outcome.content.id, title: outcome.content.title },
        });
      }
      if (!outcome.created) return c.json({ success: true, enrollmentId: outcome.enrollmentId, alreadyEnrolled: true });
      return c.json({ success: true, enrollmentId: outcome.enrollmentId }, 201);
    },
  );

  api.post(
    "/enroll/verify",
    operation({
      tag: "student",
      auth: "student",
      summary: "Verify the Checkout result of a content order (HMAC-SHA256 of order_id|payment_id) and enrol once",
      body: VerifyPaymentSchema,
      responses: {
        200: "{success, enrollmentId, alreadyCompleted}",
        400: "Invalid input",
        403: "Another account's order",
        422: "Payment verification failed",
      },
    }),
    async (c) => {
      const { user } = requireRole(c, "student");
      const { enrollmentId, alreadyCompleted } = await services.enrollments.confirm(user, await jsonBody(c));
      return c.json({ success: true, message: "Payment verified", enrollmentId, alreadyCompleted });
    },
  );

  api.get(
    "/my-courses",
    operation({
      tag: "student",
      auth: "student",
      summary:
        "The caller's enrolments (only this institute's on its domain), newest first, with signed file links and live links from 15 minutes before the class",
      responses: {
        200: "{items: [{enrollmentId, enrolledAt, content: {title, type, description, resourceUrl, liveLink, businessName, …}}]}",
      },
    }),
    async (c) => {
      const { user } = requireRole(c, "student");
      c.header("Cache-Control", "private, no-store");
      return c.json({ items: await services.enrollments.myCourses(user, c.get("site")) });
    },
  );

  api.get(
    "/batch-contents",
    operation({
      tag: "student",
      auth: "student",
      summary:
        "What the caller's batches open to them (issue 41 §1): the contents of every batch they are admitted to (only this institute's on its domain), each with its batch, signed file links and live links as for enrolments",
      responses: {
        200: "{items: [{batch: {_id, name}, addedAt, content: {title, type, fileUrl, liveLink, fromBatch, …}, withheld: the institute's defaulter policy when its fee settings hold this content back while fees are overdue (no links then), else null}]}",
      },
    }),
    async (c) => {
      const { user } = requireRole(c, "student");
      c.header("Cache-Control", "private, no-store");
      return c.json({ items: await services.batchLearning.contentsFor(user, c.get("site")) });
    },
  );

  return api;
}
