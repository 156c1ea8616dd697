import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { jsonBody, parseWith } from "../http/errors.ts";
import { operation } from "./openapi.ts";
import { requireAuth } from "./guards.ts";
import { authorize, requestCenterId } from "./member-guard.ts";
import { ScholarshipInput } from "#common/validation/fee-scholarships.ts";

/**
 * Scholarships from a mock test's rank slabs (issue 42 §2): `POST /api/fees/scholarships`, for the
 * institute's owners and staff (fees.manage).
 */
export function feeScholarshipsRouter({ services, database }: AppDeps) {
  const router = new Hono<AppEnv>();
  router.post(
    "/scholarships",
    operation({
      tag: "fees",
      auth: "business",
      summary:
        'Scholarships by the institute\'s own admission-cum-scholarship test: for one of its ranked mock tests and a fee plan, every account under the plan whose student sat the test (their best rank) gets the percent of the slab (rank from–to) their rank is in, as a scholarship discount stacked first in the fixed order with the 100 % cap, on what is still unpaid, with its reason ("Rank 12 in …") and the caller as approver. Once per account: one that already has a scholarship is skipped, and so is a rank in no slab',
      body: ScholarshipInput,
      responses: {
        200: "{awards: [{accountId, student: {_id, name}, rank, percent, amount, skipped}]} (amount in rupees; skipped: why, or null)",
        400: "Bad input: no slabs, overlapping slabs, a percent above 100, a rank below 1",
        403: "No role in this institute, or a role that does not allow this (fees.manage: owners and staff)",
        404: "No such mock test or fee plan in the institute (or no such institute)",
        409: "The test has no ranks yet",
      },
    }),
    async (c) => {
      requireAuth(c);
      const body = await jsonBody(c);
      const { centerId } = parseWith(ScholarshipInput, body);
      const { user, membership } = await authorize(c, database.db, "fees.manage", centerId ?? requestCenterId(c));
      return c.json({ awards: await services.feeScholarships.apply(user.id, membership.centerId, body) });
    },
  );
  return router;
}
