import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { eq } from "drizzle-orm";
import { users } from "../db/schema/index.ts";
import type { Db } from "../db/types.ts";
import { HttpError, badRequest, forbidden, notFound } from "../http/errors.ts";
import type { Logger } from "../runtime/logger.ts";
import type { Storage } from "../storage/types.ts";
import { parseRange } from "../storage/range.ts";
import { ensureMeta } from "./meta.ts";
import { asStudent, contentAccessReason, type Reader } from "./content-access.ts";
import type { ContentView } from "./content.ts";
import type { LRUCache } from "lru-cache";
import pLimit, { type LimitFunction } from "p-limit";
import { byteBoundedCache } from "../caches/byte-cache.ts";
import { PDF_LIMITS, type StampResult, type WatermarkOwner } from "./pdf-watermark.ts";
import { runInWorker, WorkerLimitError, type WorkerLimits } from "./parsing/bounded-worker.ts";

/** app_meta key of the link-signing secret, made once and shared by every instance. */
export const DELIVERY_SECRET_META = "delivery_signing_secret";
/** How long a link works unless the caller asks otherwise (players renew before it runs out). */
export const DEFAULT_LINK_TTL_SECONDS = 15 * 60;
const MAX_LINK_TTL_SECONDS = 24 * 60 * 60;

export const LINK_INVALID = "This link is not valid.";
export const LINK_EXPIRED = "This link has expired. Please open the file again.";
export const LINK_OTHER_ACCOUNT = "This link belongs to another account.";
export const NO_FILE_ACCESS = "You do not have access to this file.";
export const PDF_NOT_STAMPABLE = "This PDF could not be prepared for download. Please contact the institute.";
/** What a creator is told when the PDF they upload is one that students' copies could not be made of. */
export const PDF_CANNOT_BE_PREPARED =
  "This PDF cannot be prepared for students: it may be password-protected or damaged. Please upload another PDF.";
/** What a creator is told when the PDF asks more of the stamping than its limits allow (a 413). */
export const PDF_TOO_LARGE_TO_PREPARE = `This PDF is too large to prepare for students (at most ${PDF_LIMITS.maxPages.toLocaleString("en-IN")} pages). Please split it into smaller PDFs.`;
/**
 * The stamping thread's ceilings: a 2,000-page book stamps in about a second on a quiet machine
 * and in five on one whose two cores are shared five ways; the known bombs are refused by the
 * checks long before (docs/performance.md, "Uploaded files").
 */
const STAMP_WORKER = { timeMs: 30_000, heapMb: 384 };
/** Whose name the trial stamp of an uploaded PDF carries (the copy is thrown away). */
const TRIAL_OWNER: WatermarkOwner = { name: "Sample Student", email: "student@example.com" };

export interface SignedLink {
  url: string;
  expiresAt: Date;
}

/** What a signed link carries (besides the content id and file name in its path). */
export interface LinkParams {
  /** The user the link was issued to. */
  u: string;
  /** Expiry, in seconds since the epoch. */
  e: string;
  /** HMAC-SHA256 of (user, content, file key, expiry), base64url. */
  s: string;
}

/** The request for a signed link's bytes. */
export interface FileRequest {
  contentId: string;
  params: Partial<LinkParams>;
  method: string;
  range?: string | null;
  ifRange?: string | null;
  /** The signed-in user making the request, if any: it must be the link's user (and is not looked up again). */
  sessionUser?: (Reader & WatermarkOwner) | null;
  now?: Date;
}

/** A content's file as delivery decides on it: whose it is and which institute's (content-access.ts). */
type FileContent = Pick<ContentView, "id" | "creatorId" | "centerId" | "fileKey" | "fileName" | "fileMime">;

export interface DeliveryOptions {
  logger?: Logger;
  /** Memory for students' stamped PDFs, so a viewer's many range requests stamp the file once. */
  stampedCacheBytes?: number;
  /** PDFs stamped at the same time (each is held in memory whole while it is stamped). */
  stampingConcurrency?: number;
}

/** A student's stamped copy of a PDF, ready to serve (whole or in ranges). */
interface StampedPdf {
  data: Uint8Array<ArrayBuffer>;
  etag: string;
  bytes: number;
}

/**
 * Protected delivery of paid files: short-lived links signed for one user, one content and its
 * file, checked again on every fetch (so access that ends — a refund, a removed enrolment — ends
 * the link too), served with HTTP Range (206/416) and `Cache-Control: private`.
 * Who may open what is decided only by `contentAccessReason`.
 */
export class DeliveryService {
  private readonly db: Db;
  private readonly storage: Storage;
  private readonly loadContent: (id: string) => Promise<FileContent | undefined>;
  private secretPromise?: Promise<Buffer>;
  private readonly logger?: Logger;
  private readonly stamped: LRUCache<string, StampedPdf>;
  private readonly stamping = new Map<string, Promise<StampedPdf>>();
  private readonly stampSlots: LimitFunction;
  private readonly stampWorker: WorkerLimits;

