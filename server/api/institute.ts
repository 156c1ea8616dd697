import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../http/types.ts";
import { requireAuth } from "./guards.ts";
import { input, operation } from "./openapi.ts";
import { NO_SUBSCRIPTION, allowBusinessArea, requireBusinessCenter } from "./business-context.ts";
import type { Context } from "hono";
import type { Action } from "#common/memberships.ts";
import { notFound } from "../http/errors.ts";
import {
  InstituteLanguageQuery,
  InstituteLanguageSchema,
  MESSAGE_LANGUAGE_TEXTS,
} from "#common/validation/message-language.ts";
import { ConnectKeysSchema, MERCHANT_TEXTS } from "#common/validation/merchant-account.ts";
import * as v from "valibot";

const UNKNOWN_INSTITUTE_TEXT = "Unknown institute";
const CenterQuery = v.object({
  centerId: v.optional(
    v.pipe(v.string(), v.uuid(UNKNOWN_INSTITUTE_TEXT), v.description("which of your institutes (else your newest)")),
  ),
});

/**
 * The owner's institute named by `centerId` (else their newest). Naming one that is not theirs is
 * refused rather than answered for another of theirs: a setting never lands on the wrong institute.
 */
async function ownersInstitute(
  c: Context<AppEnv>,
  { services, database }: Pick<AppDeps, "services" | "database">,
  action: Action,
  centerId: string | undefined,
) {
  const { center } = await requireBusinessCenter(c, services, database.db, action, centerId);
  if (centerId && center.id !== centerId) throw notFound(UNKNOWN_INSTITUTE);
  return center;
}

const UNKNOWN_INSTITUTE = UNKNOWN_INSTITUTE_TEXT;

/** /api/institute: an institute's settings, for its owner (the institute they pick, else their newest). */
export function instituteRouter(deps: AppDeps) {
  const { services } = deps;
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
    allowBusinessArea(services),
    input("query", InstituteLanguageQuery),
    async (c) => {
      const center = await ownersInstitute(c, deps, "site.edit", c.req.valid("query").centerId);
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
    allowBusinessArea(services),
    input("json", InstituteLanguageSchema),
    async (c) => {
      const body = c.req.valid("json");
      const center = await ownersInstitute(c, deps, "site.edit", body.centerId);
      const language = await services.messageLanguages.setForInstitute(center.id, body);
      return c.json({ success: true, message: MESSAGE_LANGUAGE_TEXTS.instituteSaved(language), language });
    },
  );

  api.get(
    "/payment-account",
    operation({
      tag: "centers",
      auth: "business",
      summary:
        "The institute's own Razorpay account its students pay (decision 0040): the connected one (null until connected: its paid items are not on sale) and earlier ones, each with the webhook URL to set in Razorpay; never a secret",
      responses: { 200: "{connected: MerchantAccount | null, accounts: [MerchantAccount]}", 404: NO_SUBSCRIPTION },
    }),
    allowBusinessArea(services),
    input("query", CenterQuery),
    async (c) => {
      const center = await ownersInstitute(c, deps, "payments.connect", c.req.valid("query").centerId);
      const accounts = await services.payments.merchants.list(center.id);
      c.header("Cache-Control", "no-store");
      return c.json({ connected: accounts.find((a) => a.status === "connected") ?? null, accounts });
    },
  );
  api.put(
    "/payment-account",
    operation({
      tag: "centers",
      auth: "business",
      summary:
        "Connect the institute's Razorpay account by its key id, key secret and webhook secret: the keys are checked with Razorpay first, the secrets stored encrypted and never shown again",
      responses: {
        200: "{success, message, account: MerchantAccount}",
        400: `${MERCHANT_TEXTS.wrongKeys}; or invalid input`,
        404: NO_SUBSCRIPTION,
        409: `${MERCHANT_TEXTS.usedElsewhere}; or ${MERCHANT_TEXTS.alreadyConnected}`,
        502: MERCHANT_TEXTS.gatewayDown,
        503: `${MERCHANT_TEXTS.noSecretsKey}; or ${MERCHANT_TEXTS.paymentsOff}`,
      },
    }),
    allowBusinessArea(services),
    input("json", ConnectKeysSchema),
    async (c) => {
      const body = c.req.valid("json");
      const center = await ownersInstitute(c, deps, "payments.connect", body.centerId);
      const account = await services.payments.merchants.connectWithKeys(requireAuth(c).user.id, center.id, body);
      return c.json({ success: true, message: MERCHANT_TEXTS.connectedToast, account });
    },
  );
  api.delete(
    "/payment-account",
    operation({
      tag: "centers",
      auth: "business",
      summary:
        "Disconnect the institute's Razorpay account: its paid items are not on sale until one is connected again; orders made on it stay verified and refunded through it",
      responses: { 200: "{success, message, account: MerchantAccount}", 404: MERCHANT_TEXTS.notConnectedYet },
    }),
    allowBusinessArea(services),
    input("query", CenterQuery),
    async (c) => {
      const center = await ownersInstitute(c, deps, "payments.connect", c.req.valid("query").centerId);
      const account = await services.payments.merchants.disconnect(requireAuth(c).user.id, center.id);
      return c.json({ success: true, message: MERCHANT_TEXTS.disconnectedToast, account });
    },
  );
  return api;
}
