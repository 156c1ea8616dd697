import { and, count, desc, eq, ilike, inArray, or, sql } from "drizzle-orm";
import { centers, domainClaims, users } from "../db/schema/index.ts";
import type { Db } from "../db/types.ts";
import { containsPattern } from "../db/like.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { HttpError, badRequest, notFound, parseWith } from "../http/errors.ts";
import { isUuid } from "#common/validation/ids.ts";
import {
  CenterStatusSchema,
  ExtendCenterSchema,
  SubCenterSchema,
  type CenterJson,
  type CenterPaymentJson,
  type SubCenterInput,
} from "#common/validation/centers.ts";
import { uniqueSlug } from "./center-slugs.ts";
import type { TenantDirectory } from "./tenants.ts";
import type { DomainService } from "./domains.ts";

export const CENTER_DOMAIN_TAKEN = "This domain is already used by another center.";
export const CENTER_NOT_FOUND = "Center not found";

const domainTaken = () =>
  new HttpError(409, CENTER_DOMAIN_TAKEN, { issues: [{ field: "domain", message: CENTER_DOMAIN_TAKEN }] });

const DAY_MS = 24 * 60 * 60 * 1000;

type CenterRow = typeof centers.$inferSelect;
type OwnerRow = { id: string; name: string; email: string } | null;

function toCenterJson(
  row: CenterRow,
  owner: OwnerRow,
  payment: CenterPaymentJson | null = null,
  pendingDomain: string | null = null,
): CenterJson {
  return {
    _id: row.id,
    name: row.instituteName,
    domain: row.customDomain,
    pendingDomain,
    website: row.website,
    superAdminPath: row.superAdminPath,
    slug: row.slug,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    startsAt: row.startsAt.toISOString(),
    expireDate: row.expiresAt?.toISOString() ?? null,
    plan: row.planName,
    billing: row.billing,
    templateId: row.templateId,
    owner: owner ? { _id: owner.id, name: owner.name, email: owner.email } : null,
    trialEndsAt: row.trialEndsAt?.toISOString() ?? null,
    payment,
  };
}

export interface CenterListQuery {
  q?: string;
  limit?: number;
  offset?: number;
}

/**
 * The platform admins' work on centers: list, create a sub center, edit it, extend its expiry,
 * activate or deactivate it. Every write is announced to the host caches so that the domain
 * serves the change at once, on every instance.
 */
export class CenterAdminService {
  private readonly db: Db;
  private readonly tenants: TenantDirectory;
  private readonly domains: DomainService;

  /** The newest paid purchase of each center and its refund (RefundService.forCenters). */
  private readonly paymentsOf: (centerIds: string[]) => Promise<Map<string, CenterPaymentJson>>;

  constructor(
    db: Db,
    tenants: TenantDirectory,
    domains: DomainService,
    paymentsOf: (centerIds: string[]) => Promise<Map<string, CenterPaymentJson>> = async () => new Map(),
  ) {
    this.db = db;
    this.paymentsOf = paymentsOf;
    this.tenants = tenants;
    this.domains = domains;
  }

  async list(query: CenterListQuery = {}): Promise<{ centers: CenterJson[]; total: number }> {
    const q = query.q?.trim();
    const pattern = q ? containsPattern(q) : null;
    // A domain an owner asked for and has not proven finds its center too.
    const asking = this.db
      .select({ id: domainClaims.centerId })
      .from(domainClaims)
      .where(ilike(domainClaims.domain, pattern ?? ""));
    const where = pattern
      ? or(
          ilike(centers.instituteName, pattern),
          ilike(centers.customDomain, pattern),
          ilike(centers.slug, pattern),
          inArray(centers.id, asking),
        )
      : undefined;
    const [rows, [{ n }]] = await Promise.all([
      this.db
        .select({ center: centers, owner: { id: users.id, name: users.name, email: users.email } })
        .from(centers)
        .leftJoin(users, eq(users.id, centers.ownerId))
        .where(where)
        .orderBy(desc(centers.createdAt), desc(centers.id))
        .limit(query.limit ?? 50)
        .offset(query.offset ?? 0),
      this.db.select({ n: count() }).from(centers).where(where),
    ]);
    const [payments, pending] = await Promise.all([
      this.paymentsOf(rows.filter((r) => r.center.ownerId).map((r) => r.center.id)),
      this.pendingDomains(rows.map((r) => r.center.id)),
    ]);
    return {
      centers: rows.map((r) =>
        toCenterJson(
          r.center,
          r.owner?.id ? r.owner : null,
          payments.get(r.center.id) ?? null,
          pending.get(r.center.id) ?? null,
        ),
      ),
      total: n,
    };
  }