  constructor(
    db: Db,
    storage: Storage,
    loadContent: (id: string) => Promise<FileContent | undefined>,
    options: DeliveryOptions = {},
  ) {
    this.db = db;
    this.storage = storage;
    this.loadContent = loadContent;
    this.logger = options.logger;
    this.stamped = byteBoundedCache(options.stampedCacheBytes ?? 64 * 1024 * 1024);
    const concurrency = Math.max(1, options.stampingConcurrency ?? 2);
    this.stampSlots = pLimit(concurrency);
    this.stampWorker = { ...STAMP_WORKER, threads: concurrency };
  }

  /** A signed link to `content`'s file for `reader`; 403 if they may not open it; null when the content has no file. */
  async link(
    reader: Reader,
    content: FileContent,
    ttlSeconds = DEFAULT_LINK_TTL_SECONDS,
    now = new Date(),
  ): Promise<SignedLink | null> {
    if (!content.fileKey) return null;
    if (!(await contentAccessReason(this.db, reader, content))) throw forbidden(NO_FILE_ACCESS);
    return this.signedLink(reader, content, ttlSeconds, now);
  }

  /**
   * The same link without asking the database again, for callers that have just read the
   * reader's right to the file themselves (a student's enrolment rows): lists sign one link per
   * item, and one access query per item would make them N+1. Opening the link checks again.
   */
  async signedLink(
    reader: Reader,
    content: Pick<FileContent, "id" | "fileKey" | "fileName">,
    ttlSeconds = DEFAULT_LINK_TTL_SECONDS,
    now = new Date(),
  ): Promise<SignedLink | null> {
    if (!content.fileKey) return null;
    const ttl = Math.min(Math.max(30, Math.floor(ttlSeconds)), MAX_LINK_TTL_SECONDS);
    const expires = Math.floor(now.getTime() / 1000) + ttl;
    const sig = await this.sign(reader.id, content.id, content.fileKey, expires);
    const name = encodeURIComponent(content.fileName || "file");
    return {
      url: `/api/files/${content.id}/${name}?u=${reader.id}&e=${expires}&s=${sig}`,
      expiresAt: new Date(expires * 1000),
    };
  }

  /** Answers a fetch of a signed link with the file's bytes (all, or the requested range). */
  async serve(request: FileRequest): Promise<Response> {
    const { u, e, s } = request.params;
    const now = Math.floor((request.now ?? new Date()).getTime() / 1000);
    if (!u || !e || !s || !/^\d{1,12}$/.test(e)) throw forbidden(LINK_INVALID);
    const content = await this.loadContent(request.contentId);
    if (!content?.fileKey) throw notFound("File not found");
    const expected = await this.sign(u, content.id, content.fileKey, Number(e));
    if (!safeEqual(expected, s)) throw forbidden(LINK_INVALID);
    if (Number(e) <= now) throw forbidden(LINK_EXPIRED);
    // A link opened by someone signed in as another person is refused: links are personal.
    const { sessionUser } = request;
    if (sessionUser && sessionUser.id !== u) throw forbidden(LINK_OTHER_ACCOUNT);
    const [reader] = sessionUser
      ? [sessionUser]
      : await this.db
          .select({ id: users.id, role: users.role, name: users.name, email: users.email })
          .from(users)
          .where(eq(users.id, u));
    const reason = reader ? await contentAccessReason(this.db, reader, content) : null;
    if (!reader || !reason) throw forbidden(NO_FILE_ACCESS);

    // A student's PDF is their own stamped copy (name and e-mail on every page); creators and admins get the original.
    const stamped =
      asStudent(reason) && content.fileMime === "application/pdf"
        ? await this.stampedCopy(content as FileContent & { fileKey: string }, reader)
        : null;
    const info = stamped ? { size: stamped.data.byteLength } : await this.storage.stat(content.fileKey);
    if (!info) throw notFound("File not found");
    const etag = stamped ? stamped.etag : `"${content.fileKey.replace(/[^\w.-]/g, "")}"`;
    const headers = new Headers({
      "Content-Type": content.fileMime ?? "application/octet-stream",
      "Content-Disposition": contentDisposition(content.fileName ?? "file"),
      "Accept-Ranges": "bytes",
      // Personal and short-lived: never in shared caches, and not kept past the link's life.
      "Cache-Control": `private, max-age=${Math.max(0, Math.min(Number(e) - now, 3600))}, no-transform`,
      ETag: etag,
      "X-Content-Type-Options": "nosniff",
    });
    // If-Range: a cached copy that is not this file gets the whole file, not a mismatched slice.
    const rangeHeader = request.ifRange && request.ifRange !== etag ? null : request.range;
    const wanted = parseRange(rangeHeader, info.size);
    if (wanted.kind === "unsatisfiable") {
      headers.set("Content-Range", `bytes */${info.size}`);
      return new Response(null, { status: 416, headers });
    }
    const range = wanted.kind === "range" ? wanted.range : undefined;
    const length = range ? range.end - range.start + 1 : info.size;
    headers.set("Content-Length", String(length));
    if (range) headers.set("Content-Range", `bytes ${range.start}-${range.end}/${info.size}`);
    const status = range ? 206 : 200;
    if (request.method === "HEAD") return new Response(null, { status, headers });
    if (stamped)
      return new Response(range ? stamped.data.subarray(range.start, range.end + 1) : stamped.data, {
        status,
        headers,
      });
    const object = await this.storage.get(content.fileKey, range);
    if (!object) throw notFound("File not found");
    return new Response(object.body, { status, headers });
  }

