import { and, eq, isNull, lte, sql } from "drizzle-orm";
import { centers, trials } from "../db/schema/index.ts";
import type { Db, Tx } from "../db/types.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { badRequest, conflict, parseWith } from "../http/errors.ts";
import type { Logger } from "../runtime/logger.ts";
import { formatDate, thePlan } from "#common/format.ts";
import { TRIAL_DAYS, TRIAL_TEXTS, TrialSchema, type TrialCenterJson } from "#common/trial.ts";
import { PLAN_UNAVAILABLE } from "./purchases.ts";
import type { DomainService } from "./domains.ts";
import { workingHost } from "#common/domains.ts";
import type { PlanService } from "./plans.ts";
import { uniqueSlug } from "./center-slugs.ts";
import type { TenantDirectory } from "./tenants.ts";
import type { NoticeService } from "./notices.ts";
import { RATE_RULES, type RateLimiter } from "./rate-limit.ts";
import { tooMany } from "./accounts.ts";
import { ownerContactProfile } from "./site-contacts.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

type CenterRow = typeof centers.$inferSelect;

export interface TrialServiceDeps {
  db: Db;
  plans: PlanService;
  /** Whether the domain may be asked for, and its claim (bound once its owner proves it). */
  domains: DomainService;
  tenants: TenantDirectory;
  notices: NoticeService;
  rateLimiter: RateLimiter;
  logger: Logger;
  platformDomain: string;
}

/**
 * Free trials: a business starts one without paying and gets its institute at once on its working
 * address (a center whose plan runs out when the trial does, so it is unavailable from then on,
 * on read, without a job); the domain it names is asked for, and bound once its owner proves it
 * (DomainService). Buying a plan for that domain converts it (PurchaseService's renewal, which
 * calls `convert`). One trial per owner, ever; a domain bound to any institute starts none.
 */
export class TrialService {
  private readonly deps: TrialServiceDeps;

  constructor(deps: TrialServiceDeps) {
    this.deps = deps;
  }

  async start(userId: string, raw: unknown, now = new Date()): Promise<TrialCenterJson> {
    const input = parseWith(TrialSchema, raw);
    const plan = await this.deps.plans.findOnSale(input.plan);
    if (!plan) throw badRequest(PLAN_UNAVAILABLE);
    const domain = await this.deps.domains.status(input.domain, userId);
    if (!domain.available) throw domain.reason === "taken" ? conflict(domain.message) : badRequest(domain.message);
    if (domain.renewal) throw conflict(TRIAL_TEXTS.ownDomain);
    // Refused before counting: a second trial is a 409, never a 429. A domain is not counted
    // here: an unproven ask blocks nobody, and a bound one is refused above (taken).
    const refusal = await this.refusal(userId);
    if (refusal) throw conflict(refusal);
    const limit = await this.deps.rateLimiter.hit(RATE_RULES.paymentOrderUser, userId);
    if (!limit.allowed) throw tooMany(limit.retryAfter);

    const endsAt = new Date(now.getTime() + TRIAL_DAYS * DAY_MS);
    let center: CenterRow;
    try {
      center = await this.deps.db.transaction(async (tx) => {
        const [trial] = await tx
          .insert(trials)
          .values({
            userId,
            planId: plan.id,
            planName: plan.name,
            billing: input.billing,
            domain: domain.domain,
            instituteName: input.institute,
            ownerName: input.owner,
            email: input.email,
            phone: input.phone || null,
            startedAt: now,
            endsAt,
          })
          .returning({ id: trials.id });
        const [row] = await tx
          .insert(centers)
          .values({
            slug: await uniqueSlug(tx, input.institute),
            instituteName: input.institute,
            website: `https://${domain.domain}`,
            ownerId: userId,
            planId: plan.id,
            planName: plan.name,
            billing: input.billing,
            status: "active",
            startsAt: now,
            expiresAt: endsAt,
            trialEndsAt: endsAt,
            siteProfile: ownerContactProfile(input),
          })
          .returning();
        await tx.update(trials).set({ centerId: row.id }).where(eq(trials.id, trial.id));
        await this.deps.domains.claim(tx, row.id, domain.domain, now);
        await this.deps.notices.toAdmins(tx, {
          kind: "trial-started",
          title: `Trial started: ${row.instituteName}`,
          body: `${input.owner} (${input.email}) is trying ${thePlan(plan.name)} on ${domain.domain} until ${formatDate(endsAt.toISOString())}.`,
          centerId: row.id,
        });
        return row;
      });
    } catch (error) {
      // Two requests at once: the unique indexes decide which one starts the trial.
      if (isUniqueViolation(error, "trials_user_key")) throw conflict(TRIAL_TEXTS.ownerUsed);
      throw error;
    }
    this.deps.tenants.changed();
    return this.toJson(center, domain.domain);
  }

