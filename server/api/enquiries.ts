import { Hono, type Context } from "hono";
import * as v from "valibot";
import { pageParam } from "#common/validation/paging.ts";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { jsonBody, notFound, parseWith } from "../http/errors.ts";
import { EnquiryInput, ENQUIRY_STATUSES } from "#common/validation/enquiry.ts";
import { toEnquiryJson } from "../services/enquiries.ts";
import { RATE_RULES } from "../services/rate-limit.ts";
import { requestMeta } from "../middleware/client-ip.ts";
import { input, operation } from "./openapi.ts";
import { requireBusinessCenter } from "./business-context.ts";
import { idParam } from "./guards.ts";

const ENQUIRY_NOT_FOUND = "Enquiry not found";
export const ENQUIRY_THANKS = "Thank you! We have received your enquiry and will call you back soon.";

const StatusInput = v.object({ status: v.picklist(ENQUIRY_STATUSES, "Status must be new, contacted or enrolled") });
const ListQuery = v.object({
  status: v.optional(
    v.pipe(
      v.picklist(ENQUIRY_STATUSES, "Status must be new, contacted or enrolled"),
      v.description("new, contacted or enrolled"),
    ),
  ),
  page: pageParam,
  centerId: v.optional(v.pipe(v.string(), v.uuid("Unknown institute"), v.description("which of your institutes"))),
});

/** The enquiry flow shared by the API and the site's plain-HTML form post. */
export async function submitEnquiry(
  deps: Pick<AppDeps, "services" | "env">,
  c: Context<AppEnv>,
  centerId: string,
  input: unknown,
) {
  const data = parseWith(EnquiryInput, input);
  await deps.services.accounts.limit(RATE_RULES.enquiryIp, requestMeta(c, deps.env.TRUST_PROXY).ip);
  return deps.services.enquiries.create(centerId, data);
}

export function enquiriesRouter(deps: AppDeps) {
  const { services } = deps;
  const api = new Hono<AppEnv>();

  api.post(
    "/",
    operation({
      tag: "enquiries",
      auth: "public",
      summary: "Leave an enquiry on an institute's site (its domain decides the institute)",
      body: EnquiryInput,
      responses: {
        201: "{success, message, enquiry}",
        400: "Invalid input",
        404: "Not an institute's domain",
        429: "Rate limited",
      },
    }),
    async (c) => {
      const site = c.get("site");
      if (site.kind !== "tenant") throw notFound("Enquiries are sent from an institute's website.");
      const body = await jsonBody(c);
      const row = await submitEnquiry(deps, c, site.center.id, body);
      return c.json({ success: true, message: ENQUIRY_THANKS, enquiry: toEnquiryJson(row) }, 201);
    },
  );

  api.get(
    "/",
    operation({
      tag: "enquiries",
      auth: "business",
      summary: "The institute's leads, newest first (50 a page)",
      responses: { 200: "{enquiries, total, page}", 403: "Not a business", 404: "No institute" },
    }),
    input("query", ListQuery),
    async (c) => {
      const query = c.req.valid("query");
      const { center } = await requireBusinessCenter(c, services, deps.database.db, "leads.manage", query.centerId);
      const perPage = 50;
      const { rows, total } = await services.enquiries.list(center.id, {
        status: query.status,
        limit: perPage,
        offset: (query.page - 1) * perPage,
      });
      return c.json({ enquiries: rows.map(toEnquiryJson), total, page: query.page });
    },
  );

  api.patch(
    "/:id",
    operation({
      tag: "enquiries",
      auth: "business",
      summary: "Change a lead's status",
      body: StatusInput,
      responses: { 200: "{enquiry}", 400: "Invalid status", 404: "Not your lead" },
    }),
    async (c) => {
      const { center } = await requireBusinessCenter(
        c,
        services,
        deps.database.db,
        "leads.manage",
        c.req.query("centerId"),
      );
      const id = idParam(c, ENQUIRY_NOT_FOUND);
      const { status } = parseWith(StatusInput, await jsonBody(c));
      const row = await services.enquiries.setStatus(center.id, id, status);
      if (!row) throw notFound(ENQUIRY_NOT_FOUND);
      return c.json({ enquiry: toEnquiryJson(row) });
    },
  );

  return api;
}
