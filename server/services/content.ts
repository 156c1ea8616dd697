import { and, asc, count, desc, eq, getTableColumns, ilike, isNull, notInArray, sql, type SQL } from "drizzle-orm";
import { centers, contents, enrollments, orders } from "../db/schema/index.ts";
import type { Db, DbOrTx } from "../db/types.ts";
import { containsPattern } from "../db/like.ts";
import { readTags, type ReadCache, type ReadCaches } from "../caches/read-cache.ts";
import { HttpError, badRequest, forbidden, notFound, parseWith } from "../http/errors.ts";
import type { Storage } from "../storage/types.ts";
import { EXTENSION, IMAGE_TYPES, MIME, VIDEO_TYPES, sniff, type SniffedType } from "../storage/magic.ts";
import { receiveMultipart, type FileRule, type ReceivedFile } from "../storage/multipart.ts";
import { isCenterLive } from "./tenants.ts";
import { IMAGE_TYPE_MESSAGE } from "./media.ts";
import type { Reader } from "./content-access.ts";
import { lockMembership } from "./team.ts";
import { can, membershipOf, notAllowed } from "../auth/permissions.ts";
import { NOT_ON_TEAM } from "#common/validation/team.ts";
import { formatBytes } from "#common/format.ts";
import type { ContentJson } from "#common/content-types.ts";

import {
  BUSINESS_INVALID,
  ContentAssign,
  ContentFields,
  ContentListQuery,
  ContentUpdate,
  FILE_REQUIRED,
  LIVE_LINK_REQUIRED,
  isUuid,
  type ContentListQueryOutput,
  type ContentType,
} from "#common/validation/content.ts";

export type ContentRow = typeof contents.$inferSelect;
/** A content row with the name of the business it is assigned to. */
export type ContentView = ContentRow & { businessName: string | null; merchantAccountId: string | null };

/**
 * Tests and series belong to their institute, not to whoever wrote them (decision 0029): the
 * content API, which decides by authorship, neither lists nor changes them; the Tests area does,
 * by the caller's role in the institute.
 */
export const EXAM_CONTENT = "Tests and series belong to their institute: manage them in the Tests area.";

/** Content asked for at a desk (the institute chosen in the header) that is not that institute's. */
export const OTHER_DESK_CONTENT =
  "You are working on another institute: choose this content's institute in the header first.";
const CONTENT_NOT_FOUND = "Content not found";
const EXAM_TYPES: ContentRow["type"][] = ["test", "series"];
const isExam = (row: { type: ContentRow["type"] }) => EXAM_TYPES.includes(row.type);

export interface UploadLimits {
  pdf: number;
  video: number;
  image: number;
}

