import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { jsonBody, parseWith } from "../http/errors.ts";
import { input, operation } from "./openapi.ts";
import { requireAuth } from "./guards.ts";
import { feeStanding } from "./fee-standing.ts";
import { isUuid } from "#common/validation/ids.ts";
import { FEE_ACCOUNT_NOT_FOUND } from "#common/validation/fees.ts";
import { ReceiptPdfQuery } from "#common/validation/fee-cheques.ts";
import { FEE_REFUND_NOT_FOUND, RefundInput, RefundQuoteQuery } from "#common/validation/fee-refunds.ts";

const WORKING =
  "working: {leftOn, course: {from, to, from_batch}, days: {used, total}, fee, nonRefundable: {amount, heads: [{name, amount}]}, refundableFee, usedFee, penalties, kept, paid, proposed, stillOwed, refundBy}";
const REFUND = `{refund: {_id, number, accountId, leftOn, amount, throughGateway, paidOut, mode, reference, reason, ${WORKING}, gateway: [{receiptId, paymentId, amount, refundId, status}], createdAt}}`;

/**
 * Refunds when a student leaves (issue 42 §6, decision 0048): the calculator's proposal
 * (`GET /api/fee-accounts/{id}/refund-quote`), the owner's confirmation
 * (`POST /api/fee-accounts/{id}/refunds`) and the Refund Voucher as PDF
 * (`GET /api/fee-refunds/{id}/pdf`). Only the institute's owners and staff (fees.manage) refund;
 * the student may read their own voucher.
 */
export function feeRefundRouters({ services, database }: AppDeps) {
  const { standing, managerOf } = feeStanding(database.db);

  const accounts = new Hono<AppEnv>();
  accounts.get(
    "/:id/refund-quote",
    operation({
      tag: "fees",
      auth: "business",
      summary:
        "The refund calculator for a student who left on leftOn (India's 2024 coaching guidelines: a pro-rata refund for the remaining period, within 10 days): the course's days used of its total (from the student's batch under this plan, or courseFrom/courseTo), the fee, its non-refundable heads, the fee for the days used, late fees and charges kept, what was paid and the proposed refund, with the online payments that would go back through the gateway, the account's cheques not yet cleared (blocked names the first: no refund until it clears, bounces or is returned), a refund confirmed earlier that did not finish (unfinished: status pending or failed, with the gateway's words), and the refund already made, if any. Amounts in rupees",
      responses: {
        200: `{quote: {accountId, student: {_id, name}, planName, ${WORKING}, online: [{receiptId, number, paymentId, amount}], atDesk, uncleared: [{_id, kind, number, chequeDate, amount, status}], blocked: string | null, unfinished: {status, leftOn, amount, throughGateway, paidOut, failure, createdAt, attemptedAt} | null, refund: {...} | null}}`,
        400: "Bad input: no or a bad leftOn, a day in the future, a course whose dates are unknown or out of order",
        404: "No such account, or not one the caller manages",
      },
    }),
    input("query", RefundQuoteQuery),
    async (c) => {
      const id = c.req.param("id");
      const owner = isUuid(id) ? await services.feeAccounts.centerOf(id) : null;
      await managerOf(c, owner?.centerId ?? null, FEE_ACCOUNT_NOT_FOUND);
      return c.json({ quote: await services.feeRefunds.quote(owner!.centerId, id, c.req.valid("query")) });
    },
  );
  accounts.post(
    "/:id/refunds",
    operation({
      tag: "fees",
      auth: "business",
      summary:
        "Refund a student who left, once per account, when none of its cheques is waiting to clear: the calculator's proposal unless an amount is given (at most what was paid). Online payments go back through the gateway of the institute's account that took each one, newest first; the rest is recorded as paid out at the desk by mode (cash, cheque, UPI or bank, with a reference). The ledger gets refund entries and the fee no longer charged is cancelled, so the account closes at zero; a numbered Refund Voucher is issued. The confirmation is kept before the gateway is asked: if the gateway refuses or does not answer, the refund stays unfinished (502) and the account takes no payment until it is finished; the same request again finishes it as first confirmed (whatever amount it names), and no payment is ever refunded twice. A second request while one is being made (a double click) is a 409 and refunds nothing more",
      body: RefundInput,
      responses: {
        201: REFUND,
        400: "Bad input: no reason, more than was paid, no pay-out mode when some is paid out at the desk, a day in the future, unknown course dates",
        404: "No such account, or not one the caller manages",
        409: "Already refunded, being refunded right now (a request less than two minutes old; after that, the same request finishes it), a cheque or DD of the account still held or deposited (named), nothing paid, or nothing to refund by the calculator and no amount given",
        502: "The payment gateway refused or did not answer: the refund is kept unfinished with the gateway's words (nothing on the ledger, no voucher yet); the same request again finishes it",
      },
    }),
    async (c) => {
      requireAuth(c);
      const body = await jsonBody(c);
      // Read first: bad input is a 400 naming its field before the account is looked for.
      parseWith(RefundInput, body);
      const id = c.req.param("id");
      const owner = isUuid(id) ? await services.feeAccounts.centerOf(id) : null;
      const { user } = await managerOf(c, owner?.centerId ?? null, FEE_ACCOUNT_NOT_FOUND);
      return c.json({ refund: await services.feeRefunds.refund(user.id, owner!.centerId, id, body) }, 201);
    },
  );

  const refunds = new Hono<AppEnv>();
  refunds.get(
    "/:id/pdf",
    operation({
      tag: "fees",
      auth: "signed-in",
      summary:
        "A refund as a PDF Refund Voucher (A4, or format=thermal for an 80 mm printer): the institute with its GSTIN, the student, what each due gave back with the GST included, how it was refunded, the reason and the calculator's working. For the institute's owners and staff and the student it is for",
      responses: {
        200: { description: "The PDF", content: ["application/pdf"] },
        404: "No such refund, or not one the caller manages or owns",
      },
    }),
    input("query", ReceiptPdfQuery),
    async (c) => {
      requireAuth(c);
      const id = c.req.param("id");
      const owner = isUuid(id) ? await services.feeRefunds.ownerOf(id) : null;
      await standing(c, owner?.centerId ?? null, owner?.studentId ?? null, FEE_REFUND_NOT_FOUND);
      const { filename, bytes } = await services.feeRefundPdfs.pdf(id, c.req.valid("query").format);
      return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
        "Content-Type": "application/pdf",
        "Content-Disposition": `inline; filename="${filename}"`,
        "Cache-Control": "private, no-store",
      });
    },
  );

  return { accounts, refunds };
}
