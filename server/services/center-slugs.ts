import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { centers } from "../db/schema/index.ts";
import type { DbOrTx } from "../db/types.ts";

/**
 * Labels that would read as part of the platform when served as `{slug}.{PLATFORM_DOMAIN}`: a
 * phishing page at login.pathshala.in or pay.pathshala.in must not be one institute name away.
 */
const RESERVED = new Set([
  ...[
    "www",
    "api",
    "app",
    "admin",
    "dashboard",
    "mail",
    "static",
    "assets",
    "cdn",
    "media",
    "status",
    "help",
    "support",
    "pathshala",
  ],
  ...[
    "login",
    "accounts",
    "account",
    "billing",
    "auth",
    "pay",
    "payments",
    "signin",
    "signup",
    "secure",
    "verify",
    "id",
    "sso",
    "my",
    "portal",
  ],
]);

export function isReservedLabel(label: string): boolean {
  return RESERVED.has(label);
}

/** A DNS label from an institute's name: "Sunrise Academy (Kolkata)" → "sunrise-academy-kolkata". */
export function slugify(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/, "");
}

/** A slug no center uses yet, close to the institute's name. */
export async function uniqueSlug(db: DbOrTx, instituteName: string): Promise<string> {
  const base = slugify(instituteName) || "institute";
  const candidates = isReservedLabel(base) ? [] : [base];
  for (let n = 2; n <= 5; n++) candidates.push(`${base}-${n}`);
  for (const slug of candidates) {
    const [taken] = await db.select({ id: centers.id }).from(centers).where(eq(centers.slug, slug)).limit(1);
    if (!taken) return slug;
  }
  return `${base}-${randomBytes(4).toString("hex")}`;
}
