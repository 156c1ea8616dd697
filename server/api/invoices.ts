import { Hono } from "hono";
import * as v from "valibot";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { input, operation } from "./openapi.ts";
import { allow, requireAuth } from "./guards.ts";
import { requireBusinessCenter } from "./business-context.ts";
import { invoicesCsv } from "../invoices/csv.ts";
import { invoiceFileName } from "../invoices/pdf.ts";
import { INVOICE_TEXTS } from "#common/invoices.ts";

/** A calendar day that exists: Date.parse would take 2026-02-30 as 2 March. */
const isDay = (s: string) => {
  const at = Date.parse(`${s}T00:00:00Z`);
  return !Number.isNaN(at) && new Date(at).toISOString().slice(0, 10) === s;
};

const day = v.pipe(
  v.string(INVOICE_TEXTS.range),
  v.regex(/^\d{4}-\d{2}-\d{2}$/, INVOICE_TEXTS.range),
  v.check(isDay, INVOICE_TEXTS.range),
);

/**
 * A date field the form may leave blank: the export form's hints promise "Blank: from the first." and
 * "Blank: up to today.", and a GET form sends a blank date as `from=`, so "" means no bound at all.
 */
const optionalDay = (description: string) =>
  v.optional(
    v.pipe(
      v.union([v.literal(""), day], INVOICE_TEXTS.range),
      v.transform((s) => s || undefined),
      v.description(description),
    ),
  );

/** The export's period, in IST days: `from` up to and including `to`; a blank or missing bound is open. */
const ExportQuery = v.pipe(
  v.object({
    from: optionalDay("first day (YYYY-MM-DD, IST); blank or missing: from the first"),
    to: optionalDay("last day, included (YYYY-MM-DD, IST); blank or missing: up to today"),
    centerId: v.optional(
      v.pipe(v.string(), v.maxLength(36), v.description("an owner's institute (else their current one)")),
    ),
  }),
  v.check((q) => !q.from || !q.to || q.from <= q.to, INVOICE_TEXTS.range),
);

const istMidnight = (d: string, plusDays = 0) => new Date(Date.parse(`${d}T00:00:00+05:30`) + plusDays * 86_400_000);

/** /api/invoices: a buyer's GST invoices and credit notes, their PDFs, and the sellers' CSV export (issue 30 §6). */
export function invoicesRouter({ services, database }: AppDeps) {
  const api = new Hono<AppEnv>();
  api.get(
    "/my",
    operation({
      tag: "invoices",
      auth: "signed-in",
      summary: "The caller's invoices, bills of supply and credit notes, newest first",
      responses: {
        200: "{invoices: [{id, kind, number, issuedAt, description, sellerName, total, currency, orderId, against, pdf}]}",
      },
    }),
    async (c) => {
      const { user } = requireAuth(c);
      c.header("Cache-Control", "private, no-store");
      return c.json({ invoices: await services.invoices.mine(user.id) });
    },
  );
  api.get(
    "/export",
    operation({
      tag: "invoices",
      auth: "signed-in",
      summary:
        "A seller's documents as CSV for their accountant: an admin gets the platform's, an institute's owner their institute's",
      responses: {
        200: { description: "The spreadsheet", content: ["text/csv"] },
        400: INVOICE_TEXTS.range,
        403: "Neither an admin nor an institute's owner",
        404: "No institute of the owner's",
      },
    }),
    allow("admin", "business"),
    input("query", ExportQuery),
    async (c) => {
      const { user } = requireAuth(c);
      const q = c.req.valid("query");
      const seller =
        user.role === "admin" && c.get("site").kind === "platform"
          ? null
          : (await requireBusinessCenter(c, services, database.db, "billing.manage", q.centerId)).center.id;
      const rows = await services.invoices.ofSeller(seller, {
        from: q.from ? istMidnight(q.from) : undefined,
        to: q.to ? istMidnight(q.to, 1) : undefined,
      });
      const name = `invoices-${q.from ?? "all"}${q.to ? `-to-${q.to}` : ""}.csv`;
      return c.body(invoicesCsv(rows), 200, {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="${name}"`,
        "Cache-Control": "private, no-store",
      });
    },
  );
  api.get(
    "/:id/pdf",
    operation({
      tag: "invoices",
      auth: "signed-in",
      summary: "One document as PDF: for its buyer, the owner of the institute that issued it, and admins",
      responses: {
        200: { description: "The PDF", content: ["application/pdf"] },
        404: INVOICE_TEXTS.notFound,
      },
    }),
    async (c) => {
      const { user } = requireAuth(c);
      const row = await services.invoices.viewable(c.req.param("id"), user);
      const pdf = await services.invoices.pdf(row);
      return c.body(pdf as Uint8Array<ArrayBuffer>, 200, {
        "Content-Type": "application/pdf",
        "Content-Disposition": `inline; filename="${invoiceFileName(row)}"`,
        "Cache-Control": "private, no-store",
      });
    },
  );
  return api;
}
