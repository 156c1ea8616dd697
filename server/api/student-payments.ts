import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { input, operation } from "./openapi.ts";
import { idParam, requireAuth } from "./guards.ts";
import { requireMember } from "./member-guard.ts";
import { REFUND_TEXTS } from "../services/refunds.ts";
import { PageQuery } from "#common/validation/paging.ts";
import { STUDENT_PAYMENT_TEXTS, STUDENT_PAYMENTS_PER_PAGE } from "#common/purchases.ts";

const DENIED = {
  403: "No role in this institute, or a role that does not allow this",
  404: "No such institute (or another institute's, on an institute's domain)",
};

/**
 * `/api/centers/{id}/payments`: what an institute's students paid it (owners and staff see them),
 * and its refunds of them (the owner's decision), through the institute's own account.
 */
export function studentPaymentsRouter({ services, database }: AppDeps) {
  const api = new Hono<AppEnv>();
  const db = database.db;

  api.get(
    "/",
    operation({
      tag: "payment",
      auth: "business",
      summary: `The institute's students' paid orders (content, tests, series), newest first, ${STUDENT_PAYMENTS_PER_PAGE} a page, each with its refund if any`,
      responses: {
        200: "{payments: [{_id, student {name, email}, item, amount, currency, paidAt, paymentId, paidToInstitute, refund}], page}",
        ...DENIED,
      },
    }),
    requireMember(db, "payments.view"),
    input("query", PageQuery),
    async (c) => {
      const { page } = c.req.valid("query");
      const payments = await services.refunds.studentPayments(c.get("membership")!.centerId, {
        limit: STUDENT_PAYMENTS_PER_PAGE,
        offset: (page - 1) * STUDENT_PAYMENTS_PER_PAGE,
      });
      c.header("Cache-Control", "no-store");
      return c.json({ payments, page });
    },
  );

  api.post(
    "/:orderId/refund",
    operation({
      tag: "payment",
      auth: "business",
      summary:
        "Refund a student's payment in full through the institute's own Razorpay account, once; the access it bought ends and the student gets the institute's credit note",
      responses: {
        200: `{success, message: '${STUDENT_PAYMENT_TEXTS.refunded}', refund}`,
        403: DENIED[403],
        404: `${REFUND_TEXTS.notFound} (or not this institute's)`,
        409: `${REFUND_TEXTS.notPaid}; ${REFUND_TEXTS.already}; ${REFUND_TEXTS.underWay}; or ${REFUND_TEXTS.paidToPlatform}`,
        502: "The payment gateway did not refund it",
      },
    }),
    requireMember(db, "payments.refund"),
    async (c) => {
      const { user } = requireAuth(c);
      const orderId = idParam(c, REFUND_TEXTS.notFound, "orderId");
      const refund = await services.refunds.refundStudentPayment(c.get("membership")!.centerId, orderId, user.id);
      return c.json({ success: true, message: STUDENT_PAYMENT_TEXTS.refunded, refund });
    },
  );
  return api;
}
