import { Hono, type Context } from "hono";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { forbidden, optionalBody, parseWith } from "../http/errors.ts";
import { operation } from "./openapi.ts";
import { requireAuth } from "./guards.ts";
import { feeStanding } from "./fee-standing.ts";
import { dueOwner } from "../services/fees/due-owner.ts";
import { isGuardianOf } from "../db/families.ts";
import { isUuid } from "#common/validation/ids.ts";
import { FEE_DUE_NOT_FOUND, FEE_PAY_OWN_ONLY, FeeLinkInput, FeePayInput } from "#common/validation/fee-online.ts";

/**
 * Fees paid online (issue 42 §3, decision 0046): `/api/fee-dues/{id}/pay`, the student's
 * Checkout on the institute's own account, and `/api/fee-dues/{id}/link`, a Payment Link its
 * owners and staff send. Who may do what is `feeStanding`'s, as for every fee route.
 */
export function feeOnlineRouter({ services, database }: AppDeps) {
  const db = database.db;
  const { feeOnline, feeLinks } = services;
  const { standing: standingOf } = feeStanding(db);
  const api = new Hono<AppEnv>();

  /** The due and the caller's standing towards it; bad input is refused first, whoever asks. */
  const dueFor = async (c: Context<AppEnv>, schema: typeof FeePayInput | typeof FeeLinkInput, studentMay: boolean) => {
    requireAuth(c);
    const body = await optionalBody(c);
    parseWith(schema, body);
    const id = c.req.param("id") ?? "";
    const due = isUuid(id) ? await dueOwner(db, id) : null;
    const student = studentMay ? (due?.studentId ?? null) : null;
    const standing = await standingOf(c, due?.centerId ?? null, student, FEE_DUE_NOT_FOUND);
    return { id, due: due!, body, ...standing };
  };

  api.post(
    "/:id/pay",
    operation({
      tag: "fees",
      auth: "signed-in",
      summary:
        "The student, or a parent linked to them, pays one of their dues online: a Checkout order on the institute's own connected Razorpay account for the due's balance today (or, where the institute allows part payments online, `amount` rupees up to what the account owes). Checkout's result goes to POST /api/payment/verify; that or the webhook, whichever comes first, receipts it once (oldest dues first, as at the desk)",
      body: FeePayInput,
      responses: {
        200: "{order: {id, amount (paise), currency}, key_id, due: {_id, label}, institute}",
        400: "Bad input: an amount that is not rupees, a part payment where the institute takes whole balances only, more than the account owes, below ₹1",
        403: "A manager of the institute: the student or their parent pays online, the desk takes payments",
        404: "No such due, or not the caller's or their child's (another student's, another institute's, or on another institute's domain)",
        409: "The due is paid, or the institute has not connected its payment account (it does not take fees online yet)",
        429: "Too many orders",
        502: "The gateway did not make the order",
        503: "Online payments are not set up on this server",
      },
    }),
    async (c) => {
      const { due, user, body } = await dueFor(c, FeePayInput, true);
      const family = due.studentId === user.id || (await isGuardianOf(db, user.id, due.studentId, due.centerId));
      if (!family) throw forbidden(FEE_PAY_OWN_ONLY);
      return c.json(await feeOnline.checkout({ payerId: user.id, studentId: due.studentId }, due.dueId, body));
    },
  );

  api.post(
    "/:id/link",
    operation({
      tag: "fees",
      auth: "business",
      summary:
        "Send the student a Razorpay Payment Link for a due's balance, on the institute's own account (part payments accepted where the institute allows them online), by WhatsApp, SMS and e-mail; its payments are receipted once each as the gateway reports them. A live link for the same amount is answered again, not sent twice",
      body: FeeLinkInput,
      responses: {
        201: "{url, link: {_id, accountId, dueId, amount, acceptPartial, url, status, expiresAt, createdAt}}",
        400: "Bad input: days outside 1 to 30",
        404: "No such due, or not one the caller manages (fees.manage: owners and staff)",
        409: "The due is paid, or the institute has not connected its payment account",
        502: "The gateway did not make the link",
      },
    }),
    async (c) => {
      // The student it is for finds nothing here: links are the desk's to send.
      const { due, user, body } = await dueFor(c, FeeLinkInput, false);
      const link = await feeLinks.create(user.id, due.centerId, due.dueId, body);
      return c.json({ url: link.url, link }, 201);
    },
  );

  return api;
}
