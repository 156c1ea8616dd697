import { Hono, type Context } from "hono";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { errorBody, HttpError, jsonBody } from "../http/errors.ts";
import { LoginInput, RegisterInput, toPublicUser, tooMany } from "../services/accounts.ts";
import { input, operation } from "./openapi.ts";
import { limitBody } from "../middleware/body-limit.ts";
import { RATE_RULES } from "../services/rate-limit.ts";
import { requestMeta } from "../middleware/client-ip.ts";
import { clearedSessionCookie } from "../auth/cookies.ts";
import { requireAuth } from "./guards.ts";
import { uploadedFile } from "./uploaded-file.ts";
import * as v from "valibot";
import { text } from "#common/validation/account.ts";
import {
  ChangeEmailSchema,
  ChangePasswordSchema,
  ConfirmEmailSchema,
  EMAIL_CHANGE_TEXTS,
  ForgotPasswordSchema,
  RESET_TEXTS,
  ResetPasswordSchema,
} from "#common/validation/account-security.ts";
import { PHONE_TEXTS, PhoneCodeSchema, PhoneSchema, PhoneSignInSchema } from "#common/validation/phone-code.ts";
import { AccountLanguageSchema, MESSAGE_LANGUAGE_TEXTS } from "#common/validation/message-language.ts";

export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;

const RefreshBody = v.object({
  refresh_token: v.pipe(text("No refresh_token"), v.nonEmpty("No refresh_token"), v.maxLength(100, "Refresh failed")),
});

