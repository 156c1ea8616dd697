import { Hono } from "hono";
import type { AppEnv } from "../http/types.ts";
import type { AppDeps } from "../app.ts";
import { allow } from "./guards.ts";
import { input, operation } from "./openapi.ts";
import { NO_SUBSCRIPTION, requireBusinessCenter } from "./business-context.ts";
import type { Context } from "hono";
import type { Services } from "../services/index.ts";
import { notFound } from "../http/errors.ts";
import {
  InstituteLanguageQuery,
  InstituteLanguageSchema,
  MESSAGE_LANGUAGE_TEXTS,
} from "#common/validation/message-language.ts";

/**
 * The owner's institute named by `centerId` (else their newest). Naming one that is not theirs is
 * refused rather than answered for another of theirs: a setting never lands on the wrong institute.
 */
async function ownersInstitute(c: Context<AppEnv>, services: Services, centerId: string | undefined) {
  const { center } = await requireBusinessCenter(c, services, centerId);
  if (centerId && center.id !== centerId) throw notFound(UNKNOWN_INSTITUTE);
  return center;
}

const UNKNOWN_INSTITUTE = "Unknown institute";

/** /api/institute: an institute's settings, for its owner (the institute they pick, else their newest). */
export function instituteRouter({ services }: AppDeps) {
  const api = new Hono<AppEnv>();
  api.get(
    "/message-language",
    operation({
      tag: "centers",
      auth: "business",
      summary:
        "The language of the messages sent on the institute's behalf to those who chose none themselves: en (the default) or hi",
      responses: { 200: "{language}", 404: `${NO_SUBSCRIPTION}; or ${UNKNOWN_INSTITUTE}` },
    }),
    allow("business"),
    input("query", InstituteLanguageQuery),
    async (c) => {
      const center = await ownersInstitute(c, services, c.req.valid("query").centerId);
      c.header("Cache-Control", "no-store");
      return c.json({ language: await services.messageLanguages.ofInstitute(center.id) });
    },
  );
  api.put(
    "/message-language",
    operation({
      tag: "centers",
      auth: "business",
      summary:
        "Choose the language of the institute's messages (e-mail, WhatsApp, SMS): en or hi; a person's own choice still wins",
      responses: {
        200: "{success, message, language}",
        400: MESSAGE_LANGUAGE_TEXTS.instituteInvalid,
        404: `${NO_SUBSCRIPTION}; or ${UNKNOWN_INSTITUTE}`,
      },
    }),
    allow("business"),
    input("json", InstituteLanguageSchema),
    async (c) => {
      const body = c.req.valid("json");
      const center = await ownersInstitute(c, services, body.centerId);
      const language = await services.messageLanguages.setForInstitute(center.id, body);
      return c.json({ success: true, message: MESSAGE_LANGUAGE_TEXTS.instituteSaved(language), language });
    },
  );
  return api;
}
