import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, brotliCompressSync, constants as zlib, gzip, gzipSync } from "node:zlib";
import { and, desc, eq, isNull, ne, or, sql } from "drizzle-orm";
import type { LRUCache } from "lru-cache";
import { renderToString } from "react-dom/server";
import { createElement } from "react";
import { centers, contents, mockTests, seriesTests, templateSelections, type SiteProfile } from "../db/schema/index.ts";
import type { Database, Db } from "../db/types.ts";
import { TEMPLATES, isTemplateId, type CatalogItem, type SiteData, type TemplateId } from "../../tenants/index.tsx";
import { defaultTagline, shownPrograms } from "../../tenants/defaults.ts";
import { ENQUIRY_SCRIPT } from "../../tenants/enquiry-script.ts";
import { NEEDS_PLAN } from "../../tenants/types.ts";
import { escapeHtml } from "../http/html.ts";
import { byteBoundedCache } from "../caches/byte-cache.ts";
import { recordCache } from "../runtime/metrics.ts";
import type { TenantCenter, TenantDirectory } from "./tenants.ts";
import { hasActivePlan, type OwnedCenter } from "./business.ts";
import { HttpError } from "../http/errors.ts";
import { shownByItsInstitute } from "./site-visibility.ts";

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** Where the database announces, by institute id, every change to what its site lists (migration 0011_center-catalog-notices). */
export const CATALOG_CHANNEL = "pathshala_catalog";
const sha = (text: string | Buffer) => createHash("sha256").update(text).digest("base64url").slice(0, 16);

/** One of the institute sites' assets: its bytes, plain and compressed once (best quality), and its version. */
export interface SiteAsset {
  body: Buffer;
  compressed: Record<Encoding, Buffer>;
  version: string;
  type: string;
}

function siteAsset(text: string, type: string): SiteAsset {
  const body = Buffer.from(text);
  const compressed = {
    br: brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }),
    gzip: gzipSync(body, { level: 9 }),
  };
  return { body, compressed, version: sha(body), type };
}

/** Long-cached, versioned assets of the institute sites: one stylesheet per template, one small script. */
export const SITE_ASSETS = {
  script: siteAsset(ENQUIRY_SCRIPT, "text/javascript; charset=utf-8"),
  ...Object.fromEntries(
    (Object.keys(TEMPLATES) as TemplateId[]).map((id) => [id, siteAsset(TEMPLATES[id].css, "text/css; charset=utf-8")]),
  ),
} as Record<"script" | TemplateId, SiteAsset>;

/** The compressed copies a home page is kept in, in the order they are preferred when equally welcome. */
export const HOME_PAGE_ENCODINGS = ["br", "gzip"] as const;
export type Encoding = (typeof HOME_PAGE_ENCODINGS)[number];

/** A rendered home page as the cache holds it, with what it was rendered from. */
interface RenderedPage {
  /** The page as sent: plain, and compressed copies made the first time a visitor accepts them. */
  variants: Partial<Record<Encoding | "identity", HomePage>>;
  bytes: number;
  siteVersion: number;
  catalogVersion: number;
  templateId: TemplateId;
  /** When a test on the page opens or closes (ms since the epoch): the page is stale from then. */
  freshUntil: number;
}

const COMPRESS: Record<Encoding, (html: Buffer) => Promise<Buffer>> = {
  gzip: (html) => gzipAsync(html, { level: 6 }),
  br: (html) => brotliAsync(html, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } }),
};

/**
 * The institutes' public sites: their data (profile with the spec's samples as defaults, plus their
 * catalog), server-rendered templates, and an in-memory cache of the rendered home pages keyed by
 * center, host, site version and catalog version. Template and profile changes bump the center's
 * site version (announced to every instance by TenantDirectory); the database announces catalog
 * changes on their own channel.
 */
export class SiteService {
  private readonly db: Db;
  private readonly cache: LRUCache<string, RenderedPage>;
  /**
   * Catalog changes heard of are numbered in order; an institute's catalog version is the number
   * of its last change, or of the last reset (changes may have been missed) when none came since.
   * So a version never repeats, and every cache can compare it with what it read at.
   */
  private readonly catalogVersions = new Map<string, number>();
  private catalogChanges = 0;
  private catalogReset = 0;
  private readonly tenants: TenantDirectory;

