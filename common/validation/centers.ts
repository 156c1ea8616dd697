import * as v from "valibot";
import { text } from "./account.ts";
import { domainSchema } from "./setup.ts";
import { isTenantPath } from "../tenant-paths.ts";
import { PLATFORM_NAME, readsAsPlatformName } from "../platform-name.ts";

/**
 * A sub center as an admin creates or edits it (spec §5 "Sub center"), shared by the
 * /dashboard/centers pages and POST/PUT /api/centers.
 */

export const CENTER_TEXTS = {
  nameRequired: "Sub center name is required",
  nameShort: "Sub center name must be at least 2 characters",
  nameReadsAsPlatform: `Sub center name must be the institute's own, not one that reads as ${PLATFORM_NAME}'s`,
  websiteRequired: "Website is required",
  websiteInvalid: "Please enter a valid URL",
  pathRequired: "Super Admin Path is required",
  pathSlash: "Path must start with /",
  created: "Sub center created successfully.",
  createFailed: "Failed to create sub center. Please try again.",
  loadFailed: "Failed to load centers. Please try again.",
} as const;

/** Beyond the spec: paths the institute's own site already answers cannot be its admin path. */
export const PATH_TAKEN = "This path is already used by the institute's website. Please choose another, e.g. /admin.";
export const PATH_CHARACTERS = "Use only letters, numbers, -, _, . and / in the path.";

export const DEFAULT_SUPER_ADMIN_PATH = "/admin";

/** Paths an institute's domain serves itself (pages, API, assets), so a redirect there would hide them. */
const SERVED_PREFIXES = [
  "/api",
  "/_site",
  "/_sandbox",
  "/media",
  "/assets",
  "/enquiry",
  "/healthz",
  "/readyz",
  "/metrics",
];