  /** The reader's stamped copy: from memory, or made once however many requests ask for it at the same time. */
  private stampedCopy(
    content: FileContent & { fileKey: string },
    owner: WatermarkOwner & { id: string },
  ): Promise<StampedPdf> {
    const key = `${content.fileKey}\n${owner.id}\n${owner.name}\n${owner.email}`;
    const hit = this.stamped.get(key);
    if (hit) return Promise.resolve(hit);
    let pending = this.stamping.get(key);
    if (!pending) {
      pending = this.stampSlots(() => this.stamp(content.fileKey, owner))
        .then((copy) => {
          this.stamped.set(key, copy);
          return copy;
        })
        .finally(() => this.stamping.delete(key));
      this.stamping.set(key, pending);
    }
    return pending;
  }

  /**
   * Refuses (400) an uploaded PDF that students' copies could not be made of (encrypted, damaged):
   * it is stamped once as a student's copy would be, in the same slots, so that what is accepted
   * at upload is exactly what can be served. The stored file is read whole (it is at most
   * MAX_PDF_BYTES), as a student's first open reads it.
   */
  async checkStampable(fileKey: string): Promise<void> {
    const trial = await this.stampSlots(async () => this.stampInWorker(await this.readWhole(fileKey), TRIAL_OWNER));
    if (trial.ok) return;
    this.logger?.info("refused an uploaded PDF that cannot be stamped", { fileKey, error: trial.reason });
    throw trial.tooLarge ? new HttpError(413, PDF_TOO_LARGE_TO_PREPARE) : badRequest(PDF_CANNOT_BE_PREPARED);
  }

  private async readWhole(fileKey: string): Promise<Uint8Array> {
    const object = await this.storage.get(fileKey);
    if (!object) throw notFound("File not found");
    return new Uint8Array(await new Response(object.body).arrayBuffer());
  }

  private async stamp(fileKey: string, owner: WatermarkOwner): Promise<StampedPdf> {
    const stamped = await this.stampInWorker(await this.readWhole(fileKey), owner);
    if (!stamped.ok) {
      // Never hand out an unmarked copy: the student is told, the operator sees why.
      this.logger?.error("could not watermark a PDF", { fileKey, error: stamped.reason });
      throw new HttpError(422, PDF_NOT_STAMPABLE);
    }
    const data = stamped.bytes as Uint8Array<ArrayBuffer>;
    const etag = `"wm-${createHash("sha256").update(data).digest("base64url").slice(0, 27)}"`;
    return { data, etag, bytes: data.byteLength };
  }

  /** Stamps on a parsing thread (server/services/parsing/bounded-worker.ts); the original's memory goes with it. */
  private async stampInWorker(original: Uint8Array, owner: WatermarkOwner): Promise<StampResult> {
    const own = { name: owner.name, email: owner.email };
    try {
      return await runInWorker("stampPdf", { bytes: original, owner: own }, this.stampWorker, [
        original.buffer as ArrayBuffer,
      ]);
    } catch (error) {
      if (error instanceof WorkerLimitError) return { ok: false, tooLarge: true, reason: error.message };
      throw error;
    }
  }

  private async sign(userId: string, contentId: string, fileKey: string, expires: number): Promise<string> {
    const secret = await this.secret();
    return createHmac("sha256", secret)
      .update(`v1\n${userId}\n${contentId}\n${fileKey}\n${expires}`)
      .digest("base64url");
  }

  private secret(): Promise<Buffer> {
    this.secretPromise ??= ensureMeta(this.db, DELIVERY_SECRET_META, () => randomBytes(32).toString("base64url"))
      .then((value) => Buffer.from(value, "base64url"))
      .catch((error) => {
        this.secretPromise = undefined;
        throw error;
      });
    return this.secretPromise;
  }
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `inline; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
