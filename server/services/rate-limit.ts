import { and, count, eq, gt, lt, min } from "drizzle-orm";
import { rateLimitHits } from "../db/schema/index.ts";
import type { Db } from "../db/types.ts";
import { ADVISORY_LOCKS, lockForTransaction } from "../db/advisory-locks.ts";

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
 *
 * Counting and recording are one step: a transaction holds a lock on the bucket (a transaction
 * advisory lock, released at commit) while it counts the window and records the hit, so parallel
 * requests are decided one after another and exactly `limit` of them get through. The lock, not
 * the isolation level, makes this safe: under READ COMMITTED two transactions could otherwise both
 * count the same hits. PGlite runs one transaction at a time, so the lock costs it nothing.
 */
export class RateLimiter {
  private readonly db: Db;
  private readonly now: () => number;

  constructor(db: Db, now: () => number = Date.now) {
    this.db = db;
    this.now = now;
  }

  /** Records the hit if the window has room for it, and says whether it had. */
  async hit(rule: RateRule, key: string): Promise<RateDecision> {
    const bucket = `${rule.name}:${key}`;
    return this.db.transaction(async (tx) => {
      await lockForTransaction(tx, ADVISORY_LOCKS.rateLimitBuckets, bucket);
      const now = this.now();
      const [row] = await tx
        .select({ hits: count(), oldest: min(rateLimitHits.createdAt) })
        .from(rateLimitHits)
        .where(and(eq(rateLimitHits.bucket, bucket), gt(rateLimitHits.createdAt, new Date(now - rule.windowMs))));
      if ((row?.hits ?? 0) >= rule.limit) {
        const oldest = row.oldest ? new Date(row.oldest).getTime() : now;
        return { allowed: false, retryAfter: Math.max(1, Math.ceil((oldest + rule.windowMs - now) / 1000)) };
      }
      await tx.insert(rateLimitHits).values({ bucket, createdAt: new Date(now) });
      return { allowed: true, retryAfter: 0 };
    });
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
  /** Sign-in attempts against one account, counted before the password check; a success clears them. */
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
  /** Parents one account invites (a student their family, the front desk its students'). */
  familyInviteUser: { name: "family-invite:user", limit: 30, windowMs: 60 * MINUTE },
  /** Password reset links asked for from one address, and sent to one account. */
  forgotIp: { name: "forgot:ip", limit: 20, windowMs: 60 * MINUTE },
  forgotAccount: { name: "forgot:account", limit: 5, windowMs: 60 * MINUTE },
  /** One-time codes sent to a number (adding it, or signing in with it), and asked for from one address. */
  phoneCodeNumber: { name: "phone-code:number", limit: 5, windowMs: 60 * MINUTE },
  phoneCodeIp: { name: "phone-code:ip", limit: 20, windowMs: 60 * MINUTE },
  /** Numbers one account asks codes for while adding a number. */
  phoneCodeAccount: { name: "phone-code:account", limit: 10, windowMs: 60 * MINUTE },
  /** Domains an institute asks for and checks (each check looks up DNS and calls the domain). */
  domainProofCenter: { name: "domain-proof:center", limit: 30, windowMs: 60 * MINUTE },
} satisfies Record<string, RateRule>;
