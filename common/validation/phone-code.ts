import * as v from "valibot";
import { text } from "./account.ts";
import { phoneNumberSchema } from "./phone.ts";

/** Phones on accounts (issue 30 §4): adding one with a code, and signing in with a code. */
export const PHONE_TEXTS = {
  invalid: "Please enter a mobile number, e.g. +91 98765 43210",
  taken: "This number is already used by another account",
  /** The number cannot get WhatsApp or SMS from us (server/messages/reachable-numbers.ts). */
  notMobile: "Please enter a mobile number: codes go by WhatsApp and SMS to mobile numbers only",
  notIndian: "Codes go only to Indian mobile numbers, e.g. +91 98765 43210",
  codeSent: (phone: string) => `We sent a 6-digit code to ${phone} on WhatsApp and by SMS. It works for 10 minutes.`,
  signInSent:
    "If an account has verified this number, we have sent it a 6-digit code on WhatsApp and by SMS. It works for 10 minutes.",
  wrongCode: "That code is not right, or it has expired. Please check it or ask for a new one.",
  verified: "Your mobile number is verified. You can now sign in with a code sent to it.",
  signInWithCode: "Sign in with a code instead",
} as const;

const phone = phoneNumberSchema(PHONE_TEXTS.invalid, "Mobile number");
const code = v.pipe(text(PHONE_TEXTS.wrongCode), v.trim(), v.regex(/^\d{6}$/, "The code is the 6 digits we sent"));

/** `POST /api/auth/phone`, `POST /api/auth/otp`: the number to send a code to. */
export const PhoneSchema = v.object({ phone });
/** `POST /api/auth/phone/verify`: the code sent to the number being added. */
export const PhoneCodeSchema = v.object({ code });
/** `POST /api/auth/otp/verify`: signing in with the code sent to a verified number. */
export const PhoneSignInSchema = v.object({ phone, code });
