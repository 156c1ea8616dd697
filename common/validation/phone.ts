import * as v from "valibot";
import { parsePhoneNumberFromString, type PhoneNumber } from "libphonenumber-js/min";
import { storable } from "./storable.ts";

/**
 * The product's one phone rule, for every form and API that takes a number (the setup wizard and
 * trial, enquiries, the seminar, Website Details, Platform Settings, sign-in codes): a number
 * libphonenumber-js finds valid for its country, Indian when it is typed without a +country code
 * ("98765 43210", "(033) 2455 1234"), international with one ("+1 415 555 2671"). The walk found
 * '+91 12345' and '0000000000' taken by digit-counting rules (issue 38 §6). The "min" metadata
 * (lengths and leading digits per country) keeps the rule small enough for the browser, which
 * checks the same way; whether WhatsApp and SMS may go to a number is decided apart, on the
 * server, with the full metadata (server/messages/reachable-numbers.ts).
 */
export const INVALID_PHONE = "Please enter a valid phone number";

/** Numbers typed without a country code are Indian. */
export const DEFAULT_PHONE_COUNTRY = "IN" as const;

/** The characters people put between digits, which the seminar's rule (spec §170) removes. */
export const phoneDigits = (value: string) => value.replace(/[\s\-()]/g, "");

/** The number as libphonenumber-js reads it, when it is a valid one; undefined otherwise. */
export function parsePhone(value: string): PhoneNumber | undefined {
  // Only what people type: digits, one leading +, spaces, dashes, dots and parentheses.
  if (!/^\+?[\d\s\-().]{1,30}$/.test(value.trim())) return undefined;
  const parsed = parsePhoneNumberFromString(value.trim(), DEFAULT_PHONE_COUNTRY);
  return parsed?.isValid() ? parsed : undefined;
}

export function isPhoneNumber(value: string): boolean {
  return parsePhone(value) !== undefined;
}

/** The number in E.164 ("+919876543210"), or null when it is not a valid one. */
export function toE164(value: string): string | null {
  return parsePhone(value)?.number ?? null;
}

/** A phone field: trimmed, single-spaced as typed (a site shows it as its owner wrote it), valid. */
export const phoneNumberSchema = (message: string = INVALID_PHONE, label = "Phone number") =>
  v.pipe(
    v.optional(v.string(message), ""),
    storable(label),
    v.trim(),
    v.transform((s: string) => s.replace(/\s+/g, " ")),
    v.nonEmpty(message),
    v.maxLength(30, message),
    v.check(isPhoneNumber, message),
  );

/** The same, optional: "" (or missing) when not given. */
export const optionalPhoneSchema = (message: string = INVALID_PHONE, label = "Phone number") =>
  v.pipe(
    v.optional(v.string(message), ""),
    storable(label),
    v.trim(),
    v.transform((s: string) => s.replace(/\s+/g, " ")),
    v.maxLength(30, message),
    v.check((s: string) => s === "" || isPhoneNumber(s), message),
  );