/** POST /register, /login, /refresh, /logout; GET /profile; PUT /avatar (spec §7). */
export function authRouter({ env, services }: AppDeps) {
  const api = new Hono<AppEnv>();
  const meta = (c: Context<AppEnv>) => requestMeta(c, env.TRUST_PROXY);

  api.post(
    "/register",
    operation({
      tag: "auth",
      auth: "public",
      summary: "Create an account (student, creator or business) and sign in",
      body: RegisterInput,
      responses: {
        201: "{user, access_token, refresh_token}",
        400: "Invalid input",
        403: "Admin registration refused",
        409: "Email taken",
        429: "Rate limited",
      },
    }),
    async (c) => {
      const body = await jsonBody(c);
      const m = meta(c);
      const user = await services.accounts.register(body, m);
      const tokens = await services.sessions.issueApiTokens(user.id, c.get("site").host, m);
      return c.json({ user: toPublicUser(user), ...tokens }, 201);
    },
  );

  api.post(
    "/login",
    operation({
      tag: "auth",
      auth: "public",
      summary: "Sign in",
      body: LoginInput,
      responses: {
        200: "{user, access_token, refresh_token}",
        400: "Invalid input",
        401: "Invalid email or password",
        429: "Rate limited",
      },
    }),
    async (c) => {
      const body = await jsonBody(c);
      const m = meta(c);
      const user = await services.accounts.authenticate(body, m);
      const tokens = await services.sessions.issueApiTokens(user.id, c.get("site").host, m);
      return c.json({ user: toPublicUser(user), ...tokens });
    },
  );

  api.post(
    "/forgot",
    operation({
      tag: "auth",
      auth: "public",
      summary:
        "Ask for a password reset link: e-mailed to the account, leading to the site it lives on (single use, 30 minutes). Asked on an institute's site, only its own students get one. The answer is the same, after the same work, whether or not an account uses the address",
      body: ForgotPasswordSchema,
      responses: { 200: `{success, message: "${RESET_TEXTS.sent}"}`, 400: "Invalid email", 429: "Rate limited" },
    }),
    async (c) => {
      await services.passwordResets.request(await jsonBody(c), meta(c));
      return c.json({ success: true, message: RESET_TEXTS.sent });
    },
  );

  api.post(
    "/reset",
    operation({
      tag: "auth",
      auth: "public",
      summary:
        "Set a new password with the token from a reset link, on the site the link leads to; every session, reset link, e-mail change and code of the account is ended",
      body: ResetPasswordSchema,
      responses: {
        200: `{success, message: "${RESET_TEXTS.done}"}`,
        400: `${RESET_TEXTS.invalid}, or a password that is too short or too common`,
      },
    }),
    async (c) => {
      await services.passwordResets.reset(await jsonBody(c), meta(c));
      return c.json({ success: true, message: RESET_TEXTS.done });
    },
  );

  api.put(
    "/password",
    operation({
      tag: "auth",
      auth: "signed-in",
      summary:
        "Change the signed-in account's password (its current password required); every other session of the account is signed out, and the account is told by e-mail",
      body: ChangePasswordSchema,
      responses: {
        200: `{success, message: "${RESET_TEXTS.changed}"}`,
        400: `${RESET_TEXTS.wrongCurrent}, or a new password that is too short or too common`,
        429: "Rate limited",
      },
    }),
    async (c) => {
      const { user, session } = requireAuth(c);
      await services.passwordResets.change(user, session, await jsonBody(c));
      return c.json({ success: true, message: RESET_TEXTS.changed });
    },
  );

  api.post(
    "/phone",
    operation({
      tag: "auth",
      auth: "signed-in",
      summary: "Add a mobile number: a 6-digit code is sent to it on WhatsApp and by SMS (10 minutes, 5 tries)",
      body: PhoneSchema,
      responses: {
        200: "{success, phone, message} (the same whether or not another account holds the number)",
        400: PHONE_TEXTS.invalid,
        429: "Rate limited",
      },
    }),
    async (c) => {
      const sent = await services.phones.requestVerification(requireAuth(c).user, await jsonBody(c), meta(c));
      return c.json({ success: true, ...sent });
    },
  );

  api.post(
    "/phone/verify",
    operation({
      tag: "auth",
      auth: "signed-in",
      summary: "Verify the number being added with the code sent to it",
      body: PhoneCodeSchema,
      responses: {
        200: `{success, phone, message: "${PHONE_TEXTS.verified}"}`,
        400: PHONE_TEXTS.wrongCode,
        409: PHONE_TEXTS.taken,
      },
    }),
    async (c) => {
      const { phone } = await services.phones.verify(requireAuth(c).user, await jsonBody(c));
      return c.json({ success: true, phone, message: PHONE_TEXTS.verified });
    },
  );

  api.post(
    "/otp",
    operation({
      tag: "auth",
      auth: "public",
      summary:
        "Ask for a sign-in code for a verified mobile number (sent on WhatsApp and by SMS; good only on this site). Asked on an institute's site, only its own students get one. The answer is the same whether or not an account has the number",
      body: PhoneSchema,
      responses: {
        200: `{success, message: "${PHONE_TEXTS.signInSent}"}`,
        400: PHONE_TEXTS.invalid,
        429: "Rate limited",
      },
    }),
    async (c) => {
      await services.phones.requestSignIn(await jsonBody(c), meta(c));
      return c.json({ success: true, message: PHONE_TEXTS.signInSent });
    },
  );

  api.post(
    "/otp/verify",
    operation({
      tag: "auth",
      auth: "public",
      summary: "Sign in with the code sent to a verified mobile number",
      body: PhoneSignInSchema,
      responses: {
        200: "{user, access_token, refresh_token}",
        400: PHONE_TEXTS.wrongCode,
        403: "Admin sign-in on an institute's site",
      },
    }),
    async (c) => {
      const m = meta(c);
      const user = await services.phones.signIn(await jsonBody(c), m);
      const tokens = await services.sessions.issueApiTokens(user.id, c.get("site").host, m);
      return c.json({ user: toPublicUser(user), ...tokens });
    },
  );

  api.post(
    "/email",
    operation({
      tag: "auth",
      auth: "signed-in",
      summary:
        "Change the account's e-mail (its current password required): a link is sent to the new address, and the change is made when it is opened",
      body: ChangeEmailSchema,
      responses: {
        200: "{success, message}",
        400: `${RESET_TEXTS.wrongCurrent}, or not an e-mail address`,
        409: "Email taken",
        429: "Rate limited",
      },
    }),
    async (c) => {
      const sent = await services.emailChanges.request(requireAuth(c).user, await jsonBody(c));
      return c.json({ success: true, ...sent });
    },
  );

  api.post(
    "/email/confirm",
    operation({
      tag: "auth",
      auth: "public",
      summary:
        "Confirm an e-mail change with the token from the link sent to the new address, on the site the link leads to; the old and new addresses are told",
      body: ConfirmEmailSchema,
      responses: { 200: "{success, email, message}", 400: EMAIL_CHANGE_TEXTS.invalid, 409: "Email taken" },
    }),
    async (c) => {
      const { email } = await services.emailChanges.confirm(await jsonBody(c), meta(c));
      return c.json({ success: true, email, message: EMAIL_CHANGE_TEXTS.done(email) });
    },
  );

  api.post(
    "/refresh",
    operation({
      tag: "auth",
      auth: "public",
      summary: "Rotate a refresh token",
      responses: {
        200: "{access_token, refresh_token}",
        400: "No refresh_token",
        401: "Refresh failed",
        429: "Rate limited",
      },
    }),
    input("json", RefreshBody),
    async (c) => {
      const { refresh_token } = c.req.valid("json");
      const m = meta(c);
      await services.accounts.limit(RATE_RULES.refreshIp, m.ip);
      const decision = await services.rateLimiter.hit(RATE_RULES.refreshAccount, refresh_token.slice(0, 16));
      if (!decision.allowed) throw tooMany(decision.retryAfter);
      const result = await services.sessions.refresh(refresh_token, c.get("site").host, m);
      if (!result.ok) throw new HttpError(401, "Refresh failed");
      return c.json({
        access_token: result.tokens.access_token,
        refresh_token: result.tokens.refresh_token,
        expires_in: result.tokens.expires_in,
      });
    },
  );

  api.post(
    "/logout",
    operation({
      tag: "auth",
      auth: "public",
      summary: "End the current session or API login",
      responses: { 200: "Logged out" },
    }),
    async (c) => {
      const auth = c.get("auth");
      if (auth) await services.sessions.revoke(auth.session);
      c.header("Set-Cookie", clearedSessionCookie(c.get("secure")), { append: true });
      return c.json({ success: true, message: "Logged out" });
    },
  );

  api.get(
    "/profile",
    operation({
      tag: "auth",
      auth: "signed-in",
      summary: "The signed-in user",
      responses: { 200: "{user}" },
    }),
    async (c) => {
      const { user } = requireAuth(c);
      return c.json({ user: toPublicUser(user) });
    },
  );

  api.get(
    "/message-language",
    operation({
      tag: "auth",
      auth: "signed-in",
      summary:
        "The language the signed-in account's e-mails, WhatsApp messages and SMS come in: institute (its institute's choice, else English), en or hi",
      responses: { 200: "{language}" },
    }),
    async (c) => {
      const { user } = requireAuth(c);
      c.header("Cache-Control", "no-store");
      return c.json({ language: await services.messageLanguages.ofAccount(user.id) });
    },
  );

  api.put(
    "/message-language",
    operation({
      tag: "auth",
      auth: "signed-in",
      summary:
        "Choose the language of the signed-in account's messages: en or hi, or institute to follow the institute a message is about (else English); it wins over the institute's choice",
      responses: {
        200: "{success, message, language}",
        400: MESSAGE_LANGUAGE_TEXTS.accountInvalid,
      },
    }),
    input("json", AccountLanguageSchema),
    async (c) => {
      const { user } = requireAuth(c);
      const language = await services.messageLanguages.setForAccount(user.id, c.req.valid("json"));
      return c.json({ success: true, message: MESSAGE_LANGUAGE_TEXTS.accountSaved(language), language });
    },
  );

  api.put(
    "/avatar",
    operation({
      tag: "auth",
      auth: "signed-in",
      summary: "Replace the profile photo (PNG, JPEG or WebP, at most 2 MB)",
      body: { multipart: { avatar: "the image file" } },
      responses: { 200: "{user}", 400: "Not an image", 413: "Too large" },
    }),
    limitBody(AVATAR_MAX_BYTES + 64 * 1024, (c) => c.json(errorBody("The avatar must be 2 MB or smaller."), 413)),
    async (c) => {
      const { user } = requireAuth(c);
      const file = await uploadedFile(c, "avatar", "Please choose an image to upload.");
      const updated = await services.media.replaceAvatar(user.id, file, AVATAR_MAX_BYTES);
      return c.json({ user: toPublicUser(updated) });
    },
  );

  return api;
}