  constructor(database: Database, tenants: TenantDirectory, cacheBytes = 256 * 1024 * 1024) {
    this.db = database.db;
    this.tenants = tenants;
    this.cache = byteBoundedCache(cacheBytes);
    database.listen(CATALOG_CHANNEL, (centerId) => {
      if (centerId === "*" || !centerId) {
        // Changes may have been missed: everything read before now is stale.
        this.catalogVersions.clear();
        this.catalogReset = ++this.catalogChanges;
        this.cache.clear();
      } else this.catalogChangeHeard(centerId);
    });
  }

  private catalogChangeHeard(centerId: string): void {
    this.catalogVersions.set(centerId, ++this.catalogChanges);
  }

  /** The institute's catalog version as this instance knows it (see catalogVersions). */
  catalogVersion(centerId: string): number {
    return this.catalogVersions.get(centerId) ?? this.catalogReset;
  }

  /**
   * Call after a change to what a center's site lists commits: this instance's next page shows it
   * at once, without waiting for the database's announcement (which tells every instance).
   */
  catalogChanged(centerId: string | null | undefined): void {
    if (centerId) this.catalogChangeHeard(centerId);
  }

  async siteData(center: Pick<TenantCenter, "id" | "instituteName" | "siteProfile">): Promise<SiteData> {
    return (await this.siteDataUntil(center)).data;
  }

  /** The site's data, and until when it stays so without a change (`catalog`'s `freshUntil`). */
  private async siteDataUntil(
    center: Pick<TenantCenter, "id" | "instituteName" | "siteProfile">,
  ): Promise<{ data: SiteData; freshUntil: number }> {
    const { freshUntil, ...catalog } = await this.catalog(center.id);
    return { data: { ...profileData(center), catalog }, freshUntil };
  }

  /**
   * What the institute's site lists: its active contents; of its tests only the published ones,
   * each marked closed once its window has passed (then it is no longer offered), and each series
   * with how many of its tests are on sale. `freshUntil` is when the next test opens or closes:
   * what the page shows changes then without any change to the catalog.
   */
  async catalog(centerId: string, now = new Date()): Promise<SiteData["catalog"] & { freshUntil: number }> {
    const rows = await this.db
      .select({
        id: contents.id,
        title: contents.title,
        description: contents.description,
        price: contents.price,
        type: contents.type,
        startsAt: contents.liveStartsAt,
        opensAt: mockTests.opensAt,
        closesAt: mockTests.closesAt,
        testCount: sql<number>`(select count(*)::int from ${seriesTests} inner join ${mockTests} on ${mockTests.contentId} = ${seriesTests.testId} where ${seriesTests.seriesId} = ${contents.id} and ${mockTests.status} = 'published')`,
      })
      .from(contents)
      .leftJoin(mockTests, eq(mockTests.contentId, contents.id))
      .where(
        and(
          eq(contents.centerId, centerId),
          eq(contents.isActive, true),
          isNull(contents.archivedAt),
          shownByItsInstitute(),
          // A test is on the site once published (a draft is switched off too; this says why).
          or(ne(contents.type, "test"), eq(mockTests.status, "published")),
        ),
      )
      .orderBy(desc(contents.createdAt))
      .limit(60);
    // Its paid items are not on sale until it connects its own payment account (decision 0040).
    const [seller] = await this.db
      .select({ account: centers.merchantAccountId })
      .from(centers)
      .where(eq(centers.id, centerId));
    const selling = Boolean(seller?.account);
    let freshUntil = Number.POSITIVE_INFINITY;
    const items: CatalogItem[] = rows.map(({ opensAt, closesAt, testCount, ...r }) => {
      const item: CatalogItem = { ...r, price: r.price / 100, startsAt: r.startsAt?.toISOString() ?? null };
      if (!selling && r.price > 0) item.onSale = false;
      if (r.type === "test") {
        for (const at of [opensAt, closesAt])
          if (at && at.getTime() > now.getTime()) freshUntil = Math.min(freshUntil, at.getTime());
        item.opensAt = opensAt && opensAt > now ? opensAt.toISOString() : null;
        item.closed = closesAt !== null && closesAt <= now;
      }
      if (r.type === "series") item.testCount = Number(testCount);
      return item;
    });
    return {
      live: items.filter((i) => i.type === "live"),
      courses: items.filter((i) => i.type === "video"),
      materials: items.filter((i) => i.type === "pdf"),
      // A series without a test on sale would sell nothing.
      tests: items.filter((i) => i.type === "test" || (i.type === "series" && (i.testCount ?? 0) > 0)),
      freshUntil,
    };
  }

