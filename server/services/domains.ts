import { and, eq, gt, inArray, ne, sql } from "drizzle-orm";
import * as v from "valibot";
import { centers, domainClaims } from "../db/schema/index.ts";
import type { Db, DbOrTx } from "../db/types.ts";
import { ADVISORY_LOCKS, lockForTransaction } from "../db/advisory-locks.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { HttpError, notFound, parseWith } from "../http/errors.ts";
import { generateToken, hashToken } from "../auth/tokens.ts";
import type { Logger } from "../runtime/logger.ts";
import { isRealPlatformDomain, isSpecialUseName } from "../runtime/special-names.ts";
import { INVALID_DOMAIN, domainSchema } from "#common/validation/setup.ts";
import {
  CLAIM_DAYS,
  DOMAIN_TEXTS,
  DomainClaimSchema,
  PROOF_PATH,
  twinOf,
  txtName,
  workingHost,
  txtValue,
  type DomainCheckOutcome,
  type DomainStateJson,
} from "#common/domains.ts";
import type { DomainProbe } from "./domain-probe.ts";
import type { TenantDirectory } from "./tenants.ts";
import { RATE_RULES, type RateLimiter } from "./rate-limit.ts";
import { tooMany } from "./accounts.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

type CenterRow = typeof centers.$inferSelect;
type ClaimRow = typeof domainClaims.$inferSelect;

/** The platform's own hosts and every `*.{PLATFORM_DOMAIN}` name belong to Pathshala, never to one institute. */
export function isPlatformAddress(domain: string, platformHosts: readonly string[], platformDomain: string): boolean {
  if (platformHosts.includes(domain)) return true;
  return !!platformDomain && (domain === platformDomain || domain.endsWith(`.${platformDomain}`));
}

export type DomainStatus =
  | { domain: string; available: true; renewal: boolean; message?: string }
  | { domain: string; available: false; reason: "invalid" | "reserved" | "taken"; message: string };

/**
 * The names whose binding decides who may have `domain`: itself, its `www.` twin, and every
 * parent with its twin (a name under another institute's domain is that institute's).
 */
export function relatedNames(domain: string): string[] {
  const names = new Set([domain, twinOf(domain)]);
  const labels = domain.split(".");
  for (let i = 1; i < labels.length - 1; i++) {
    const parent = labels.slice(i).join(".");
    names.add(parent);
    names.add(`www.${parent}`);
  }
  return [...names];
}

/** Related names share their last two labels: binds within them are decided one at a time. */
const bindLockName = (domain: string) => domain.split(".").slice(-2).join(".");

export interface DomainServiceDeps {
  db: Db;
  tenants: TenantDirectory;
  rateLimiter: RateLimiter;
  probe: DomainProbe;
  logger: Logger;
  platformHosts: readonly string[];
  platformDomain: string;
}

export interface DomainCheckResult {
  proven: boolean;
  /** What happened, in the owner's words. */
  message: string;
  /** The institute's domain state after it. */
  domain: DomainStateJson;
}

/**
 * Institutes' own domains (issue 37 §3). A domain is asked for (a claim: a random token, lapsing
 * after CLAIM_DAYS) and bound to the institute (`centers.custom_domain`) only once the owner
 * proves control: a DNS TXT record `_pathshala.<domain>` holding the token, or the domain leading
 * here over HTTP (the platform then answers its own question at PROOF_PATH) while no other
 * owner asks for it too. A claim blocks nobody; a bound domain, its `www.` twin and the names
 * under it are never given to another owner.
 */
export class DomainService {
  private readonly deps: DomainServiceDeps;

  constructor(deps: DomainServiceDeps) {
    this.deps = deps;
  }

