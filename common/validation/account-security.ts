import * as v from "valibot";
import { emailSchema, passwordSchema, text } from "./account.ts";

/**
 * Account recovery and changes (issue 30 §4): a forgotten password, a new password or e-mail
 * while signed in. The texts people read, and the requests' bodies.
 */
export const RESET_TEXTS = {
  forgotLink: "Forgot password?",
  sent: "If an account uses that email, we have sent it a link to choose a new password. The link works once, for 30 minutes.",
  invalid: "This reset link is invalid or has expired. Please ask for a new one.",
  done: "Your password has been changed. Please sign in with your new password.",
  changed: "Your password has been changed. You stay signed in here; every other device was signed out.",
  wrongCurrent: "Your current password is not correct.",
  /** On an institute's site, which resets only its own students' passwords. */
  elsewhere: "Run an institute or create courses on Pathshala?",
  elsewhereLink: "Reset your password on Pathshala's own site",
} as const;

/** A link's token (reset, e-mail change): anything unusable reads as the link being invalid. */
const linkToken = (invalid: string) => v.pipe(text(invalid), v.trim(), v.nonEmpty(invalid), v.maxLength(200, invalid));

/** The password a signed-in person types to confirm a change to their account. */
const currentPasswordSchema = v.pipe(
  text(RESET_TEXTS.wrongCurrent),
  v.nonEmpty("Please enter your current password"),
  v.maxLength(1024, RESET_TEXTS.wrongCurrent),
);

/** `POST /api/auth/forgot`. */
export const ForgotPasswordSchema = v.object({ email: emailSchema });

/** `POST /api/auth/reset`: the token from the link and the new password. */
export const ResetPasswordSchema = v.object({ token: linkToken(RESET_TEXTS.invalid), password: passwordSchema });

/** `PUT /api/auth/password`: a signed-in person's new password, with their current one. */
export const ChangePasswordSchema = v.object({ currentPassword: currentPasswordSchema, password: passwordSchema });

/** Changing the e-mail an account signs in with: confirmed by a link sent to the new address. */
export const EMAIL_CHANGE_TEXTS = {
  sent: (email: string) => `We sent a link to ${email}. Your e-mail changes when you open it (within 24 hours).`,
  same: "This is already your e-mail address",
  invalid: "This link is invalid or has expired. Please ask for a new one from your account page.",
  done: (email: string) => `Your e-mail is now ${email}. Sign in with it from now on.`,
} as const;

/** `POST /api/auth/email`: the new address, with the current password. */
export const ChangeEmailSchema = v.object({ email: emailSchema, currentPassword: currentPasswordSchema });

/** `POST /api/auth/email/confirm`: the token from the link. */
export const ConfirmEmailSchema = v.object({ token: linkToken(EMAIL_CHANGE_TEXTS.invalid) });