  /**
   * The institute's home page in the encoding asked for, from the cache when nothing it shows
   * has changed (a compressed copy is made once, on first demand, and kept with the page).
   */
  async homePage(center: TenantCenter, host: string, encoding: Encoding | null = null): Promise<HomePage> {
    const slot = slotOf(center, host);
    // While announcements cannot be heard, a catalog change made elsewhere would go unseen.
    const held = this.tenants.caching() ? this.currentPage(slot, center) : undefined;
    recordCache("site", Boolean(held));
    const page = held ?? (await this.renderedPage(center, host, slot));
    const plain = page.variants.identity!;
    if (!encoding) return plain;
    let variant = page.variants[encoding];
    if (!variant) {
      variant = { etag: plain.etag, body: await COMPRESS[encoding](plain.body) };
      page.variants[encoding] = variant;
      page.bytes += variant.body.length;
      // The entry grew: stored again, it is weighed again against the cache's budget.
      this.cache.delete(slot);
      this.cache.set(slot, page);
    }
    return variant;
  }

  /** The cached page if it still shows what the institute's site, catalog and template are now. */
  private currentPage(slot: string, center: TenantCenter): RenderedPage | undefined {
    const page = this.cache.get(slot);
    const current =
      page &&
      page.siteVersion === center.siteVersion &&
      page.catalogVersion === this.catalogVersion(center.id) &&
      page.templateId === templateOf(center) &&
      Date.now() < page.freshUntil;
    return current ? page : undefined;
  }

  /** Renders the page afresh and caches it. */
  private async renderedPage(center: TenantCenter, host: string, slot: string): Promise<RenderedPage> {
    const templateId = templateOf(center);
    const catalogVersion = this.catalogVersion(center.id);
    const { data, freshUntil } = await this.siteDataUntil(center);
    const html = Buffer.from(renderDocument(templateId, data, host));
    // From the bytes themselves: every instance gives the same page the same tag.
    const etag = `"${sha(html)}"`;
    const page: RenderedPage = {
      variants: { identity: { etag, body: html } },
      bytes: html.length,
      siteVersion: center.siteVersion,
      catalogVersion,
      templateId,
      freshUntil,
    };
    this.cache.set(slot, page);
    return page;
  }

  /**
   * Records the template choice (and its notification) for an institute with an active plan;
   * `alreadyApplied` when nothing changed. The API and the business area both come here.
   */
  async applyTemplate(
    center: Pick<OwnedCenter, "id" | "status" | "expiresAt" | "planName">,
    templateId: TemplateId,
    userId: string | null,
  ): Promise<{ alreadyApplied: boolean }> {
    if (!hasActivePlan(center)) throw new HttpError(403, NEEDS_PLAN);
    const centerId = center.id;
    const changed = await this.db.transaction(async (tx) => {
      const [center] = await tx
        .select({ templateId: centers.templateId })
        .from(centers)
        .where(eq(centers.id, centerId))
        .for("update");
      if (!center || center.templateId === templateId) return false;
      await tx
        .update(centers)
        .set({ templateId, siteVersion: sqlIncrement(), updatedAt: new Date() })
        .where(eq(centers.id, centerId));
      // An owner trying the designs one after another is one choice for the admins: a switch
      // within the window updates that institute's latest selection (to the newest design and
      // time, unread again) instead of adding a notification per click.
      const [recent] = await tx
        .select({ id: templateSelections.id })
        .from(templateSelections)
        .where(
          and(
            eq(templateSelections.centerId, centerId),
            sql`${templateSelections.createdAt} > now() - make_interval(secs => ${TEMPLATE_CHOICE_WINDOW_S})`,
          ),
        )
        .orderBy(desc(templateSelections.createdAt))
        .limit(1);
      if (recent)
        await tx
          .update(templateSelections)
          .set({ templateId, userId, createdAt: sql`now()` })
          .where(eq(templateSelections.id, recent.id));
      else await tx.insert(templateSelections).values({ centerId, userId, templateId });
      return true;
    });
    if (changed) this.tenants.changed();
    return { alreadyApplied: !changed };
  }

