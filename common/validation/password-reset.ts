import * as v from "valibot";
import { emailSchema, passwordSchema, text } from "./account.ts";

/** Account recovery (issue 30 §4): the texts people read, and the two requests' bodies. */
export const RESET_TEXTS = {
  forgotLink: "Forgot password?",
  sent: "If an account uses that email, we have sent it a link to choose a new password. The link works once, for 30 minutes.",
  invalid: "This reset link is invalid or has expired. Please ask for a new one.",
  done: "Your password has been changed. Please sign in with your new password.",
  changed: "Your password has been changed. You stay signed in here; every other device was signed out.",
  wrongCurrent: "Your current password is not correct.",
} as const;

/** `POST /api/auth/forgot`. */
export const ForgotPasswordSchema = v.object({ email: emailSchema });

/** `POST /api/auth/reset`: the token from the link and the new password. */
export const ResetPasswordSchema = v.object({
  token: v.pipe(
    text(RESET_TEXTS.invalid),
    v.trim(),
    v.nonEmpty(RESET_TEXTS.invalid),
    v.maxLength(200, RESET_TEXTS.invalid),
  ),
  password: passwordSchema,
});

/** `PUT /api/auth/password`: a signed-in person's new password, with their current one. */
export const ChangePasswordSchema = v.object({
  currentPassword: v.pipe(
    text(RESET_TEXTS.wrongCurrent),
    v.nonEmpty("Please enter your current password"),
    v.maxLength(1024, RESET_TEXTS.wrongCurrent),
  ),
  password: passwordSchema,
});

/** Changing the e-mail an account signs in with: confirmed by a link sent to the new address. */
export const EMAIL_CHANGE_TEXTS = {
  sent: (email: string) => `We sent a link to ${email}. Your e-mail changes when you open it (within 24 hours).`,
  same: "This is already your e-mail address",
  invalid: "This link is invalid or has expired. Please ask for a new one from your account page.",
  done: (email: string) => `Your e-mail is now ${email}. Sign in with it from now on.`,
} as const;

/** `POST /api/auth/email`: the new address, with the current password. */
export const ChangeEmailSchema = v.object({
  email: emailSchema,
  currentPassword: v.pipe(
    text(RESET_TEXTS.wrongCurrent),
    v.nonEmpty("Please enter your current password"),
    v.maxLength(1024, RESET_TEXTS.wrongCurrent),
  ),
});

/** `POST /api/auth/email/confirm`: the token from the link. */
export const ConfirmEmailSchema = v.object({
  token: v.pipe(
    text(EMAIL_CHANGE_TEXTS.invalid),
    v.trim(),
    v.nonEmpty(EMAIL_CHANGE_TEXTS.invalid),
    v.maxLength(200, EMAIL_CHANGE_TEXTS.invalid),
  ),
});