  async get(id: string): Promise<CenterJson> {
    if (!isUuid(id)) throw notFound(CENTER_NOT_FOUND);
    const [row] = await this.db
      .select({ center: centers, owner: { id: users.id, name: users.name, email: users.email } })
      .from(centers)
      .leftJoin(users, eq(users.id, centers.ownerId))
      .where(eq(centers.id, id));
    if (!row) throw notFound(CENTER_NOT_FOUND);
    const payments = row.center.ownerId ? await this.paymentsOf([row.center.id]) : new Map();
    const pending = await this.pendingDomains([row.center.id]);
    return toCenterJson(
      row.center,
      row.owner?.id ? row.owner : null,
      payments.get(row.center.id) ?? null,
      pending.get(row.center.id) ?? null,
    );
  }

  /** The domains these centers' owners asked for and have not proven. */
  private async pendingDomains(centerIds: string[]): Promise<Map<string, string>> {
    if (centerIds.length === 0) return new Map();
    const rows = await this.db
      .select({ centerId: domainClaims.centerId, domain: domainClaims.domain })
      .from(domainClaims)
      .where(inArray(domainClaims.centerId, centerIds));
    return new Map(rows.map((r) => [r.centerId, r.domain]));
  }

  /** A new center with no owner and no plan yet; it is live on its domain at once. */
  async create(raw: unknown): Promise<CenterJson> {
    const input = parseWith(SubCenterSchema, raw);
    await this.checkDomain(input.domain);
    let id: string;
    try {
      id = await this.db.transaction(async (tx) => {
        const [row] = await tx
          .insert(centers)
          .values({
            slug: await uniqueSlug(tx, input.name),
            instituteName: input.name,
            customDomain: input.domain,
            website: input.website,
            superAdminPath: input.superAdminPath,
            status: "active",
          })
          .returning({ id: centers.id });
        return row.id;
      });
    } catch (error) {
      // Two admins (or an admin and a buyer) racing for one domain: the index decides.
      if (isUniqueViolation(error, "centers_custom_domain_key")) throw domainTaken();
      throw error;
    }
    this.tenants.changed();
    return this.get(id);
  }

  async update(id: string, raw: unknown): Promise<CenterJson> {
    const input: SubCenterInput = parseWith(SubCenterSchema, raw);
    await this.existing(id);
    await this.checkDomain(input.domain, id);
    try {
      await this.db
        .update(centers)
        .set({
          instituteName: input.name,
          customDomain: input.domain,
          website: input.website,
          superAdminPath: input.superAdminPath,
          siteVersion: sql`${centers.siteVersion} + 1`,
          updatedAt: new Date(),
        })
        .where(eq(centers.id, id));
      // An owner's unproven ask for the domain the admin has now bound is settled.
      await this.db
        .delete(domainClaims)
        .where(and(eq(domainClaims.centerId, id), eq(domainClaims.domain, input.domain)));
    } catch (error) {
      if (isUniqueViolation(error, "centers_custom_domain_key")) throw domainTaken();
      throw error;
    }
    this.tenants.changed();
    return this.get(id);
  }

  /** Runs on from the current expiry, or from now when it has passed; a center without one gets one. */
  async extend(id: string, raw: unknown): Promise<CenterJson> {
    const { days } = parseWith(ExtendCenterSchema, raw);
    if (!isUuid(id)) throw notFound(CENTER_NOT_FOUND);
    await this.db.transaction(async (tx) => {
      const [row] = await tx
        .select({ expiresAt: centers.expiresAt })
        .from(centers)
        .where(eq(centers.id, id))
        .for("update");
      if (!row) throw notFound(CENTER_NOT_FOUND);
      const now = Date.now();
      const from = row.expiresAt && row.expiresAt.getTime() > now ? row.expiresAt.getTime() : now;
      await tx
        .update(centers)
        .set({ expiresAt: new Date(from + days * DAY_MS), updatedAt: new Date() })
        .where(eq(centers.id, id));
    });
    this.tenants.changed();
    return this.get(id);
  }

  async setStatus(id: string, raw: unknown): Promise<CenterJson> {
    const { status } = parseWith(CenterStatusSchema, raw);
    await this.existing(id);
    await this.db.update(centers).set({ status, updatedAt: new Date() }).where(eq(centers.id, id));
    this.tenants.changed();
    return this.get(id);
  }

  private async existing(id: string): Promise<void> {
    if (!isUuid(id)) throw notFound(CENTER_NOT_FOUND);
    const [row] = await this.db.select({ id: centers.id }).from(centers).where(eq(centers.id, id));
    if (!row) throw notFound(CENTER_NOT_FOUND);
  }

  /**
   * An admin binds a domain directly (admins are the platform: no proof asked), but never the
   * platform's own addresses, nor another center's domain, its `www.` twin or a name under it.
   */
  private async checkDomain(domain: string, exceptId?: string): Promise<void> {
    const status = await this.domains.status(domain);
    if (!status.available && status.reason !== "taken")
      throw badRequest(status.message, { issues: [{ field: "domain", message: status.message }] });
    if (await this.domains.boundElsewhere(domain, exceptId)) throw domainTaken();
  }
}
