import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { jsonBody, parseWith } from "../http/errors.ts";
import { input, operation } from "./openapi.ts";
import { requireAuth } from "./guards.ts";
import { authorize, requestCenterId } from "./member-guard.ts";
import { feeStanding } from "./fee-standing.ts";
import { isUuid } from "#common/validation/ids.ts";
import { FEE_ACCOUNT_NOT_FOUND, FEE_RECEIPT_NOT_FOUND } from "#common/validation/fees.ts";
import {
  CHEQUE_NOT_FOUND,
  ChequeInput,
  ChequeStatusInput,
  ChequesQuery,
  ReceiptPdfQuery,
} from "#common/validation/fee-cheques.ts";
import { FeeSettingsInput, FeeSettingsQuery } from "#common/validation/fee-settings.ts";

const DENIED = {
  403: "No role in this institute, or a role that does not allow this (fees.manage: owners and staff)",
  404: "No such institute, none named (centerId, the institute's domain or the header's choice), or another institute's on an institute's domain",
};
const CHEQUE =
  "{cheque: {_id, centerId, accountId, student: {_id, name}, planName, kind, number, bank, chequeDate, amount, status, receipt: {_id, number, reversed} | null, events: [{from, to, note, by, at}], createdAt, updatedAt}}";
const SETTINGS =
  "{settings: {centerId, remindDaysBefore, remindOnDay, remindDaysAfter, defaulterAfterDays, defaulterPolicy, bounceFee, allowPartialOnline, defaulterHoldsNewContent, updatedAt}}";

/**
 * The fee desk beyond cash (issue 42 §3, §1, §4): cheques and DDs with the post-dated cheque
 * register (`/api/fee-accounts/{id}/cheques`, `/api/fee-cheques`), receipts as PDF
 * (`/api/fee-receipts/{id}/pdf`) and the institute's fee settings (`/api/fee-settings`). Who may
 * call is decided as the fee routers decide it (`feeStanding`). Services are read per request, so
 * that a test may give the cheque desk its own clock.
 */
