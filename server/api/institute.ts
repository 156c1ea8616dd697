import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { requireAuth } from "./guards.ts";
import { input, operation } from "./openapi.ts";
import { NO_SUBSCRIPTION, allowBusinessArea, requireBusinessCenter } from "./business-context.ts";
import type { Context } from "hono";
import type { Action } from "#common/memberships.ts";
import { HttpError, notFound } from "../http/errors.ts";
import { flashToastCookie } from "../http/flash-toast.ts";
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
  api.post(
    "/payment-account/razorpay",
    operation({
      tag: "centers",
      auth: "business",
      summary:
        "Start 'Connect with Razorpay' (Razorpay's partner OAuth): the authorize URL to send the owner's browser to, with a state bound to this session and institute (single use, 10 minutes). Razorpay sends the browser back to /api/institute/payment-account/razorpay/callback",
      responses: {
        200: "{success, url}",
        404: `${NO_SUBSCRIPTION}; or ${UNKNOWN_INSTITUTE}`,
        409: MERCHANT_TEXTS.alreadyConnected,
        503: `${MERCHANT_TEXTS.oauthUnavailable}; or ${MERCHANT_TEXTS.noSecretsKey}; or ${MERCHANT_TEXTS.paymentsOff}`,
      },
    }),
    allowBusinessArea(services),
    input("json", CenterQuery),
    async (c) => {
      const center = await ownersInstitute(c, deps, "payments.connect", c.req.valid("json").centerId);
      const { user, session } = requireAuth(c);
      const url = await services.payments.merchants.startOAuth({ userId: user.id, sessionId: session.id }, center.id);
      c.header("Cache-Control", "no-store");
      return c.json({ success: true, url });
    },
  );
  api.get(
    "/payment-account/razorpay/callback",
    operation({
      tag: "centers",
      auth: "business",
      summary:
        "Where Razorpay sends the owner back ('Connect with Razorpay'): checks the state (this session's, unexpired, unused), exchanges the code for the account's tokens and connects it. Browsers are sent to Website Details with the outcome; a caller asking for JSON gets it",
      query: {
        code: "the authorisation code Razorpay gives",
        state: "the state of 'Connect with Razorpay', as Razorpay hands it back",
        error: "set by Razorpay when the owner denied access",
      },
      responses: {
        200: "{success, message, account: MerchantAccount} (a caller that accepts only JSON)",
        303: {
          description:
            "A browser (any caller not asking for JSON only) is sent to /business/site#payments, the outcome in a toast cookie",
          content: [],
        },
        400: `${MERCHANT_TEXTS.stateForged}; ${MERCHANT_TEXTS.stateExpired}; ${MERCHANT_TEXTS.stateUsed}; ${MERCHANT_TEXTS.codeRefused}; ${MERCHANT_TEXTS.oauthDenied}`,
        401: MERCHANT_TEXTS.signInFirst,
        403: MERCHANT_TEXTS.stateNotYours,
        409: `${MERCHANT_TEXTS.usedElsewhere}; or ${MERCHANT_TEXTS.alreadyConnected}`,
        502: MERCHANT_TEXTS.oauthGatewayDown,
      },
    }),
    async (c) => {
      const wantsJson =
        /application\/json/.test(c.req.header("accept") ?? "") && !/text\/html/.test(c.req.header("accept") ?? "");
      const pick = (name: string) => c.req.query(name)?.slice(0, 2_000);
      c.header("Cache-Control", "no-store");
      c.header("Referrer-Policy", "no-referrer");
      try {
        const auth = c.get("auth");
        // The state names who may finish (the person, session and institute that passed the policy at the start).
        if (!auth) throw new HttpError(401, MERCHANT_TEXTS.signInFirst);
        const { account } = await services.payments.merchants.finishOAuth(
          { userId: auth.user.id, sessionId: auth.session.id },
          { code: pick("code"), state: pick("state"), error: pick("error") },
        );
        if (wantsJson) return c.json({ success: true, message: MERCHANT_TEXTS.connectedToast, account });
        c.header(
          "Set-Cookie",
          flashToastCookie({
            kind: "success",
            title: MERCHANT_TEXTS.connectedToast,
            description: "Students can buy your paid items now.",
          }),
          { append: true },
        );
        return c.redirect("/business/site#payments", 303);
      } catch (error) {
        if (!(error instanceof HttpError) || wantsJson) throw error;
        c.header(
          "Set-Cookie",
          flashToastCookie({ kind: "error", title: MERCHANT_TEXTS.couldNotConnect, description: error.message }),
          { append: true },
        );
        return c.redirect("/business/site#payments", 303);
      }
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