  /**
   * Whether `raw` may be asked for by `userId`: a host name anyone can register, not the
   * platform's, not bound to another owner's institute. `renewal` when it is the user's own
   * (bound to, or asked for by, one of their institutes).
   */
  async status(raw: unknown, userId?: string, db: DbOrTx = this.deps.db): Promise<DomainStatus> {
    const parsed = v.safeParse(domainSchema, raw);
    if (!parsed.success)
      return { domain: String(raw ?? ""), available: false, reason: "invalid", message: parsed.issues[0].message };
    const domain = parsed.output;
    // On a real deployment `*.localhost`, `*.test`… name nobody's domain; the demo and tests use them.
    if (isSpecialUseName(domain) && isRealPlatformDomain(this.deps.platformDomain))
      return { domain, available: false, reason: "invalid", message: INVALID_DOMAIN };
    if (isPlatformAddress(domain, this.deps.platformHosts, this.deps.platformDomain))
      return { domain, available: false, reason: "reserved", message: DOMAIN_TEXTS.reserved };
    const bound = await this.boundNear(db, domain);
    const foreign = bound.find((b) => !userId || b.ownerId !== userId);
    if (foreign) return { domain, available: false, reason: "taken", message: DOMAIN_TEXTS.taken };
    if (
      userId &&
      (bound.some((b) => b.customDomain === domain || b.customDomain === twinOf(domain)) ||
        (await this.claimedBy(db, userId, domain)))
    )
      return {
        domain,
        available: true,
        renewal: true,
        message: "This is your institute's domain: paying renews its plan.",
      };
    return { domain, available: true, renewal: false };
  }

  /**
   * The user's institute that `domain` renews: the one it is bound to (or its twin), else the
   * newest of theirs that asked for it.
   */
  async renewalCenter(tx: DbOrTx, userId: string, domain: string): Promise<CenterRow | undefined> {
    const [boundRow] = await tx
      .select()
      .from(centers)
      .where(and(inArray(centers.customDomain, [domain, twinOf(domain)]), eq(centers.ownerId, userId)))
      .orderBy(sql`${centers.customDomain} = ${domain} desc`)
      .limit(1)
      .for("update");
    if (boundRow) return boundRow;
    const [asked] = await tx
      .select({ center: centers })
      .from(domainClaims)
      .innerJoin(centers, eq(centers.id, domainClaims.centerId))
      .where(and(eq(domainClaims.domain, domain), eq(centers.ownerId, userId)))
      .orderBy(sql`${centers.createdAt} desc`)
      .limit(1)
      .for("update", { of: centers });
    return asked?.center;
  }

  /** Asks for `domain` on behalf of `centerId` (in the caller's transaction): a new token, a new lapse date. */
  async claim(tx: DbOrTx, centerId: string, domain: string, now = new Date()): Promise<void> {
    const values = {
      domain,
      token: generateToken(),
      createdAt: now,
      expiresAt: new Date(now.getTime() + CLAIM_DAYS * DAY_MS),
      checkedAt: null,
      lastOutcome: null,
    };
    await tx
      .insert(domainClaims)
      .values({ centerId, ...values })
      .onConflictDoUpdate({ target: domainClaims.centerId, set: values });
  }

  /** The owner asks for a domain for their institute (Setup Details, POST /api/domains/claim). */
  async ask(center: CenterRow, raw: unknown): Promise<DomainCheckResult> {
    const { domain: rawDomain } = parseWith(DomainClaimSchema, raw);
    const ownerId = center.ownerId ?? undefined;
    const status = await this.status(rawDomain, ownerId);
    const refuse = (code: 400 | 409, message: string) =>
      new HttpError(code, message, { issues: [{ field: "domain", message }] });
    if (!status.available) throw refuse(status.reason === "taken" ? 409 : 400, status.message);
    const { domain } = status;
    if (center.customDomain === domain || center.customDomain === twinOf(domain))
      throw refuse(409, DOMAIN_TEXTS.ownThis);
    const bound = await this.boundNear(this.deps.db, domain);
    if (bound.some((b) => b.customDomain === domain || b.customDomain === twinOf(domain)))
      throw refuse(409, DOMAIN_TEXTS.ownOther);
    await this.limit(center.id);
    await this.claim(this.deps.db, center.id, domain);
    return { proven: false, message: DOMAIN_TEXTS.asked(domain), domain: await this.state(center) };
  }

