import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { jsonBody, parseWith } from "../http/errors.ts";
import { feeStanding } from "./fee-standing.ts";
import { input, operation } from "./openapi.ts";
import { requireAuth } from "./guards.ts";
import { authorize, requestCenterId } from "./member-guard.ts";
import { isUuid } from "#common/validation/ids.ts";
import {
  DeskPaymentInput,
  FEE_ACCOUNT_NOT_FOUND,
  FEE_RECEIPT_NOT_FOUND,
  FeeAccountInput,
  FeeAccountsCsvInput,
  FeeAccountsQuery,
  FeePlanInput,
  FeePlansQuery,
  ReversalInput,
} from "#common/validation/fees.ts";

const DENIED = {
  403: "No role in this institute, or a role that does not allow this (fees.manage: owners and staff)",
  404: "No such institute, none named (centerId, the institute's domain or the header's choice), or another institute's on an institute's domain",
};
const ACCOUNT =
  "{account: {_id, centerId, student: {_id, name, email}, feePlanId, planName, dues: [{_id, label, amount, dueOn, discount, paid, lateFee, waived, balance, overdueDays}], total, discount, paid, lateFee, balance, overdue, createdAt, ledger?: [{_id, dueId, kind, amount, receiptId, reason, discount, at, by}]}}";
const RECEIPT =
  "{receipt: {_id, number, accountId, amount, mode, reference, paidOn, chequeDate, allocations: [{dueId, label, amount}], reversed: {reason, at} | null, createdAt}}";

/**
 * Fees (issue 42, decision 0045): `/api/fee-plans`, `/api/fee-accounts` and `/api/fee-receipts`.
 * An institute's owners and staff (fees.manage) make plans, assign them, take payments at the
 * desk and reverse receipts; a student reads their own accounts and receipts. Amounts are rupees.
 */
