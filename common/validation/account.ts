import * as v from "valibot";
import { storable } from "./storable.ts";

/** Shared by the forms and the API: one set of rules, one set of messages. */

/**
 * A text field that must be present. A missing key reads as "" so that it fails with the field's
 * own message ("Email is required") rather than a generic "invalid key". Text that cannot be
 * stored is refused under the field's name: `label`, else the name in "<Name> is required".
 */
export const text = (requiredMessage: string, label = labelOf(requiredMessage)) =>
  v.pipe(v.optional(v.string(requiredMessage), ""), storable(label));

function labelOf(requiredMessage: string): string {
  return /^(.+) is required$/.exec(requiredMessage)?.[1] ?? "This field";
}

export const emailSchema = v.pipe(
  text("Email is required"),
  v.trim(),
  v.toLowerCase(),
  v.nonEmpty("Email is required"),
  v.maxLength(254, "Email is too long"),
  v.email("Please enter a valid email address"),
);

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

export const passwordSchema = v.pipe(
  text("Password is required"),
  v.nonEmpty("Password is required"),
  v.minLength(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`),
  v.maxLength(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`),
);

export const personNameSchema = v.pipe(
  text("Full name is required"),
  v.trim(),
  v.nonEmpty("Full name is required"),
  v.maxLength(100, "Full name is too long"),
);

export const ROLES = ["student", "creator", "business", "admin"] as const;
export type Role = (typeof ROLES)[number];
/** Roles a person may choose for themselves; admins come only from `npm run create-admin`. */
export const SELF_SERVICE_ROLES = ["student", "creator", "business"] as const;
export type SelfServiceRole = (typeof SELF_SERVICE_ROLES)[number];
