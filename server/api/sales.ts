import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { operation } from "./openapi.ts";
import { idParam, requireRole } from "./guards.ts";
import { salesCsv } from "../services/sales-csv.ts";

/** GET /api/sales/my and /api/sales/content/{id} (spec §7), from paid content orders only. */
export function salesRouter({ services }: AppDeps) {
  const api = new Hono<AppEnv>();

  api.get(
    "/my",
    operation({
      tag: "sales",
      auth: "creator",
      summary: "The caller's sales: totals, one row per content, revenue by day and month, latest sales",
      query: { format: "csv for a spreadsheet of the per-content rows" },
      responses: {
        200: {
          description:
            "{sales: SalesRow[], totalRevenue, totalOrders, daily, monthly, recent}, or with format=csv a spreadsheet",
          content: ["application/json", "text/csv"],
        },
      },
    }),
    async (c) => {
      const { user } = requireRole(c, "creator");
      const summary = await services.sales.summary(user.id);
      if (c.req.query("format") === "csv") {
        const day = new Date().toISOString().slice(0, 10);
        return c.body(salesCsv(summary.rows), 200, {
          "Content-Type": "text/csv; charset=utf-8",
          "Content-Disposition": `attachment; filename="sales-${day}.csv"`,
          "Cache-Control": "private, no-store",
        });
      }
      const { rows, ...figures } = summary;
      return c.json({ sales: rows, ...figures });
    },
  );

  api.get(
    "/content/:id",
    operation({
      tag: "sales",
      auth: "creator",
      summary: "Sales of one of the caller's contents",
      responses: { 200: "{sales: SalesRow}", 403: "Another creator's content", 404: "Not found" },
    }),
    async (c) => {
      const { user } = requireRole(c, "creator");
      const content = await services.content.getForOwner(user, idParam(c, "Content not found"));
      const [row] = await services.sales.rows(content.creatorId, content.id);
      return c.json({ sales: row ?? { contentId: content.id, title: content.title, totalSales: 0, totalEarnings: 0 } });
    },
  );

  return api;
}