  /** "Check now": looks for the proof of the institute's claim and binds the domain when found. */
  async verify(center: CenterRow, now = new Date()): Promise<DomainCheckResult> {
    const [claim] = await this.deps.db.select().from(domainClaims).where(eq(domainClaims.centerId, center.id));
    if (!claim) throw notFound(DOMAIN_TEXTS.noClaim);
    if (claim.expiresAt.getTime() <= now.getTime()) throw new HttpError(409, DOMAIN_TEXTS.lapsed);
    await this.limit(center.id);
    const outcome = await this.look(claim, center.ownerId, now);
    if (outcome === "proven") {
      const bound = await this.bind(claim, center.ownerId);
      if (bound) {
        const fresh = (await this.deps.db.select().from(centers).where(eq(centers.id, center.id)))[0] ?? center;
        return { proven: true, message: DOMAIN_TEXTS.proven(claim.domain), domain: await this.state(fresh) };
      }
    }
    const found: DomainCheckOutcome = outcome === "proven" ? "taken" : outcome;
    await this.deps.db
      .update(domainClaims)
      .set({ checkedAt: now, lastOutcome: found })
      .where(and(eq(domainClaims.id, claim.id), eq(domainClaims.token, claim.token)));
    return { proven: false, message: outcomeText(found, claim.domain), domain: await this.state(center) };
  }

  /**
   * The platform's answer at PROOF_PATH on `host`: given only for a live claim of that host with
   * that token (what the check expects to read), else null.
   */
  async answer(host: string, token: string, now = new Date()): Promise<string | null> {
    if (!/^[a-z2-7]{32}$/.test(token)) return null;
    const [claim] = await this.deps.db
      .select()
      .from(domainClaims)
      .where(and(eq(domainClaims.token, token), eq(domainClaims.domain, host), gt(domainClaims.expiresAt, now)));
    return claim ? answerOf(claim) : null;
  }

  /** What Setup Details shows: the bound domain, the claim waiting for proof, the working address. */
  async state(center: Pick<CenterRow, "id" | "slug" | "customDomain">, now = new Date()): Promise<DomainStateJson> {
    const [claim] = await this.deps.db.select().from(domainClaims).where(eq(domainClaims.centerId, center.id));
    return {
      bound: center.customDomain,
      workingHost: workingHost(center.slug, this.deps.platformDomain),
      claim: claim
        ? {
            domain: claim.domain,
            status: claim.expiresAt.getTime() > now.getTime() ? "pending" : "lapsed",
            createdAt: claim.createdAt.toISOString(),
            expiresAt: claim.expiresAt.toISOString(),
            txt: { name: txtName(claim.domain), value: txtValue(claim.token) },
            checkedAt: claim.checkedAt?.toISOString() ?? null,
            lastResult: claim.lastOutcome ? outcomeText(claim.lastOutcome as DomainCheckOutcome, claim.domain) : null,
          }
        : null,
    };
  }

  /** The domain an institute is known by: bound, else asked for (null with neither). */
  async domainOf(center: Pick<CenterRow, "id" | "customDomain">): Promise<string | null> {
    if (center.customDomain) return center.customDomain;
    const [claim] = await this.deps.db
      .select({ domain: domainClaims.domain })
      .from(domainClaims)
      .where(eq(domainClaims.centerId, center.id));
    return claim?.domain ?? null;
  }

  /**
   * Whether an admin may bind `domain` to a center directly (admins are the platform; their
   * centers need no proof): not another center's, nor its twin's, nor under its domain.
   */
  async boundElsewhere(domain: string, centerId?: string): Promise<boolean> {
    const bound = await this.boundNear(this.deps.db, domain);
    return bound.some((b) => b.id !== centerId);
  }

  private async limit(centerId: string): Promise<void> {
    const decision = await this.deps.rateLimiter.hit(RATE_RULES.domainProofCenter, centerId);
    if (!decision.allowed) throw tooMany(decision.retryAfter);
  }

