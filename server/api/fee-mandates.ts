import { Hono, type Context } from "hono";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { forbidden, jsonBody, optionalBody, parseWith } from "../http/errors.ts";
import { operation } from "./openapi.ts";
import { requireAuth } from "./guards.ts";
import { feeStanding } from "./fee-standing.ts";
import { isUuid } from "#common/validation/ids.ts";
import { FEE_ACCOUNT_NOT_FOUND } from "#common/validation/fees.ts";
import {
  FEE_MANDATE_NOT_FOUND,
  FEE_MANDATE_OWN_ONLY,
  FeeMandateCancelInput,
  FeeMandateConfirmInput,
  FeeMandateStartInput,
} from "#common/validation/fee-mandates.ts";

const MANDATE =
  "{_id, accountId, payerId, payerName, rail: upi-autopay | e-mandate, status: created | pending | active | rejected | cancelled, statusReason, maxAmount (rupees), expiresAt, createdAt, activatedAt, cancelledAt, debits: [{_id, dueId, label, amount, presentedOn, status: presented | paid | failed, error}]}";

/**
 * Standing instructions for monthly fees (issue 42 §7, decision 0051):
 * `POST /api/fee-accounts/{id}/mandate` (the student or a linked parent starts one: the order to
 * authorise in Checkout), `POST /api/fee-mandates/{id}/confirm` (Checkout's signed answer) and
 * `POST /api/fee-mandates/{id}/cancel` (its payer, or the institute's desk). Who may do what is
 * `feeStanding`'s, as for every fee route.
 */
export function feeMandateRouters({ services, database }: AppDeps) {
  const { standing } = feeStanding(database.db);
  const { feeMandates, feeAccounts } = services;
  /** The caller's standing with the mandate's student today (a parent unlinked since is a stranger). */
  const standingOnMandate = async (c: Context<AppEnv>, id: string) => {
    const owner = isUuid(id) ? await feeMandates.ownerOf(id) : null;
    return standing(c, owner?.centerId ?? null, owner?.studentId ?? null, FEE_MANDATE_NOT_FOUND);
  };

  const accounts = new Hono<AppEnv>();
  accounts.post(
    "/:id/mandate",
    operation({
      tag: "fees",
      auth: "signed-in",
      summary:
        "The student, or a parent linked to them, sets up a standing instruction for a monthly fee plan on the institute's own Razorpay account: UPI Autopay when every monthly due is at most ₹15,000 (its authorisation takes ₹1, given back at once), a bank e-mandate (NACH) above. Answers the authorisation order to open Checkout with (customer_id, recurring: 1); its signed result goes to POST /api/fee-mandates/{id}/confirm. Each due is then debited two days before its last date and receipted like any online payment",
      body: FeeMandateStartInput,
      responses: {
        201: `{mandate: ${MANDATE}, order: {id, amount (paise), currency}, key_id, customer_id, institute, description}`,
        400: "Bad input: a body that is not a JSON object",
        403: "A manager of the institute: the student or their parent sets up a standing instruction",
        404: "No such account, or not the caller's or their child's",
        409: "The plan's dues are not monthly, nothing is left to collect, one is already set up, or the institute has not connected its payment account",
        429: "Too many orders",
        502: "The gateway did not make the customer or the authorisation order",
      },
    }),
    async (c) => {
      requireAuth(c);
      parseWith(FeeMandateStartInput, await optionalBody(c));
      const id = c.req.param("id");
      const owner = isUuid(id) ? await feeAccounts.centerOf(id) : null;
      const { user, manager } = await standing(
        c,
        owner?.centerId ?? null,
        owner?.studentId ?? null,
        FEE_ACCOUNT_NOT_FOUND,
      );
      if (manager && user.id !== owner!.studentId) throw forbidden(FEE_MANDATE_OWN_ONLY);
      return c.json(await feeMandates.start({ payerId: user.id, studentId: owner!.studentId }, id), 201);
    },
  );

  const mandates = new Hono<AppEnv>();
  mandates.post(
    "/:id/confirm",
    operation({
      tag: "fees",
      auth: "signed-in",
      summary:
        "Checkout's signed answer for a standing instruction's authorisation, from the payer who started it: checked with the institute's account, then the gateway's token decides the status (active; pending while a bank approves an e-mandate, then moved on by the token's webhook). Sent again, it changes nothing",
      body: FeeMandateConfirmInput,
      responses: {
        200: `{mandate: ${MANDATE}}`,
        400: "Bad input, or a result that does not verify (another order, a wrong signature, no token)",
        404: "No such standing instruction, or not one the caller started",
        502: "The gateway could not be asked about the payment",
      },
    }),
    async (c) => {
      requireAuth(c);
      const body = await jsonBody(c);
      parseWith(FeeMandateConfirmInput, body);
      const id = c.req.param("id");
      const { user } = await standingOnMandate(c, id);
      return c.json({ mandate: await feeMandates.confirm(user.id, id, body) });
    },
  );
  mandates.post(
    "/:id/cancel",
    operation({
      tag: "fees",
      auth: "signed-in",
      summary:
        "Ends a standing instruction: its payer, the student it is for, a parent linked to them, or the institute's owners and staff (fees.manage). The gateway's token is cancelled first; no further debit is presented. Dues already debited stay paid",
      body: FeeMandateCancelInput,
      responses: {
        200: `{mandate: ${MANDATE}}`,
        400: "Bad input: a reason over 300 characters",
        404: "No such standing instruction, or not one the caller may end",
        409: "It has ended already",
        502: "The gateway did not cancel it: nothing changed",
      },
    }),
    async (c) => {
      requireAuth(c);
      const body = await optionalBody(c);
      parseWith(FeeMandateCancelInput, body);
      const { user } = await standingOnMandate(c, c.req.param("id"));
      return c.json({ mandate: await feeMandates.cancel(user.id, c.req.param("id"), body) });
    },
  );

  return { accounts, mandates };
}
