import * as v from "valibot";
import { domainSchema } from "./validation/setup.ts";

/**
 * An institute's own domain (issue 37 §3): asked for at a trial, a purchase or in Setup Details,
 * bound only once its owner proves control of it. Until then the institute opens on its working
 * address `{slug}.{PLATFORM_DOMAIN}`.
 */

/** `{slug}.{PLATFORM_DOMAIN}`: the address a new institute can be opened on at once (null without a platform domain). */
export function workingHost(slug: string, platformDomain: string): string | null {
  return platformDomain ? `${slug}.${platformDomain}` : null;
}

/** How long an unproven claim lasts before it lapses (a new one can be asked for at any time). */
export const CLAIM_DAYS = 7;

/** The DNS name of the TXT record that proves a domain: `_pathshala.<domain>`. */
export const TXT_LABEL = "_pathshala";
export const txtName = (domain: string) => `${TXT_LABEL}.${domain}`;
export const txtValue = (token: string) => `pathshala-verify=${token}`;

/** Where the platform asks over plain HTTP, on the domain, once it points here. */
export const PROOF_PATH = "/.well-known/pathshala-domain/";

/** What the platform found when it last looked at a claim. */
export type DomainCheckOutcome = "not-found" | "rivals" | "taken";

export const DOMAIN_TEXTS = {
  taken: "This domain is already used by another institute.",
  reserved: "This address belongs to Pathshala. Please enter your institute's own domain.",
  ownThis: "This domain already opens this institute's website.",
  ownOther: "This domain already opens another of your institutes' websites.",
  noClaim: "No domain is waiting to be proven. Enter your domain first.",
  lapsed: "The time to prove this domain has run out. Ask for it again to get a new code.",
  proven: (domain: string) => `${domain} is proven: it now opens your website.`,
  "not-found": (domain: string) =>
    `We found neither the TXT record nor ${domain} pointing at Pathshala. DNS changes can take up to a few hours to spread; check again later.`,
  rivals: (domain: string) =>
    `Another institute has also asked for ${domain}, so pointing it here does not show which of you owns it. Add the TXT record to prove it.`,
  asked: (domain: string) => `Now prove that ${domain} is yours: add the TXT record below, then press Check now.`,
} as const;

/** What the owner sees of an unproven claim. */
export interface DomainClaimJson {
  domain: string;
  /** Pending until `expiresAt`, lapsed after it. */
  status: "pending" | "lapsed";
  createdAt: string;
  expiresAt: string;
  /** The TXT record that proves it. */
  txt: { name: string; value: string };
  checkedAt: string | null;
  /** What the last check found, in words (null before any). */
  lastResult: string | null;
}

/** An institute's addresses: the domain bound to it, the one it asked for, its working address. */
export interface DomainStateJson {
  /** Proven and serving the site (with its `www.` twin); null before any. */
  bound: string | null;
  claim: DomainClaimJson | null;
  /** `{slug}.{PLATFORM_DOMAIN}`: works from the start (null without a platform domain). */
  workingHost: string | null;
}

const centerId = v.optional(
  v.pipe(v.string(), v.uuid("Unknown institute"), v.description("which of your institutes (else your newest)")),
);

/** POST /api/domains/claim and Setup Details' form. */
export const DomainClaimSchema = v.object({ domain: domainSchema, centerId });

/** POST /api/domains/verify and GET /api/domains/claim. */
export const DomainCenterSchema = v.object({ centerId });

/** The other name a domain's site answers on: `www.` added, or taken off a `www.` domain. */
export function twinOf(domain: string): string {
  return domain.startsWith("www.") ? domain.slice(4) : `www.${domain}`;
}
