import { and, asc, desc, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import { centers, contents, enrollments } from "../db/schema/index.ts";
import type { Db } from "../db/types.ts";
import type { LearningItemJson } from "#common/content-types.ts";
import type { ContentType } from "#common/validation/content.ts";
import { toContentJson, viewColumns, type ContentView } from "./content.ts";
import { decideAccess, heldThroughBatch, liveLinkOpensAt, visibleLiveLink, type Reader } from "./content-access.ts";
import type { DeliveryService, SignedLink } from "./delivery.ts";
import type { Site, TenantCenter } from "./tenants.ts";
import { shownByItsInstitute } from "./site-visibility.ts";

/** The most contents one catalog lists (newest first). */
export const CATALOG_LIMIT = 500;

/** The institute a site belongs to (null on the platform). */
export function siteCenterId(site: Site): string | null {
  return site.kind === "tenant" ? site.center.id : null;
}

/**
 * What can be enrolled in on a site: active, not deleted, shown by its institute (its creator on
 * the team, not hidden: site-visibility.ts), and on an institute's domain only that institute's
 * own content. The platform lists all such content.
 */
export function availableOn(site: Site): SQL {
  const centerId = siteCenterId(site);
  return and(
    eq(contents.isActive, true),
    isNull(contents.archivedAt),
    centerId ? eq(contents.centerId, centerId) : undefined,
    shownByItsInstitute(),
  )!;
}

/**
 * A content for the catalog and the student pages: the file link and the live link only if
 * `reader` may have them (decided by content-access), the rest for everyone.
 */
export function learningItemJson(
  row: ContentView,
  state: {
    reader: Reader | null;
    enrollmentId: string | null;
    /** The reader is admitted to a batch that has it (content-access.ts, batchHeldContentIds). */
    inBatch?: boolean;
    link: SignedLink | null;
    now?: Date;
  },
): LearningItemJson {
  const reason = decideAccess(state.reader, row, state.enrollmentId !== null, state.inBatch);
  const liveLink = row.type === "live" ? visibleLiveLink(reason, row, state.now) : null;
  const fileUrl = reason ? (state.link?.url ?? null) : null;
  const opens = liveLinkOpensAt(row.liveStartsAt);
  return {
    ...toContentJson(row, fileUrl),
    liveLink,
    resourceUrl: row.type === "live" ? liveLink : fileUrl,
    hasLiveLink: Boolean(row.liveLink),
    liveOpensAt:
      row.type === "live" && opens && opens.getTime() > (state.now ?? new Date()).getTime()
        ? opens.toISOString()
        : null,
    enrolled: state.enrollmentId !== null,
    fromBatch: Boolean(state.reader) && (state.inBatch ?? false),
    enrollmentId: state.enrollmentId,
    linkExpiresAt: fileUrl ? (state.link?.expiresAt.toISOString() ?? null) : null,
  };
}

/** The catalog (spec §2 "Catalogue", `GET /api/contents`): what a site offers, and the viewer's place in it. */
export class CatalogService {
  private readonly db: Db;
  private readonly delivery: DeliveryService;
  private readonly catalogVersion: (centerId: string) => number;
  /**
   * An institute's catalog rows as every visitor who is not signed in sees them, kept with the
   * institute's object from the host cache (any change to the institute makes a new object) and
   * the catalog version they were read at (content changes bump it, on every instance).
   */
  private readonly publicRows = new WeakMap<TenantCenter, { version: number; rows: Promise<ContentView[]> }>();

  /** `catalogVersion` is the sites' version of an institute's catalog (SiteService.catalogVersion). */
  constructor(db: Db, delivery: DeliveryService, catalogVersion: (centerId: string) => number) {
    this.db = db;
    this.delivery = delivery;
    this.catalogVersion = catalogVersion;
  }

  /**
   * Active content on `site` (one institute's on its domain, everyone's on the platform), live
   * classes soonest first, the rest newest first. A signed-in student sees which they are
   * enrolled in, with a file link for those.
   */
  async list(site: Site, reader: Reader | null, options: { types?: ContentType[] } = {}): Promise<LearningItemJson[]> {
    const rows =
      !reader && site.kind === "tenant" && !options.types?.length
        ? await this.publicCatalogRows(site)
        : await this.catalogRows(site, options.types);
    const ids = rows.map((r) => r.id);
    const [enrolled, inBatch] = reader
      ? await Promise.all([this.enrolmentsOf(reader.id, ids), heldThroughBatch(this.db, reader.id, ids)])
      : [new Map<string, string>(), new Set<string>()];
    const now = new Date();
    return Promise.all(
      rows.map(async (row) => {
        const enrollmentId = enrolled.get(row.id) ?? null;
        // Links are signed only where the reader may open the file (delivery checks again on opening).
        const held = inBatch.has(row.id);
        const mayOpen = decideAccess(reader, row, enrollmentId !== null, held) !== null;
        const link = reader && mayOpen && row.fileKey ? await this.delivery.signedLink(reader, row) : null;
        return learningItemJson(row, { reader, enrollmentId, inBatch: held, link, now });
      }),
    );
  }

  /** A real promise (drizzle's query runs again on every `then`, so it cannot be kept itself). */
  private async catalogRows(site: Site, types?: ContentType[]): Promise<ContentView[]> {
    return await this.db
      .select(viewColumns)
      .from(contents)
      .leftJoin(centers, eq(centers.id, contents.centerId))
      .where(and(availableOn(site), types?.length ? inArray(contents.type, types) : undefined))
      .orderBy(sql`${contents.liveStartsAt} asc nulls last`, desc(contents.createdAt), asc(contents.id))
      .limit(CATALOG_LIMIT);
  }

  /** The rows from memory while the institute and its catalog are unchanged; read once however many ask at the same time. */
  private publicCatalogRows(site: Extract<Site, { kind: "tenant" }>): Promise<ContentView[]> {
    const { center } = site;
    // The version is read before the query: a change made while it runs leaves the entry stale, not wrong.
    const version = this.catalogVersion(center.id);
    const kept = this.publicRows.get(center);
    if (kept && kept.version === version) return kept.rows;
    const rows = this.catalogRows(site);
    this.publicRows.set(center, { version, rows });
    rows.catch(() => {
      if (this.publicRows.get(center)?.rows === rows) this.publicRows.delete(center);
    });
    return rows;
  }

  private async enrolmentsOf(studentId: string, contentIds: string[]): Promise<Map<string, string>> {
    if (!contentIds.length) return new Map();
    const rows = await this.db
      .select({ id: enrollments.id, contentId: enrollments.contentId })
      .from(enrollments)
      .where(and(eq(enrollments.studentId, studentId), inArray(enrollments.contentId, contentIds)));
    return new Map(rows.map((r) => [r.contentId, r.id]));
  }
}
