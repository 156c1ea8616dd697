import { and, count, desc, eq, ilike, ne, or, sql } from "drizzle-orm";
import { centers, users } from "../db/schema/index.ts";
import type { Db } from "../db/types.ts";
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
import { DOMAIN_RESERVED, isPlatformAddress } from "./purchases.ts";
import { uniqueSlug } from "./center-slugs.ts";
import type { TenantDirectory } from "./tenants.ts";

export const CENTER_DOMAIN_TAKEN = "This domain is already used by another center.";
export const CENTER_NOT_FOUND = "Center not found";

const domainTaken = () =>
  new HttpError(409, CENTER_DOMAIN_TAKEN, { issues: [{ field: "domain", message: CENTER_DOMAIN_TAKEN }] });

const DAY_MS = 24 * 60 * 60 * 1000;

type CenterRow = typeof centers.$inferSelect;
type OwnerRow = { id: string; name: string; email: string } | null;

function toCenterJson(row: CenterRow, owner: OwnerRow, payment: CenterPaymentJson | null = null): CenterJson {
  return {
    _id: row.id,
    name: row.instituteName,
    domain: row.customDomain,
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
  private readonly platformHosts: readonly string[];
  private readonly platformDomain: string;

  /** The newest paid purchase of each center and its refund (RefundService.forCenters). */
  private readonly paymentsOf: (centerIds: string[]) => Promise<Map<string, CenterPaymentJson>>;

  constructor(
    db: Db,
    tenants: TenantDirectory,
    platform: { hosts: readonly string[]; domain: string },
    paymentsOf: (centerIds: string[]) => Promise<Map<string, CenterPaymentJson>> = async () => new Map(),
  ) {
    this.db = db;
    this.paymentsOf = paymentsOf;
    this.tenants = tenants;
    this.platformHosts = platform.hosts;
    this.platformDomain = platform.domain;
  }

  async list(query: CenterListQuery = {}): Promise<{ centers: CenterJson[]; total: number }> {
    const q = query.q?.trim();
    const pattern = q ? `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
    const where = pattern
      ? or(ilike(centers.instituteName, pattern), ilike(centers.customDomain, pattern), ilike(centers.slug, pattern))
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
    const payments = await this.paymentsOf(rows.filter((r) => r.center.ownerId).map((r) => r.center.id));
    return {
      centers: rows.map((r) => toCenterJson(r.center, r.owner?.id ? r.owner : null, payments.get(r.center.id) ?? null)),
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
    return toCenterJson(row.center, row.owner?.id ? row.owner : null, payments.get(row.center.id) ?? null);
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

  private async checkDomain(domain: string, exceptId?: string): Promise<void> {
    if (isPlatformAddress(domain, this.platformHosts, this.platformDomain))
      throw badRequest(DOMAIN_RESERVED, { issues: [{ field: "domain", message: DOMAIN_RESERVED }] });
    const [taken] = await this.db
      .select({ id: centers.id })
      .from(centers)
      .where(
        exceptId ? and(eq(centers.customDomain, domain), ne(centers.id, exceptId)) : eq(centers.customDomain, domain),
      )
      .limit(1);
    if (taken) throw domainTaken();
  }
}