export function toContentJson(row: ContentView, fileUrl: string | null = null): ContentJson {
  const thumbnail = row.thumbnailKey ? `/media/${row.thumbnailKey}` : null;
  return {
    _id: row.id,
    title: row.title,
    description: row.description,
    type: row.type,
    price: row.price / 100,
    liveLink: row.liveLink,
    liveStartsAt: row.liveStartsAt?.toISOString() ?? null,
    businessId: row.centerId,
    businessName: row.businessName,
    onSale: onSale(row),
    isActive: row.isActive,
    thumbnail,
    thumbnailUrl: thumbnail,
    file: row.fileKey
      ? { name: row.fileName ?? "file", size: row.fileSize ?? 0, mime: row.fileMime ?? "application/octet-stream" }
      : null,
    fileUrl,
    resourceUrl: row.type === "live" ? row.liveLink : fileUrl,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const MiB = 1024 * 1024;
const sizeText = formatBytes;

export const TYPE_MISMATCH: Record<"pdf" | "video" | "unknown", string> = {
  pdf: "The file must be a PDF.",
  video: "The file must be an MP4, WebM or QuickTime video.",
  unknown: "The file must be a PDF or a video (MP4, WebM or QuickTime).",
};

const SORT_COLUMNS = {
  createdAt: contents.createdAt,
  title: sql`lower(${contents.title})`,
  type: contents.type,
  price: contents.price,
  status: contents.isActive,
} as const;

/** A content row with the name of its business (join `centers` on `contents.centerId`). */
export const viewColumns = {
  ...getTableColumns(contents),
  businessName: centers.instituteName,
  /** The institute's connected payment account: without one its paid items are not on sale (decision 0040). */
  merchantAccountId: centers.merchantAccountId,
};

/** Whether students can buy the content: free, a platform creator's (sold on the platform's account), or its institute has connected its own. */
export function onSale(row: Pick<ContentView, "price" | "centerId" | "merchantAccountId">): boolean {
  return row.price === 0 || row.centerId === null || row.merchantAccountId !== null;
}
/** A row of a creator's page of contents: the content, and the count of the whole list. */
type ListPageRow = ContentView & { listTotal: number };

/**
 * A creator's content: upload, list, edit, assign, delete. Ownership is decided here, on the
 * server: a creator reaches only their own content (403 otherwise); admins may look.
 */
export class ContentService {
  private readonly db: Db;
  private readonly storage: Storage;
  readonly limits: UploadLimits;
  private readonly catalogChanged: (centerId: string | null) => void;
  private readonly checkPdf: (fileKey: string) => Promise<void>;
  private readonly reads: ReadCaches;
  /** Creators' pages of their contents, kept in memory (server/caches/read-cache.ts). */
  private readonly listsKept: ReadCache<ListPageRow[]>;
  /** Contents that file links open, kept in memory: every range of a video being watched asks. */
  private readonly filesKept: ReadCache<ContentView | undefined>;

  /** Any content by id: every file opened and every content page reads it, so prepared once. */
  private readonly byId;
  /** The creator's page of contents (each row carrying the total) and the total alone, per sort, direction and search-or-not, by statement name, prepared on first use. */
  private readonly listQueries = new Map<string, ReturnType<ContentService["prepareList"]>>();

  /**
   * `catalogChanged` tells the institutes' sites that what they list has changed; `reads` are
   * this instance's read caches, which forget a content's rows here as soon as it changes;
   * `checkPdf` refuses (400) a stored PDF that students' copies could not be made of
   * (`DeliveryService.checkStampable`).
   */
  constructor(
    db: Db,
    storage: Storage,
    limits: UploadLimits,
    reads: ReadCaches,
    catalogChanged: (centerId: string | null) => void,
    checkPdf: (fileKey: string) => Promise<void>,
  ) {
    this.db = db;
    this.reads = reads;
    this.listsKept = reads.create();
    this.filesKept = reads.create();
    this.storage = storage;
    this.limits = limits;
    this.catalogChanged = catalogChanged;
    this.checkPdf = checkPdf;
    this.byId = db
      .select(viewColumns)
      .from(contents)
      .leftJoin(centers, eq(centers.id, contents.centerId))
      .where(eq(contents.id, sql.placeholder("id")))
      .prepare("pathshala_content_by_id");
  }

  private listQuery({ sort, dir, q }: ContentListQueryOutput, by: "creator" | "center") {
    const name = `pathshala_${by}_list_${sort}_${dir}${q ? "_search" : ""}`;
    let prepared = this.listQueries.get(name);
    if (!prepared) this.listQueries.set(name, (prepared = this.prepareList(name, sort, dir, q !== "", by)));
    return prepared;
  }

  private prepareList(
    name: string,
    sort: ContentListQueryOutput["sort"],
    dir: ContentListQueryOutput["dir"],
    searching: boolean,
    by: "creator" | "center",
  ) {
    const filters: SQL[] = [
      // A creator's own (by authorship), or at a desk the institute's (whoever wrote it).
      by === "creator"
        ? eq(contents.creatorId, sql.placeholder("creatorId"))
        : eq(contents.centerId, sql.placeholder("centerId")),
      isNull(contents.archivedAt),
      // Tests and series are their institute's, listed in the Tests area (EXAM_CONTENT).
      notInArray(contents.type, EXAM_TYPES),
    ];
    if (searching) filters.push(ilike(contents.title, sql.placeholder("pattern")));
    const where = and(...filters);
    const column = SORT_COLUMNS[sort];
    return {
      total: this.db.select({ total: count() }).from(contents).where(where).prepare(`${name}_total`),
      // The total rides on every row of the page (a window over the same filter), so a page is
      // one round trip; the count alone is asked only for a page past the end.
      page: this.db
        .select({ ...viewColumns, listTotal: sql<number>`count(*) over ()`.mapWith(Number) })
        .from(contents)
        .leftJoin(centers, eq(centers.id, contents.centerId))
        .where(where)
        .orderBy(dir === "asc" ? asc(column) : desc(column), desc(contents.createdAt), asc(contents.id))
        .limit(sql.placeholder("limit"))
        .offset(sql.placeholder("offset"))
        .prepare(name),
    };
  }

  /** After a content changed: this instance's kept reads of it, and the sites that list it. */
  private announce(changed: { id: string; creatorId: string }, ...centerIds: (string | null | undefined)[]) {
    this.reads.forget(readTags.content(changed.id), readTags.creator(changed.creatorId));
    for (const id of new Set(centerIds.filter((c): c is string => Boolean(c)))) this.catalogChanged(id);
  }

  /** Receives a multipart upload (streamed to storage) and records the content; nothing is kept if any step fails. */
  async upload(
    creator: Reader,
    request: { body: ReadableStream<Uint8Array> | null; headers: Headers; signal?: AbortSignal },
  ): Promise<ContentView> {
    const { fields, files } = await receiveMultipart(request, {
      storage: this.storage,
      files: { file: this.contentFileRule(), thumbnail: this.thumbnailRule() },
      maxBodyBytes: Math.max(this.limits.pdf, this.limits.video) + this.limits.image + MiB,
      tooLargeMessage: `The upload is too large. Videos can be up to ${sizeText(this.limits.video)} and PDFs up to ${sizeText(this.limits.pdf)}.`,
    });
    const stored = Object.values(files);
    try {
      // A PDF every student would be refused is refused now, before it is listed.
      if (fields.type === "pdf" && files.file?.contentType === MIME.pdf) await this.checkPdf(files.file.key);
      return await this.create(creator, fields, files.file, files.thumbnail);
    } catch (error) {
      await Promise.allSettled(stored.map((f) => this.storage.delete(f.key)));
      throw error;
    }
  }

  /** Where a content file may go: judged by its bytes; refused at once when it cannot match the declared type. */
  private contentFileRule(): FileRule {
    return (head, fields) => {
      // Fail fast: when the form's fields came first (as our page sends them), check them before taking any bytes.
      if (fields.type === "live") return null;
      if (fields.title !== undefined && fields.type !== undefined) parseWith(ContentFields, fields);
      const sniffed = sniff(head);
      const declared = fields.type === "pdf" || fields.type === "video" ? fields.type : "unknown";
      const isPdf = sniffed === "pdf";
      const isVideo = sniffed !== undefined && VIDEO_TYPES.includes(sniffed);
      const fits = declared === "pdf" ? isPdf : declared === "video" ? isVideo : isPdf || isVideo;
      if (!sniffed || !fits) throw badRequest(TYPE_MISMATCH[declared]);
      const maxBytes = isPdf ? this.limits.pdf : this.limits.video;
      return {
        key: `content/${crypto.randomUUID()}.${EXTENSION[sniffed]}`,
        maxBytes,
        contentType: MIME[sniffed],
        tooLargeMessage: isPdf
          ? `The PDF must be ${sizeText(maxBytes)} or smaller.`
          : `The video must be ${sizeText(maxBytes)} or smaller.`,
      };
    };
  }

  private thumbnailRule(): FileRule {
    return (head, fields) => {
      if (fields.type === "live") return null;
      const sniffed = sniff(head);
      if (!sniffed || !IMAGE_TYPES.includes(sniffed)) throw badRequest(IMAGE_TYPE_MESSAGE);
      return {
        // Thumbnails are public (catalog cards), under random keys.
        key: `thumbnails/${crypto.randomUUID()}.${EXTENSION[sniffed]}`,
        maxBytes: this.limits.image,
        contentType: MIME[sniffed],
        tooLargeMessage: `The thumbnail must be ${sizeText(this.limits.image)} or smaller.`,
      };
    };
  }

  private async create(
    creator: Reader,
    rawFields: Record<string, string>,
    file: ReceivedFile | undefined,
    thumbnail: ReceivedFile | undefined,
  ): Promise<ContentView> {
    const input = parseWith(ContentFields, rawFields);
    const live = input.type === "live";
    if (!live && !file) throw badRequest(FILE_REQUIRED);
    if (file && input.type !== "live") {
      // The type field may have come after the file: check the pairing again now that both are known.
      const isPdf = sniffedOf(file.contentType) === "pdf";
      if (isPdf !== (input.type === "pdf")) throw badRequest(TYPE_MISMATCH[input.type]);
    }
    // At a desk, new content is that institute's; another one named is refused.
    const businessId = input.businessId ?? creator.desk ?? null;
    refuseOtherDesk(creator, businessId);
    const [row] = await this.db.transaction(async (tx) => {
      if (businessId) await this.requireAssignable(tx, creator.id, businessId);
      return tx
        .insert(contents)
        .values({
          creatorId: creator.id,
          centerId: businessId,
          type: input.type,
          title: input.title,
          description: input.description,
          price: input.price,
          liveLink: live ? input.liveLink : null,
          liveStartsAt: live ? input.liveStartsAt : null,
          fileKey: live ? null : file!.key,
          fileName: live ? null : file!.fileName,
          fileSize: live ? null : file!.size,
          fileMime: live ? null : file!.contentType,
          thumbnailKey: live ? null : (thumbnail?.key ?? null),
        })
        .returning({ id: contents.id });
    });
    // Files the content does not keep (a live class's stray file or thumbnail) are not left behind.
    if (live) await Promise.allSettled([file, thumbnail].filter((f) => f).map((f) => this.storage.delete(f!.key)));
    this.announce({ id: row.id, creatorId: creator.id }, businessId);
    return this.view(row.id);
  }

  /**
   * The reader's list: their own contents (by authorship, as ever), or at a desk (the institute
   * chosen in the header) the institute's, whoever wrote them.
   */
  async listMine(
    reader: Reader,
    rawQuery: Record<string, string | undefined>,
  ): Promise<{ items: ContentView[]; total: number; query: ContentListQueryOutput }> {
    const query = parseWith(ContentListQuery, rawQuery);
    const creatorId = reader.id;
    const pattern = containsPattern(query.q);
    if (reader.desk) {
      // Not kept in memory: another member's change to the institute's list is not announced to this reader.
      const prepared = this.listQuery(query, "center");
      const params = { centerId: reader.desk, pattern, limit: query.limit, offset: (query.page - 1) * query.limit };
      const rows = await prepared.page.execute(params);
      if (rows.length === 0) {
        const total = params.offset === 0 ? 0 : (await prepared.total.execute(params))[0].total;
        return { items: [], total, query };
      }
      return { items: rows.map(({ listTotal: _total, ...item }) => item), total: rows[0].listTotal, query };
    }
    const prepared = this.listQuery(query, "creator");
    const params = {
      creatorId,
      pattern,
      limit: query.limit,
      offset: (query.page - 1) * query.limit,
    };
    // Every parameter of the page is in the key; each page is dropped when one of its rows, or
    // any of the creator's contents, changes (a new one moves every page).
    const key = `${creatorId}|${query.sort}|${query.dir}|${params.pattern}|${params.limit}|${params.offset}`;
    const rows = await this.listsKept.read(
      key,
      () => prepared.page.execute(params),
      (page) => [
        readTags.creator(creatorId),
        ...page.flatMap((row) => (row.centerId ? [readTags.center(row.centerId)] : [])),
      ],
    );
    if (rows.length === 0) {
      const total = params.offset === 0 ? 0 : (await prepared.total.execute(params))[0].total;
      return { items: [], total, query };
    }
    const total = rows[0].listTotal;
    const items = rows.map(({ listTotal: _total, ...item }) => item);
    return { items, total, query };
  }

  /**
   * A content its owner (or an admin) may see; 404 when it does not exist or was deleted, 403 when
   * it is someone else's. At a desk: the institute's content (another institute's is a 404).
   */
  async getForOwner(reader: Reader, id: string): Promise<ContentView> {
    const row = await this.find(id);
    if (reader.role === "admin") return row;
    if (reader.desk && row.centerId !== reader.desk) throw notFound(CONTENT_NOT_FOUND);
    if (isExam(row)) throw forbidden(EXAM_CONTENT);
    if (!reader.desk && row.creatorId !== reader.id) throw forbidden("You can only view your own content.");
    return row;
  }

  async update(reader: Reader, id: string, body: unknown): Promise<ContentView> {
    const row = await this.ownedForChange(reader, id);
    const input = parseWith(ContentUpdate, body ?? {});
    const set: Partial<typeof contents.$inferInsert> = {};
    if (input.title !== undefined) set.title = input.title;
    if (input.description !== undefined) set.description = input.description;
    if (input.price !== undefined) set.price = input.price;
    if (input.isActive !== undefined) set.isActive = input.isActive;
    if (input.liveLink !== undefined && row.type === "live") {
      if (input.liveLink === "")
        throw new HttpError(400, LIVE_LINK_REQUIRED, { issues: [{ field: "liveLink", message: LIVE_LINK_REQUIRED }] });
      set.liveLink = input.liveLink;
    }
    if (input.liveStartsAt !== undefined && row.type === "live") set.liveStartsAt = input.liveStartsAt;
    if (Object.keys(set).length) {
      await this.db
        .update(contents)
        .set({ ...set, updatedAt: new Date() })
        .where(eq(contents.id, row.id));
      this.announce(row, row.centerId);
    }
    return this.view(row.id);
  }

  /** Assigns to an active business whose team the creator is on (403 otherwise), or unassigns (businessId null or ""). */
  async assign(reader: Reader, id: string, body: unknown): Promise<ContentView> {
    const row = await this.ownedForChange(reader, id);
    const { businessId } = parseWith(ContentAssign, body ?? {});
    // At a desk content stays with the institute; only its author may take their own back.
    if (reader.desk && businessId !== reader.desk && !(businessId === null && row.creatorId === reader.id))
      throw forbidden(OTHER_DESK_CONTENT);
    await this.db.transaction(async (tx) => {
      if (businessId) await this.requireAssignable(tx, reader.id, businessId);
      await tx.update(contents).set({ centerId: businessId, updatedAt: new Date() }).where(eq(contents.id, row.id));
    });
    this.announce(row, row.centerId, businessId);
    return this.view(row.id);
  }

  /**
   * Deletes content nobody bought (its files too). Content with orders or enrolments is archived
   * instead: it leaves the creator's list and the catalog, but its buyers keep access and the
   * sales history stays whole.
   */
  async remove(reader: Reader, id: string): Promise<{ archived: boolean }> {
    const before = await this.ownedForChange(reader, id);
    const outcome = await this.db.transaction(async (tx) => {
      // Locking the row serialises this with a purchase or enrolment being recorded for it.
      const [row] = await tx.select().from(contents).where(eq(contents.id, id)).for("update");
      if (!row || row.archivedAt) return null;
      const [{ ordered }] = await tx.select({ ordered: count() }).from(orders).where(eq(orders.contentId, id));
      const [{ enrolled }] = await tx
        .select({ enrolled: count() })
        .from(enrollments)
        .where(eq(enrollments.contentId, id));
      if (ordered > 0 || enrolled > 0) {
        await tx
          .update(contents)
          .set({ archivedAt: new Date(), isActive: false, updatedAt: new Date() })
          .where(eq(contents.id, id));
        return { archived: true, keys: [] as string[] };
      }
      await tx.delete(contents).where(eq(contents.id, id));
      return { archived: false, keys: [row.fileKey, row.thumbnailKey].filter((k): k is string => Boolean(k)) };
    });
    if (!outcome) throw notFound("Content not found");
    await Promise.allSettled(outcome.keys.map((key) => this.storage.delete(key)));
    this.announce(before, before.centerId);
    return { archived: outcome.archived };
  }

  /** How many live (not deleted) contents a creator has (at a desk: the institute has), by type. */
  async countsByType(reader: Reader): Promise<Record<ContentType, { total: number; active: number }>> {
    const rows = await this.db
      .select({
        type: contents.type,
        total: count(),
        active: sql<number>`count(*) filter (where ${contents.isActive})`.mapWith(Number),
      })
      .from(contents)
      .where(
        and(
          reader.desk ? eq(contents.centerId, reader.desk) : eq(contents.creatorId, reader.id),
          isNull(contents.archivedAt),
        ),
      )
      .groupBy(contents.type);
    const none = () => ({ total: 0, active: 0 });
    const result = { pdf: none(), video: none(), live: none(), test: none(), series: none() };
    for (const r of rows) result[r.type] = { total: r.total, active: r.active };
    return result;
  }

  /**
   * Content goes only to an institute whose team the creator is on (the membership stays locked
   * until the write commits, so a removal cannot slip between), and only while it is live.
   */
  private async requireAssignable(tx: DbOrTx, creatorId: string, businessId: string) {
    if (!(await lockMembership(tx, businessId, creatorId))) throw forbidden(NOT_ON_TEAM);
    const [center] = await tx
      .select({ status: centers.status, expiresAt: centers.expiresAt })
      .from(centers)
      .where(eq(centers.id, businessId));
    if (!center || !isCenterLive(center))
      throw new HttpError(400, BUSINESS_INVALID, { issues: [{ field: "businessId", message: BUSINESS_INVALID }] });
  }

  /**
   * A content the reader may change. At a desk (the institute chosen in the header, whose
   * content.write the caller has checked): the institute's content, another's is a 404. Without
   * one: their own, and while it is assigned to an institute only as long as the policy lets their
   * roles there write content (content.write).
   */
  private async ownedForChange(reader: Reader, id: string): Promise<ContentView> {
    const row = await this.find(id);
    if (reader.desk && row.centerId !== reader.desk) throw notFound(CONTENT_NOT_FOUND);
    if (isExam(row)) throw forbidden(EXAM_CONTENT);
    if (reader.desk) return row;
    if (row.creatorId !== reader.id) throw forbidden("You can only change your own content.");
    if (row.centerId && !can(await membershipOf(this.db, reader.id, row.centerId), "content.write"))
      throw forbidden(notAllowed("content.write"));
    return row;
  }

  private async find(id: string): Promise<ContentView> {
    if (!isUuid(id)) throw notFound(CONTENT_NOT_FOUND);
    const row = await this.findAny(id);
    if (!row || row.archivedAt) throw notFound(CONTENT_NOT_FOUND);
    return row;
  }

  /** Any content by id, archived included (delivery to buyers needs archived content too). */
  async findAny(id: string): Promise<ContentView | undefined> {
    if (!isUuid(id)) return undefined;
    const [row] = await this.byId.execute({ id });
    return row;
  }

  /** findAny, from memory when this instance read it since it last changed: for file delivery. */
  forFile(id: string): Promise<ContentView | undefined> {
    return this.filesKept.read(id, () => this.findAny(id), readTags.ofContent);
  }

  private async view(id: string): Promise<ContentView> {
    return (await this.findAny(id))!;
  }
}

/** 403 for an institute other than the desk the reader chose in the header. */
function refuseOtherDesk(reader: Reader, centerId: string | null): void {
  if (reader.desk && centerId !== reader.desk) throw forbidden(OTHER_DESK_CONTENT);
}

function sniffedOf(mime: string): SniffedType | undefined {
  return (Object.keys(MIME) as SniffedType[]).find((t) => MIME[t] === mime);
}