function pathIsFree(path: string): boolean {
  if (isTenantPath(path)) return false;
  return !SERVED_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`));
}

export const centerNameSchema = v.pipe(
  text(CENTER_TEXTS.nameRequired),
  v.trim(),
  v.nonEmpty(CENTER_TEXTS.nameRequired),
  v.minLength(2, CENTER_TEXTS.nameShort),
  v.maxLength(120, "Sub center name is too long"),
  v.check((name) => !readsAsPlatformName(name), CENTER_TEXTS.nameReadsAsPlatform),
);

export function isWebsiteUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (
      (url.protocol === "http:" || url.protocol === "https:") &&
      url.hostname.length > 0 &&
      !url.username &&
      !url.password
    );
  } catch {
    return false;
  }
}

/** An http(s) address; stored without a trailing slash so that website + path is one clean URL. */
export const websiteSchema = v.pipe(
  text(CENTER_TEXTS.websiteRequired),
  v.trim(),
  v.nonEmpty(CENTER_TEXTS.websiteRequired),
  v.maxLength(2048, CENTER_TEXTS.websiteInvalid),
  v.check(isWebsiteUrl, CENTER_TEXTS.websiteInvalid),
  v.transform((s) => s.replace(/\/+$/, "")),
);

export const superAdminPathSchema = v.pipe(
  text(CENTER_TEXTS.pathRequired),
  v.trim(),
  v.nonEmpty(CENTER_TEXTS.pathRequired),
  v.startsWith("/", CENTER_TEXTS.pathSlash),
  v.maxLength(100, "Super Admin Path is too long"),
  v.regex(/^\/[A-Za-z0-9._~\-/]*$/, PATH_CHARACTERS),
  // "/admin/" and "/admin" are the same path to the site.
  v.transform((s) => s.replace(/\/+$/, "") || "/"),
  v.check(pathIsFree, PATH_TAKEN),
);

/** One message per field: the first rule a field breaks (an empty field is "required", nothing more). */
const firstIssue = { abortPipeEarly: true } as const;

export const SubCenterSchema = v.object({
  name: v.config(centerNameSchema, firstIssue),
  domain: v.config(domainSchema, firstIssue),
  website: v.config(websiteSchema, firstIssue),
  superAdminPath: v.config(superAdminPathSchema, firstIssue),
});
export type SubCenterInput = v.InferOutput<typeof SubCenterSchema>;

/** A center as the admin's list shows it (spec §3 "Sub center": list adds id, createdAt, expireDate, status). */
export interface CenterJson {
  _id: string;
  name: string;
  /** Its own domain, bound (proven, or set by an admin): it serves the site. */
  domain: string | null;
  /** A domain its owner asked for and has not proven yet (it serves nothing until then). */
  pendingDomain: string | null;
  website: string | null;
  superAdminPath: string;
  slug: string;
  status: "active" | "inactive";
  /** The spec's start date. */
  createdAt: string;
  startsAt: string;
  expireDate: string | null;
  plan: string | null;
  billing: string | null;
  templateId: string;
  owner: { _id: string; name: string; email: string } | null;
  /** While (and after) the center ran on a free trial that was not converted: its end. */
  trialEndsAt: string | null;
  /** Its newest paid plan purchase: refundable within 30 days, or its refund. */
  payment: CenterPaymentJson | null;
}

export interface CenterPaymentJson {
  purchaseId: string;
  /** Minor units. */
  amount: number;
  paidAt: string;
  refundableUntil: string;
  refundable: boolean;
  refund: { _id: string; amount: number; status: string; processedAt: string | null } | null;
}

export const EXTEND_CHOICES = [30, 90, 365] as const;

/** Beyond the spec: an admin extends a center's expiry by whole days (from its expiry, or from today if past). */
export const ExtendCenterSchema = v.object({
  days: v.pipe(
    v.union(
      [v.number(), v.pipe(v.string(), v.trim(), v.transform(Number))],
      "Days must be a whole number from 1 to 3650",
    ),
    v.number("Days must be a whole number from 1 to 3650"),
    v.integer("Days must be a whole number from 1 to 3650"),
    v.minValue(1, "Days must be a whole number from 1 to 3650"),
    v.maxValue(3650, "Days must be a whole number from 1 to 3650"),
  ),
});

export const CenterStatusSchema = v.object({
  status: v.picklist(["active", "inactive"], "Status must be active or inactive"),
});

/** First message per field, for forms. */
export function centerFieldErrors(value: unknown): Partial<Record<keyof SubCenterInput, string>> {
  const result = v.safeParse(SubCenterSchema, value);
  if (result.success) return {};
  const errors: Partial<Record<keyof SubCenterInput, string>> = {};
  for (const issue of result.issues) {
    const key = String(issue.path?.[0]?.key ?? "") as keyof SubCenterInput;
    errors[key] ??= issue.message;
  }
  return errors;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Spec §4 "Center status": 'N days left' (rounded up) or 'Expired'; no expiry date means none. */
export function expiryLabel(expiresAt: string | Date | null, now = Date.now()): string | null {
  if (!expiresAt) return null;
  const left = new Date(expiresAt).getTime() - now;
  if (left <= 0) return "Expired";
  const days = Math.ceil(left / DAY_MS);
  return `${days} ${days === 1 ? "day" : "days"} left`;
}

export function daysLeft(expiresAt: string | Date | null, now = Date.now()): number | null {
  if (!expiresAt) return null;
  return Math.max(0, Math.ceil((new Date(expiresAt).getTime() - now) / DAY_MS));
}

/** Spec §2: 'Go' opens the center's website at its super admin path (in a new tab). */
export function goUrl(center: {
  website: string | null;
  domain: string | null;
  superAdminPath: string;
}): string | null {
  const base = center.website ?? (center.domain ? `https://${center.domain}` : null);
  return base ? `${base.replace(/\/+$/, "")}${center.superAdminPath}` : null;
}

/**
 * A website on a `.localhost` name (the demo centers') is this very server, so it is reached on the
 * scheme and port the admin is using, whatever port was current when it was stored.
 */
export function reachableWebsite(website: string | null, requestUrl: string): string | null {
  if (!website) return website;
  let url: URL;
  try {
    url = new URL(website);
  } catch {
    return website;
  }
  if (url.hostname !== "localhost" && !url.hostname.endsWith(".localhost")) return website;
  const here = new URL(requestUrl);
  url.protocol = here.protocol;
  url.port = here.port;
  return url.href.replace(/\/$/, "");
}
