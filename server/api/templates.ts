import { Hono } from "hono";
import * as v from "valibot";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { TEMPLATE_IDS } from "../../tenants/types.ts";
import { input, operation } from "./openapi.ts";
import { requireBusinessCenter } from "./business-context.ts";

export const ApplyTemplateInput = v.object({
  templateId: v.picklist(TEMPLATE_IDS, "Please choose a template: t1, t2, t3 or t4"),
  centerId: v.optional(v.pipe(v.string(), v.uuid("Unknown institute"))),
});

/** POST /api/templates/apply. */
export function templatesRouter({ services, database }: AppDeps) {
  const api = new Hono<AppEnv>();
  api.post(
    "/apply",
    operation({
      tag: "templates",
      auth: "business",
      summary: "Use a template (t1–t4) for the institute's website",
      responses: {
        200: "{success, alreadyApplied, templateId}",
        400: "Unknown template",
        403: "Not a business, or no active plan",
        404: "No institute",
      },
    }),
    input("json", ApplyTemplateInput),
    async (c) => {
      const choice = c.req.valid("json");
      const { user, center } = await requireBusinessCenter(c, services, database.db, "site.edit", choice.centerId);
      const { alreadyApplied } = await services.sites.applyTemplate(center, choice.templateId, user.id);
      return c.json({ success: true, alreadyApplied, templateId: choice.templateId });
    },
  );
  return api;
}
