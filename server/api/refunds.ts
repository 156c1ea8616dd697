import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { operation } from "./openapi.ts";
import { allow, idParam, platformOnly, requireAuth } from "./guards.ts";
import { REFUND_TEXTS } from "../services/refunds.ts";

/** The admins' refunds of plan purchases (server/services/refunds.ts). */
export function purchasesRouter({ services }: AppDeps) {
  const api = new Hono<AppEnv>();
  api.post(
    "/:id/refund",
    platformOnly,
    operation({
      tag: "payment",
      auth: "admin",
      summary:
        "Refund a plan purchase within 30 days of its payment (the money-back guarantee), through the gateway, once; the center it paid for ends",
      responses: {
        200: "{success, refund: {_id, amount, currency, status, refundId, createdAt, processedAt}}",
        404: REFUND_TEXTS.notFound,
        409: "Not paid, already refunded or under way, or past the 30 days",
        502: "The payment gateway did not refund it",
      },
    }),
    allow("admin"),
    async (c) => {
      const { user } = requireAuth(c);
      const id = idParam(c, REFUND_TEXTS.notFound);
      return c.json({ success: true, refund: await services.refunds.refund(id, user.id) });
    },
  );
  return api;
}