export function feesRouters({ services, database }: AppDeps) {
  const db = database.db;
  const { feePlans, feeAccounts, feeDesk, feeCounter } = services;

  const { standing, managerOf } = feeStanding(db);

  const plans = new Hono<AppEnv>();
  plans.post(
    "/",
    operation({
      tag: "fees",
      auth: "business",
      summary:
        "Make a fee plan: fee heads (GST-inclusive, in rupees), a schedule of instalments with last dates that adds up to the heads (one instalment is a lump sum), the GST rate included (18 % unless given) and a late-fee rule (per day or flat, grace days, a cap)",
      body: FeePlanInput,
      responses: {
        201: "{feePlan: {_id, centerId, batchId, name, heads, instalments, total, gstRate, lateFee, createdAt}}",
        400: "Bad input: instalments that do not add up to the heads, a negative or non-numeric amount, dates out of order, an unknown batch",
        ...DENIED,
      },
    }),
    async (c) => {
      requireAuth(c);
      // Read first: bad input is a 400 naming its field, whoever asks, before the institute is looked for.
      const body = await jsonBody(c);
      const { centerId } = parseWith(FeePlanInput, body);
      const { user, membership } = await authorize(c, db, "fees.manage", centerId ?? requestCenterId(c));
      return c.json({ feePlan: await feePlans.create(user.id, membership.centerId, body) }, 201);
    },
  );
  plans.get(
    "/",
    operation({
      tag: "fees",
      auth: "business",
      summary: "The institute's fee plans, newest first",
      responses: { 200: "{feePlans: [...]}", ...DENIED },
    }),
    input("query", FeePlansQuery),
    async (c) => {
      const { centerId } = c.req.valid("query");
      const { membership } = await authorize(c, db, "fees.manage", centerId ?? requestCenterId(c));
      return c.json({ feePlans: await feePlans.list(membership.centerId) });
    },
  );

  const accounts = new Hono<AppEnv>();
  accounts.post(
    "/",
    operation({
      tag: "fees",
      auth: "business",
      summary:
        "Assign a fee plan to one of the institute's students: its instalments become their dues, and discounts (scholarship, sibling, category, staff-child, custom; a percent or an amount, each with a reason) stack in that order, never past 100 %, shared over the dues in proportion",
      body: FeeAccountInput,
      responses: {
        201: ACCOUNT,
        400: "Bad input: a discount above 100 % or with both or neither of percent and amount, no reason, an account that is not the institute's student",
        404: "No such plan in the institute (or no such institute)",
        403: DENIED[403],
        409: "The student already has an account under this plan",
      },
    }),
    async (c) => {
      requireAuth(c);
      const body = await jsonBody(c);
      const { centerId } = parseWith(FeeAccountInput, body);
      const { user, membership } = await authorize(c, db, "fees.manage", centerId ?? requestCenterId(c));
      return c.json({ account: await feeAccounts.assign(user.id, membership.centerId, body) }, 201);
    },
  );
  accounts.post(
    "/bulk",
    operation({
      tag: "fees",
      auth: "business",
      summary:
        "Assign a fee plan to many of the institute's students from a CSV (as batch admission reads one: name,email,phone with a header row; each student found by e-mail, else by a verified number): all or none. Every bad row is named (rows: row number and why): no such account, not a student of the institute, already under this plan, the same student twice",
      body: FeeAccountsCsvInput,
      responses: {
        201: "{accounts: [...] (each as in GET /fee-accounts), assigned: number}",
        400: "Bad input: no plan or CSV, a CSV without its header, bad rows (each named; nobody was assigned)",
        413: "The CSV is too large, or has too many rows or too long a row",
        404: "No such plan in the institute (or no such institute)",
        409: "One of the students was assigned this plan meanwhile (nobody was assigned; send the CSV again)",
        403: DENIED[403],
      },
    }),
    async (c) => {
      requireAuth(c);
      const body = await jsonBody(c);
      const { centerId } = parseWith(FeeAccountsCsvInput, body);
      const { user, membership } = await authorize(c, db, "fees.manage", centerId ?? requestCenterId(c));
      const made = await feeAccounts.assignCsv(user.id, membership.centerId, body);
      return c.json({ accounts: made, assigned: made.length }, 201);
    },
  );
  accounts.get(
    "/",
    operation({
      tag: "fees",
      auth: "signed-in",
      summary:
        "Fee accounts: the institute's (of one student when studentId is given) for its owners and staff; a student's own for a student",
      responses: { 200: "{accounts: [...]} (without ledgers)", ...DENIED },
    }),
    input("query", FeeAccountsQuery),
    async (c) => {
      const { user } = requireAuth(c);
      const { centerId: named, studentId } = c.req.valid("query");
      const centerId = named ?? requestCenterId(c);
      const { manager } = await standing(c, centerId, studentId ?? user.id, "Institute not found");
      return c.json({ accounts: await feeAccounts.list(centerId!, manager ? studentId : user.id) });
    },
  );
  accounts.get(
    "/:id",
    operation({
      tag: "fees",
      auth: "signed-in",
      summary:
        "A fee account with its ledger: every due, discount, payment, late fee, waiver and reversal, oldest first",
      responses: { 200: ACCOUNT, 404: "No such account, or not one the caller manages or owns" },
    }),
    async (c) => {
      const id = c.req.param("id");
      const owner = isUuid(id) ? await feeAccounts.centerOf(id) : null;
      await standing(c, owner?.centerId ?? null, owner?.studentId ?? null, FEE_ACCOUNT_NOT_FOUND);
      return c.json({ account: await feeAccounts.get(owner!.centerId, id) });
    },
  );
  accounts.post(
    "/:id/payments",
    operation({
      tag: "fees",
      auth: "business",
      summary:
        "Take a payment at the desk (cash, cheque, DD, UPI or bank transfer, with its reference): late fees earned by the day of payment are posted, the money settles the oldest dues first, and a numbered receipt is issued at once. A cheque or DD (number as reference, its bank and date) goes into the PDC register: receipted now when current, held without a receipt when post-dated",
      body: DeskPaymentInput,
      responses: {
        201: `${RECEIPT.slice(0, -1)} | null, cheque: {_id, kind, number, bank, chequeDate, amount, status, receipt} | null}`,
        400: "Bad input: no amount or a negative one, an unknown mode, no reference for a non-cash payment, no cheque date or bank, a date in the future, a stale cheque",
        404: "No such account, or not one the caller manages",
        409: "More than is owed (advances are not kept), or nothing is owed",
      },
    }),
    async (c) => {
      const id = c.req.param("id");
      const owner = isUuid(id) ? await feeAccounts.centerOf(id) : null;
      const { user } = await managerOf(c, owner?.centerId ?? null, FEE_ACCOUNT_NOT_FOUND);
      return c.json(await feeCounter.take(user.id, owner!.centerId, id, await jsonBody(c)), 201);
    },
  );

  const receipts = new Hono<AppEnv>();
  receipts.get(
    "/:id",
    operation({
      tag: "fees",
      auth: "signed-in",
      summary: "A receipt: its number, amount, mode, what it settled and whether it was reversed",
      responses: { 200: RECEIPT, 404: "No such receipt, or not one the caller manages or owns" },
    }),
    async (c) => {
      const id = c.req.param("id");
      const receipt = isUuid(id) ? await feeDesk.receiptJson(id).catch(() => null) : null;
      const owner = receipt ? await feeAccounts.centerOf(receipt.accountId) : null;
      await standing(c, owner?.centerId ?? null, owner?.studentId ?? null, FEE_RECEIPT_NOT_FOUND);
      return c.json({ receipt });
    },
  );
  receipts.post(
    "/:id/reverse",
    operation({
      tag: "fees",
      auth: "business",
      summary:
        "Reverse a receipt, once, with a reason: the payments it made are undone on the dues they settled; the receipt itself is never changed",
      body: ReversalInput,
      responses: {
        200: "{reversal: {receiptId, number, amount, reason, at}}",
        400: "No reason",
        404: "No such receipt, or not one the caller manages",
        409: "Already reversed, or the account was refunded when the student left (closed)",
      },
    }),
    async (c) => {
      const id = c.req.param("id");
      const centerId = isUuid(id) ? await feeDesk.centerOfReceipt(id) : null;
      const { user } = await managerOf(c, centerId, FEE_RECEIPT_NOT_FOUND);
      return c.json({ reversal: await feeDesk.reverse(user.id, centerId!, id, await jsonBody(c)) });
    },
  );

  return { plans, accounts, receipts };
}