  /** Centers bound to `domain`, its twin, or a parent of it (or a parent's twin). */
  private boundNear(db: DbOrTx, domain: string) {
    return db
      .select({ id: centers.id, ownerId: centers.ownerId, customDomain: centers.customDomain })
      .from(centers)
      .where(inArray(centers.customDomain, relatedNames(domain)));
  }

  private async claimedBy(db: DbOrTx, userId: string, domain: string): Promise<boolean> {
    const [row] = await db
      .select({ id: domainClaims.id })
      .from(domainClaims)
      .innerJoin(centers, eq(centers.id, domainClaims.centerId))
      .where(and(eq(domainClaims.domain, domain), eq(centers.ownerId, userId)))
      .limit(1);
    return Boolean(row);
  }

  /** Looks for the proof: the TXT record first (it decides alone), then the domain over HTTP. */
  private async look(claim: ClaimRow, ownerId: string | null, now: Date): Promise<"proven" | DomainCheckOutcome> {
    const status = await this.status(claim.domain, ownerId ?? undefined);
    if (!status.available) return "taken";
    const records = await this.deps.probe.txt(txtName(claim.domain));
    if (records.some((r) => r.trim() === txtValue(claim.token))) return "proven";
    const answer = await this.deps.probe.get(claim.domain, `${PROOF_PATH}${claim.token}`);
    if (answer?.status !== 200 || answer.body.trim() !== answerOf(claim)) return "not-found";
    // The domain leads here, but that shows only that its owner pointed it at Pathshala: if
    // another owner has asked for it too, only the TXT record tells which of them controls it.
    const [rival] = await this.deps.db
      .select({ id: domainClaims.id })
      .from(domainClaims)
      .innerJoin(centers, eq(centers.id, domainClaims.centerId))
      .where(
        and(
          eq(domainClaims.domain, claim.domain),
          ne(domainClaims.id, claim.id),
          gt(domainClaims.expiresAt, now),
          sql`${centers.ownerId} is distinct from ${ownerId}::uuid`,
        ),
      )
      .limit(1);
    return rival ? "rivals" : "proven";
  }

  /** Binds the proven claim's domain to its institute; false when another got it first. */
  private async bind(claim: ClaimRow, ownerId: string | null): Promise<boolean> {
    try {
      const bound = await this.deps.db.transaction(async (tx) => {
        await lockForTransaction(tx, ADVISORY_LOCKS.domainBinds, bindLockName(claim.domain));
        const [still] = await tx
          .select({ id: domainClaims.id })
          .from(domainClaims)
          .where(and(eq(domainClaims.id, claim.id), eq(domainClaims.token, claim.token)))
          .for("update");
        if (!still) return false;
        const status = await this.status(claim.domain, ownerId ?? undefined, tx);
        if (!status.available) return false;
        await tx
          .update(centers)
          .set({
            customDomain: claim.domain,
            website: `https://${claim.domain}`,
            siteVersion: sql`${centers.siteVersion} + 1`,
            updatedAt: sql`now()`,
          })
          .where(eq(centers.id, claim.centerId));
        await tx.delete(domainClaims).where(eq(domainClaims.id, claim.id));
        return true;
      });
      if (bound) {
        this.deps.tenants.changed();
        this.deps.logger.info("domain bound", { centerId: claim.centerId, domain: claim.domain });
      }
      return bound;
    } catch (error) {
      // Another institute bound the very same name a moment earlier (the unique index).
      if (isUniqueViolation(error, "centers_custom_domain_key")) return false;
      throw error;
    }
  }
}

/** What the platform answers at PROOF_PATH for a claim: not in the URL, so no echo can fake it. */
function answerOf(claim: Pick<ClaimRow, "id" | "token">): string {
  return hashToken(`${claim.id}:${claim.token}`);
}

function outcomeText(outcome: DomainCheckOutcome, domain: string): string {
  return outcome === "taken" ? DOMAIN_TEXTS.taken : DOMAIN_TEXTS[outcome](domain);
}
