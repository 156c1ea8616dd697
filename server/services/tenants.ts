import { eq, inArray, or } from "drizzle-orm";
import { centers } from "../db/schema/index.ts";
import type { Database } from "../db/types.ts";
import { normaliseHost } from "../runtime/env.ts";
import { LRUCache } from "lru-cache";
import { recordCache } from "../runtime/metrics.ts";
import { isReservedLabel } from "./center-slugs.ts";
import { twinOf } from "#common/domains.ts";

export type TenantCenter = Pick<
  typeof centers.$inferSelect,
  | "id"
  | "slug"
  | "instituteName"
  | "customDomain"
  | "website"
  | "superAdminPath"
  | "ownerId"
  | "status"
  | "startsAt"
  | "expiresAt"
  | "templateId"
  | "siteProfile"
  | "siteVersion"
  | "planName"
  | "merchantAccountId"
>;

/** What a request's host names: the platform itself, one institute, or nothing we serve. */
export type Site =
  | { kind: "platform"; host: string }
  | { kind: "tenant"; host: string; center: TenantCenter }
  | { kind: "unknown"; host: string };

/** Where the database announces every change to `centers` (migration 0011_center-catalog-notices). */
export const CENTERS_CHANNEL = "pathshala_centers";

export interface TenantDirectoryOptions {
  platformHosts: string[];
  /** `{slug}.{platformDomain}` names a center; empty disables slug hosts. */
  platformDomain: string;
  cacheSize?: number;
}

/**
 * Resolves hosts to sites, caching answers (including "unknown") in process. The database
 * announces any change to any center (a trigger, whoever wrote it), which empties every
 * instance's cache; while the channel is not connected the cache is bypassed, so a stale answer
 * is never served.
 */
export class TenantDirectory {
  private readonly cache: LRUCache<string, Site>;
  private readonly platformHosts: Set<string>;
  private generation = 0;

  private readonly database: Database;
  private readonly options: TenantDirectoryOptions;

  constructor(database: Database, options: TenantDirectoryOptions) {
    this.database = database;
    this.options = options;
    this.cache = new LRUCache({ max: options.cacheSize ?? 20_000 });
    this.platformHosts = new Set(options.platformHosts);
    database.listen(CENTERS_CHANNEL, () => this.forget());
  }

  isPlatformHost(host: string): boolean {
    return this.platformHosts.has(normaliseHost(host));
  }

  /**
   * The answer for a host when it needs no query: the platform, or what the cache holds;
   * undefined when only resolve() can tell.
   */
  peek(rawHost: string): Site | undefined {
    const host = normaliseHost(rawHost);
    if (this.platformHosts.has(host)) return { kind: "platform", host };
    if (!this.caching()) return undefined;
    const hit = this.cache.get(host);
    if (hit) recordCache("host", true);
    return hit;
  }

  async resolve(rawHost: string): Promise<Site> {
    const known = this.peek(rawHost);
    if (known) return known;
    const host = normaliseHost(rawHost);
    const useCache = this.database.listening();
    if (useCache) recordCache("host", false);
    const generation = this.generation;
    const center = await this.lookup(host);
    const site: Site = center ? { kind: "tenant", host, center } : { kind: "unknown", host };
    // A change announced while we were querying may have made this answer stale.
    if (useCache && generation === this.generation) this.cache.set(host, site);
    return site;
  }

  /**
   * Call after a write to centers commits: this instance forgets at once, without waiting for the
   * database's announcement (which tells every instance, this one included).
   */
  changed(): void {
    this.forget();
  }

  /** Whether cached answers may be used: only while changes to centers can be heard. */
  caching(): boolean {
    return this.database.listening();
  }

  private forget() {
    this.generation++;
    this.cache.clear();
  }

  private async lookup(host: string): Promise<TenantCenter | undefined> {
    if (!host || host.length > 253) return undefined;
    const { platformDomain } = this.options;
    const suffix = platformDomain ? `.${platformDomain}` : undefined;
    const slug = suffix && host.endsWith(suffix) ? host.slice(0, -suffix.length) : undefined;
    // An institute's bound domain serves it with its `www.` twin (the tenant middleware sends
    // the twin on to the domain itself).
    const byDomain = inArray(centers.customDomain, [host, twinOf(host)]);
    // A reserved label is the platform's even if an older institute was given it.
    const where =
      slug && !slug.includes(".") && !isReservedLabel(slug) ? or(byDomain, eq(centers.slug, slug)) : byDomain;
    const rows = await this.database.db
      .select({
        id: centers.id,
        slug: centers.slug,
        instituteName: centers.instituteName,
        customDomain: centers.customDomain,
        website: centers.website,
        superAdminPath: centers.superAdminPath,
        ownerId: centers.ownerId,
        status: centers.status,
        startsAt: centers.startsAt,
        expiresAt: centers.expiresAt,
        templateId: centers.templateId,
        siteProfile: centers.siteProfile,
        siteVersion: centers.siteVersion,
        planName: centers.planName,
        merchantAccountId: centers.merchantAccountId,
      })
      .from(centers)
      .where(where)
      .limit(3);
    // A custom domain wins over a slug host if both somehow match, and either over a twin.
    return rows.find((r) => r.customDomain === host) ?? rows.find((r) => r.customDomain !== twinOf(host)) ?? rows[0];
  }
}

/** An institute's site is served only while it is active and its plan has not run out. */
export function isCenterLive(center: Pick<TenantCenter, "status" | "expiresAt">, now = Date.now()): boolean {
  return center.status === "active" && (!center.expiresAt || center.expiresAt.getTime() > now);
}