  async updateProfile(centerId: string, profile: SiteProfile): Promise<void> {
    await this.db
      .update(centers)
      .set({ siteProfile: profile, siteVersion: sqlIncrement(), updatedAt: new Date() })
      .where(eq(centers.id, centerId));
    this.tenants.changed();
  }

  cacheStats() {
    return { entries: this.cache.size, bytes: this.cache.calculatedSize };
  }
}

export interface HomePage {
  etag: string;
  body: Buffer;
}

/** Template switches of one institute this close together are one notification for the admins. */
export const TEMPLATE_CHOICE_WINDOW_S = 30 * 60;

/** A page is cached per institute and host (its canonical address names the host). */
const slotOf = (center: Pick<TenantCenter, "id">, host: string) => `${center.id}|${host}`;

const templateOf = (center: Pick<TenantCenter, "templateId">): TemplateId =>
  isTemplateId(center.templateId) ? center.templateId : "t1";

function sqlIncrement() {
  return sql`${centers.siteVersion} + 1`;
}

/**
 * The institute's details with the spec's samples where it has not filled them in. Contact details
 * are never samples: an address, phone or e-mail the institute has not given is left out
 * (decision 0021); a new site starts with the owner's phone and e-mail from the setup wizard.
 */
export function profileData(center: Pick<TenantCenter, "instituteName" | "siteProfile">): Omit<SiteData, "catalog"> {
  const p = center.siteProfile ?? {};
  const programs = shownPrograms(p.programs);
  return {
    instituteName: center.instituteName,
    tagline: p.tagline?.trim() || defaultTagline(center.instituteName, programs),
    address: p.address?.trim() ?? "",
    phone: p.phone?.trim() ?? "",
    email: p.contactEmail?.trim() ?? "",
    programs,
    // Only the institute's own: the samples' invented ranks never reach visitors (issue 38 §6).
    testimonials: p.testimonials ?? [],
    logoUrl: p.logoKey ? `/media/${p.logoKey}` : null,
    brandColor: p.brandColor && /^#[0-9a-f]{6}$/i.test(p.brandColor) ? p.brandColor : null,
  };
}

/** A complete, script-light HTML document for an institute's home page. */
export function renderDocument(templateId: TemplateId, data: SiteData, host: string): string {
  const { Component } = TEMPLATES[templateId];
  const body = renderToString(createElement(Component, { data }));
  const title = escapeHtml(`${data.instituteName} | JEE, NEET & Boards coaching`);
  const description = escapeHtml(data.tagline);
  const css = SITE_ASSETS[templateId];
  const script = SITE_ASSETS.script;
  const jsonLd = JSON.stringify({
    "@context": "https://schema.org",
    "@type": "EducationalOrganization",
    name: data.instituteName,
    address: data.address || undefined,
    telephone: data.phone || undefined,
    email: data.email || undefined,
  }).replace(/</g, "\\u003c");
  return `<!doctype html><html lang="en" data-template="${templateId}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title><meta name="description" content="${description}"><link rel="canonical" href="https://${escapeHtml(host)}/"><meta property="og:type" content="website"><meta property="og:title" content="${escapeHtml(data.instituteName)}"><meta property="og:description" content="${description}"><meta property="og:url" content="https://${escapeHtml(host)}/">${data.logoUrl ? `<meta property="og:image" content="${escapeHtml(data.logoUrl)}"><link rel="icon" href="${escapeHtml(data.logoUrl)}">` : `<link rel="icon" href="${initialIcon(data)}">`}<link rel="stylesheet" href="/_site/${templateId}.css?v=${css.version}"><script type="application/ld+json">${jsonLd}</script><script src="/_site/enquiry.js?v=${script.version}" defer></script></head><body>${body}</body></html>`;
}

/** Without a logo, the tab shows the institute's initial in its colour (never the platform's mark). */
function initialIcon(data: SiteData): string {
  const letter = (data.instituteName.match(/[A-Za-z0-9]/)?.[0] ?? "•").toUpperCase();
  const color = data.brandColor ?? "#334155";
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="${color}"/><text x="32" y="44" font-family="Arial,sans-serif" font-size="36" font-weight="700" fill="#fff" text-anchor="middle">${letter}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}