  /**
   * Whether this account may start a free trial: the one place that decides it, for the wizard's
   * button and the Subscription Plan page as for POST /api/trial. A trial is for an owner's first
   * institute: one per owner, ever, and none for an owner who already has an institute (paid,
   * ended or on trial), who buys a plan instead.
   */
  async mayStart(userId: string): Promise<boolean> {
    return (await this.refusal(userId)) === null;
  }

  /** Why this account may not start a free trial, in the product's words; null when it may. */
  async refusal(userId: string): Promise<string | null> {
    const [used] = await this.deps.db
      .select({ userId: trials.userId })
      .from(trials)
      .where(eq(trials.userId, userId))
      .limit(1);
    if (used) return TRIAL_TEXTS.ownerUsed;
    const [owned] = await this.deps.db
      .select({ id: centers.id })
      .from(centers)
      .where(eq(centers.ownerId, userId))
      .limit(1);
    return owned ? TRIAL_TEXTS.ownerHasInstitute : null;
  }

  toJson(center: CenterRow, asked: string | null): TrialCenterJson {
    return {
      _id: center.id,
      slug: center.slug,
      instituteName: center.instituteName,
      domain: center.customDomain,
      pendingDomain: center.customDomain ? null : asked,
      workingHost: workingHost(center.slug, this.deps.platformDomain),
      plan: center.planName,
      billing: center.billing,
      status: "trial",
      trialEndsAt: center.trialEndsAt!.toISOString(),
      expiresAt: center.expiresAt!.toISOString(),
    };
  }

  /**
   * A plan was paid for a center on trial (inside the payment's transaction): the trial is over,
   * converted, and the center keeps everything it has.
   */
  async convert(tx: Tx, center: Pick<CenterRow, "id" | "instituteName" | "trialEndsAt">, planName: string) {
    if (!center.trialEndsAt) return;
    const [trial] = await tx
      .update(trials)
      .set({ convertedAt: sql`now()` })
      .where(and(eq(trials.centerId, center.id), isNull(trials.convertedAt)))
      .returning({ id: trials.id });
    if (!trial) return;
    await this.deps.notices.toAdmins(tx, {
      kind: "trial-converted",
      title: `Trial converted: ${center.instituteName}`,
      body: `${center.instituteName} bought ${thePlan(planName)} after its free trial.`,
      centerId: center.id,
      key: `trial-converted:${trial.id}`,
    });
  }

  /**
   * Tells owners and admins of trials that ended unpaid. Nothing depends on it for correctness
   * (an ended trial's site is unavailable from its end, on read); each end is told once.
   */
  async announceEnded(now = new Date()): Promise<number> {
    const ended = await this.deps.db
      .select({ id: trials.id })
      .from(trials)
      .where(and(lte(trials.endsAt, now), isNull(trials.convertedAt), isNull(trials.endNoticeAt)))
      .limit(500);
    let told = 0;
    for (const { id } of ended) {
      await this.deps.db.transaction(async (tx) => {
        const [trial] = await tx
          .update(trials)
          .set({ endNoticeAt: now })
          .where(and(eq(trials.id, id), isNull(trials.endNoticeAt), isNull(trials.convertedAt)))
          .returning();
        if (!trial) return;
        told++;
        const notice = {
          kind: "trial-ended" as const,
          centerId: trial.centerId,
          key: `trial-ended:${trial.id}`,
        };
        await this.deps.notices.toOwner(tx, trial.userId, {
          ...notice,
          title: "Your free trial has ended",
          body: `${trial.instituteName}'s website is unavailable until you buy a plan. Everything you set up is kept.`,
        });
        await this.deps.notices.toAdmins(tx, {
          ...notice,
          title: `Trial ended unpaid: ${trial.instituteName}`,
          body: `The free trial of ${trial.domain} (${trial.email}) ended without a purchase.`,
        });
      });
    }
    return told;
  }
}
