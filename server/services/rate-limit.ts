import { and, count, eq, gt, lt, min } from "drizzle-orm";
import { rateLimitHits } from "../db/schema/index.ts";
import type { Db } from "../db/types.ts";

export interface RateRule {
  /** Bucket name prefix, e.g. "login:ip". */
  name: string;
  limit: number;
  windowMs: number;
}

export interface RateDecision {
  allowed: boolean;
  /** Seconds until the oldest counted hit leaves the window. */
  retryAfter: number;
}

/**
 * Sliding-log rate limiting in the database, so every instance counts the same hits. A refused
 * attempt is not recorded, so hammering does not extend the lock-out beyond the window.
 */
export class RateLimiter {
  private readonly db: Db;
  private readonly now: () => number;

  constructor(db: Db, now: () => number = Date.now) {
    this.db = db;
    this.now = now;
  }

  /** Counts the hit if under the limit. */
  async hit(rule: RateRule, key: string): Promise<RateDecision> {
    const decision = await this.check(rule, key);
    if (decision.allowed) await this.record(rule, key);
    return decision;
  }

  /** Looks without counting. */
  async check(rule: RateRule, key: string): Promise<RateDecision> {
    const bucket = `${rule.name}:${key}`;
    const now = this.now();
    const since = new Date(now - rule.windowMs);
    const [row] = await this.db
      .select({ hits: count(), oldest: min(rateLimitHits.createdAt) })
      .from(rateLimitHits)
      .where(and(eq(rateLimitHits.bucket, bucket), gt(rateLimitHits.createdAt, since)));
    if ((row?.hits ?? 0) < rule.limit) return { allowed: true, retryAfter: 0 };
    const oldest = row.oldest ? new Date(row.oldest).getTime() : now;
    return { allowed: false, retryAfter: Math.max(1, Math.ceil((oldest + rule.windowMs - now) / 1000)) };
  }

  async record(rule: RateRule, key: string): Promise<void> {
    await this.db.insert(rateLimitHits).values({ bucket: `${rule.name}:${key}`, createdAt: new Date(this.now()) });
  }

  /** Forgets a key's hits (e.g. failed logins after a successful one). */
  async reset(rule: RateRule, key: string): Promise<void> {
    await this.db.delete(rateLimitHits).where(eq(rateLimitHits.bucket, `${rule.name}:${key}`));
  }

  async purgeOlderThan(ms: number): Promise<void> {
    await this.db.delete(rateLimitHits).where(lt(rateLimitHits.createdAt, new Date(this.now() - ms)));
  }
}

const MINUTE = 60_000;

/** The limits of the spec's sensitive endpoints. */
export const RATE_RULES = {
  loginIp: { name: "login:ip", limit: 60, windowMs: MINUTE },
  /** Failed attempts against one account: repeated failures slow it down. */
  loginAccount: { name: "login:account", limit: 10, windowMs: 15 * MINUTE },
  registerIp: { name: "register:ip", limit: 20, windowMs: 60 * MINUTE },
  registerAccount: { name: "register:account", limit: 5, windowMs: 60 * MINUTE },
  refreshIp: { name: "refresh:ip", limit: 120, windowMs: MINUTE },
  refreshAccount: { name: "refresh:account", limit: 30, windowMs: MINUTE },
  bookingIp: { name: "book:ip", limit: 10, windowMs: 60 * MINUTE },
  enquiryIp: { name: "enquiry:ip", limit: 10, windowMs: 60 * MINUTE },
  paymentOrderUser: { name: "payment-order:user", limit: 30, windowMs: 60 * MINUTE },
  domainCheckIp: { name: "domain-check:ip", limit: 120, windowMs: MINUTE },
  /** Invitations (and fresh links) an owner makes to their teams. */
  teamInviteUser: { name: "team-invite:user", limit: 50, windowMs: 60 * MINUTE },
} satisfies Record<string, RateRule>;