export function feeDeskRouters({ services, database }: AppDeps) {
  const db = database.db;
  const { standing } = feeStanding(db);

  const accounts = new Hono<AppEnv>();
  accounts.post(
    "/:id/cheques",
    operation({
      tag: "fees",
      auth: "business",
      summary:
        "Take a cheque or demand draft (amount in rupees): one dated today or earlier is receipted at once (subject to realisation) and held; a post-dated one is held, unreceipted, in the PDC register until it is deposited",
      body: ChequeInput,
      responses: {
        201: CHEQUE,
        400: "Bad input: no number or bank, a bad date, a cheque more than three months old or too far ahead, no amount or a negative one",
        404: "No such account, or not one the caller manages",
        409: "More than is owed (for a post-dated cheque: beyond the post-dated cheques already held), or nothing is owed",
      },
    }),
    async (c) => {
      const id = c.req.param("id");
      const owner = isUuid(id) ? await services.feeAccounts.centerOf(id) : null;
      const { user } = await standing(c, owner?.centerId ?? null, null, FEE_ACCOUNT_NOT_FOUND);
      const cheque = await services.feeCheques.take(user.id, owner!.centerId, id, await jsonBody(c));
      return c.json({ cheque }, 201);
    },
  );

  const cheques = new Hono<AppEnv>();
  cheques.get(
    "/",
    operation({
      tag: "fees",
      auth: "business",
      summary:
        "The PDC register: the institute's cheques and DDs by their dates, with their receipts and every step (of one status when given)",
      responses: { 200: "{cheques: [...]} (each as in POST /fee-accounts/{id}/cheques)", ...DENIED },
    }),
    input("query", ChequesQuery),
    async (c) => {
      const { centerId, status } = c.req.valid("query");
      const { membership } = await authorize(c, db, "fees.manage", centerId ?? requestCenterId(c));
      return c.json({ cheques: await services.feeCheques.list(membership.centerId, status) });
    },
  );
  cheques.post(
    "/:id/status",
    operation({
      tag: "fees",
      auth: "business",
      summary:
        "A cheque's next step: held → deposited (a post-dated one is receipted then, not before its date) → cleared or bounced (its receipt reversed, the institute's bounce fee charged on the oldest open due), or held → returned (given back; a receipted one has its receipt reversed). Every step is kept with who took it and a note",
      body: ChequeStatusInput,
      responses: {
        200: CHEQUE,
        400: "Bad input: an unknown status, a note too long",
        404: "No such cheque, or not one the caller manages",
        409: "A move the cheque cannot make from where it is, a post-dated cheque deposited before its date, a stale cheque, or more than is now owed",
      },
    }),
    async (c) => {
      const id = c.req.param("id");
      const centerId = isUuid(id) ? await services.feeCheques.centerOf(id) : null;
      const { user } = await standing(c, centerId, null, CHEQUE_NOT_FOUND);
      return c.json({ cheque: await services.feeCheques.move(user.id, centerId!, id, await jsonBody(c)) });
    },
  );

  const receipts = new Hono<AppEnv>();
  receipts.get(
    "/:id/pdf",
    operation({
      tag: "fees",
      auth: "signed-in",
      summary:
        "A receipt as a PDF Receipt Voucher (A4, or format=thermal for an 80 mm front-desk printer): the institute with its GSTIN, the student, what each due received, the amount in words and the GST included; a reversed receipt is stamped REVERSED. For the institute's owners and staff and the student it is for",
      responses: {
        200: { description: "The PDF", content: ["application/pdf"] },
        404: "No such receipt, or not one the caller manages or owns",
      },
    }),
    input("query", ReceiptPdfQuery),
    async (c) => {
      requireAuth(c);
      const id = c.req.param("id");
      const receipt = isUuid(id) ? await services.feeDesk.receiptJson(id).catch(() => null) : null;
      const owner = receipt ? await services.feeAccounts.centerOf(receipt.accountId) : null;
      await standing(c, owner?.centerId ?? null, owner?.studentId ?? null, FEE_RECEIPT_NOT_FOUND);
      const { format } = c.req.valid("query");
      const { filename, bytes } = await services.feeReceiptPdfs.pdf(id, format);
      return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
        "Content-Type": "application/pdf",
        "Content-Disposition": `inline; filename="${filename}"`,
        "Cache-Control": "private, no-store",
      });
    },
  );

  const settings = new Hono<AppEnv>();
  settings.get(
    "/",
    operation({
      tag: "fees",
      auth: "business",
      summary:
        "The institute's fee settings (the defaults until it saves them): reminder days, when an overdue student is a defaulter and its written policy for them, the bounce fee in rupees, part payments online",
      responses: { 200: SETTINGS, ...DENIED },
    }),
    input("query", FeeSettingsQuery),
    async (c) => {
      const { centerId } = c.req.valid("query");
      const { membership } = await authorize(c, db, "fees.manage", centerId ?? requestCenterId(c));
      return c.json({ settings: await services.feeSettings.get(membership.centerId) });
    },
  );
  settings.put(
    "/",
    operation({
      tag: "fees",
      auth: "business",
      summary:
        "Save the institute's fee settings, all of them (an empty defaulter policy is none). defaulterHoldsNewContent enforces the written policy: a defaulter is held back from batch lectures and content added after they became one, until they pay; never a test or series",
      body: FeeSettingsInput,
      responses: {
        200: SETTINGS,
        400: "Bad input: a number of days out of its range, a negative bounce fee, a policy too long, holding back content without a written policy",
        ...DENIED,
      },
    }),
    async (c) => {
      requireAuth(c);
      // Read first: bad input is a 400 naming its field, whoever asks, before the institute is looked for.
      const body = await jsonBody(c);
      const { centerId } = parseWith(FeeSettingsInput, body);
      const { membership } = await authorize(c, db, "fees.manage", centerId ?? requestCenterId(c));
      return c.json({ settings: await services.feeSettings.save(membership.centerId, body) });
    },
  );

  return { accounts, cheques, receipts, settings };
}
