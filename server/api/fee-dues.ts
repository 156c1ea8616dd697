import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { input, operation } from "./openapi.ts";
import { authorize, requestCenterId } from "./member-guard.ts";
import { feeStanding } from "./fee-standing.ts";
import { isUuid } from "#common/validation/ids.ts";
import { FEE_ACCOUNT_NOT_FOUND } from "#common/validation/fees.ts";
import { CollectionsQuery, DefaultersQuery, OutstandingQuery } from "#common/validation/fee-dues.ts";

const DENIED = {
  403: "No role in this institute, or a role that does not allow this (fees.manage: owners and staff)",
  404: "No such institute, none named (centerId, the institute's domain or the header's choice), or another institute's on an institute's domain",
};
const COLLECTIONS =
  "{from, to, receipts: [{_id, number, accountId, studentId, name, planName, amount, mode, reference, paidOn, reversed: {reason, at} | null}], byDay: [{date, amount, count}], byMode: [{mode, amount, count}], total, count, reversed: {amount, count}}";

/**
 * Dues at a glance (issue 42 §5): `/api/fees/collections`, `/api/fees/defaulters` (with the
 * one-click reminder) and `/api/fees/outstanding`, for an institute's owners and staff
 * (fees.manage). Every figure is derived from the ledger on today's India date; amounts are rupees.
 * The services are read per request, so a test's clock replaces them.
 */
export function feeDuesRouter({ services, database }: AppDeps) {
  const db = database.db;
  const { managerOf } = feeStanding(db);
  const api = new Hono<AppEnv>();

  api.get(
    "/collections",
    operation({
      tag: "fees",
      auth: "business",
      summary:
        "The institute's collection: receipts paid from–to (India dates; neither: this month so far), newest first, with totals by day and by mode. A reversed receipt is listed with its reason and never counted. format=csv or Accept: text/csv: the receipts as a CSV file for the accountant",
      responses: { 200: { description: COLLECTIONS, content: ["application/json", "text/csv"] }, ...DENIED },
    }),
    input("query", CollectionsQuery),
    async (c) => {
      const query = c.req.valid("query");
      const { membership } = await authorize(c, db, "fees.manage", query.centerId ?? requestCenterId(c));
      const report = await services.feeDues.collections(membership.centerId, query);
      const accept = c.req.header("accept") ?? "";
      if (query.format === "csv" || (query.format === undefined && /(^|,)\s*text\/csv/i.test(accept)))
        return c.body(services.feeDues.collectionsCsv(report), 200, {
          "Content-Type": "text/csv; charset=utf-8",
          "Content-Disposition": `attachment; filename="collections-${report.from}-to-${report.to}.csv"`,
          "Cache-Control": "no-store",
        });
      return c.json(report);
    },
  );

  api.get(
    "/defaulters",
    operation({
      tag: "fees",
      auth: "business",
      summary:
        "Students with money overdue by more than overdueDays days (else the institute's setting, 15 by default) on a fee account: what is overdue on it, its oldest unpaid last date and for how many days, longest first",
      responses: {
        200: "{overdueDays, students: [{studentId, name, accountId, planName, overdue, oldestDueOn, daysOverdue}]}",
        ...DENIED,
      },
    }),
    input("query", DefaultersQuery),
    async (c) => {
      const { centerId, overdueDays } = c.req.valid("query");
      const { membership } = await authorize(c, db, "fees.manage", centerId ?? requestCenterId(c));
      return c.json(await services.feeDues.defaulters(membership.centerId, overdueDays));
    },
  );

  api.post(
    "/defaulters/:id/remind",
    operation({
      tag: "fees",
      auth: "business",
      summary:
        "Remind a defaulter now (the dues page's Remind): the fee-reminder-after message with what is overdue on fee account {id} and the student's Fees page to pay at, on WhatsApp, SMS and e-mail; once per India day",
      responses: {
        201: "{reminder: {accountId, studentId, name, dueIds, amount, on}}",
        404: "No such account, or not one the caller manages",
        409: "Nothing on the account is overdue, or it was already reminded today",
      },
    }),
    async (c) => {
      const id = c.req.param("id");
      const owner = isUuid(id) ? await services.feeAccounts.centerOf(id) : null;
      await managerOf(c, owner?.centerId ?? null, FEE_ACCOUNT_NOT_FOUND);
      return c.json({ reminder: await services.feeReminders.remindNow(owner!.centerId, id) }, 201);
    },
  );

  api.get(
    "/outstanding",
    operation({
      tag: "fees",
      auth: "business",
      summary:
        "What is owed to the institute today and how much of it is overdue, by batch (each account under its student's current batch with that fee plan, else their first current batch, else 'Not in a batch') or by student; only rows that owe, largest first",
      responses: { 200: "{by, rows: [{_id, name, accounts, balance, overdue}], balance, overdue}", ...DENIED },
    }),
    input("query", OutstandingQuery),
    async (c) => {
      const { centerId, by } = c.req.valid("query");
      const { membership } = await authorize(c, db, "fees.manage", centerId ?? requestCenterId(c));
      return c.json(await services.feeDues.outstanding(membership.centerId, by));
    },
  );

  return api;
}
