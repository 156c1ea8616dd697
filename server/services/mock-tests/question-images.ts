import sharp from "sharp";
import pLimit from "p-limit";
import type { Db } from "../../db/types.ts";
import { HttpError } from "../../http/errors.ts";
import type { Storage } from "../../storage/types.ts";
import { sniff, SNIFF_BYTES } from "../../storage/magic.ts";
import type { Reader } from "../content-access.ts";
import { bankFor } from "./exam-access.ts";
import type { QuestionJson } from "#common/mock-tests/question.ts";
import type { RowProblem } from "./question-files.ts";
import { figureTargets, isRemoteFigure, replaceFigures } from "./question-figures.ts";
import { fetchFigure, FigureFetchError, type FigureFetchOptions } from "./figure-fetch.ts";

/**
 * Figures in questions, options and solutions (issue 38 §1, decision 0033). Whatever arrives
 * (PNG, JPEG, WebP, or SVG) is decoded by sharp and written anew as a WebP no wider than a phone
 * needs, without its metadata: what is served is always an image the server made, never the
 * uploaded bytes. An SVG is drawn to pixels the same way, so no SVG markup (scripts, links,
 * styles) ever reaches a browser; before it is drawn, one that declares entities or refers to
 * anything outside itself is refused.
 *
 * Images live under `question-images/<institute id>/` (or `question-images/own/` for an author's
 * own bank) with random names, and are served at `/media/…` on the institute's own domain
 * (server/app.ts): another institute's domain does not serve them.
 */

export const QUESTION_IMAGE_PREFIX = "question-images/";
/** The folder of an author's own bank (questions of no institute). */
const OWN_FOLDER = "own";

export const QUESTION_IMAGE_LIMITS = {
  /** The file as uploaded. */
  maxBytes: 5 * 1024 * 1024,
  /** Pixels sharp may decode (a PNG of a few KB can declare 100,000 × 100,000). */
  maxInputPixels: 40_000_000,
  /** Width of the stored image: twice a phone's width in CSS pixels, sharp on a high-density screen. */
  maxWidth: 1600,
  maxHeight: 2400,
  /** Seconds sharp may spend on one image. */
  timeoutSeconds: 10,
} as const;

export const QUESTION_IMAGE_TEXTS = {
  wrongType: "Please upload a PNG, JPEG, WebP or SVG image.",
  tooLarge: "The image must be 5 MB or smaller.",
  tooManyPixels: "The image is too large: at most 40 megapixels.",
  unreadable: "The image could not be read. Please upload a PNG, JPEG, WebP or SVG image.",
  unsafeSvg: "This SVG refers to other files or declares entities; export it again as a plain SVG, or as a PNG.",
  noFile: "Choose an image to upload",
} as const;

/** Images being decoded at once: each can take a core and tens of MB. */
const encoding = pLimit(2);

/** Whether the bytes are an SVG document: its first element (after a declaration, comments, whitespace) is <svg>. */
export function looksLikeSvg(bytes: Uint8Array): boolean {
  const head = new TextDecoder("utf-8", { fatal: false }).decode(bytes.subarray(0, 4096)).replace(/^\uFEFF/, "");
  const rest = head.replace(/^\s*(<\?xml[^>]*\?>\s*)?((<!--[\s\S]*?-->|<!DOCTYPE[^[>]*(\[[\s\S]*?\])?\s*>)\s*)*/i, "");
  return /^<svg[\s>]/i.test(rest);
}

/** An SVG that declares entities or refers to anything but its own fragments and embedded images. */
function unsafeSvg(text: string): boolean {
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) return true;
  for (const [, value] of text.matchAll(/\bhref\s*=\s*["']\s*([^"']*)["']/gi))
    if (!value.startsWith("#") && !/^data:image\/(png|jpeg|webp);/i.test(value)) return true;
  // A style can fetch too: url() that is not a fragment, and @import.
  if (/@import/i.test(text)) return true;
  for (const [, value] of text.matchAll(/url\(\s*["']?\s*([^"')\s]*)/gi)) if (!value.startsWith("#")) return true;
  return false;
}

export interface StoredImage {
  /** Where the image is served, relative to the site (`/media/question-images/…`), for a question's Markdown. */
  url: string;
  key: string;
  width: number;
  height: number;
}

/** Figures an import may fetch by address, and how many at once. */
const MAX_FETCHED_FIGURES = 200;
const fetching = pLimit(4);

export class QuestionImageService {
  private readonly db: Db;
  private readonly storage: Storage;
  /** How figures named by address are fetched (tests let their own loopback server be reached). */
  fetchOptions: FigureFetchOptions = {};

  constructor(db: Db, storage: Storage) {
    this.db = db;
    this.storage = storage;
  }

  /**
   * The institute an image is for: the bank's (`bank` as in the question API; on an institute's
   * domain, that institute), where the author must hold a role that may write questions.
   */
  async bankOf(author: Reader, bank: string | undefined): Promise<string | null> {
    try {
      return await bankFor(this.db, author, bank);
    } catch (error) {
      // Not a role in that institute: a 403, not a problem with the input.
      if (error instanceof HttpError && error.status === 400) throw new HttpError(403, error.message);
      throw error;
    }
  }

  /** An author's upload into a bank they may write to. */
  async upload(author: Reader, bytes: Uint8Array, bank: string | undefined): Promise<StoredImage> {
    const centerId = await this.bankOf(author, bank);
    return this.store(centerId, bytes);
  }

  /** Checks, re-encodes and stores an image for an institute's questions (null: an author's own bank). */
  async store(centerId: string | null, bytes: Uint8Array): Promise<StoredImage> {
    if (bytes.byteLength > QUESTION_IMAGE_LIMITS.maxBytes) throw new HttpError(413, QUESTION_IMAGE_TEXTS.tooLarge);
    const sniffed = sniff(bytes.subarray(0, SNIFF_BYTES));
    const svg = !sniffed && looksLikeSvg(bytes);
    if (!svg && (!sniffed || !["png", "jpeg", "webp"].includes(sniffed)))
      throw new HttpError(400, QUESTION_IMAGE_TEXTS.wrongType);
    if (svg && unsafeSvg(new TextDecoder().decode(bytes))) throw new HttpError(400, QUESTION_IMAGE_TEXTS.unsafeSvg);
    const encoded = await encoding(() => reencode(bytes, sniffed === "png" || svg));
    const key = `${QUESTION_IMAGE_PREFIX}${centerId ?? OWN_FOLDER}/${crypto.randomUUID()}.webp`;
    await this.storage.put(key, new Blob([encoded.data as Uint8Array<ArrayBuffer>]).stream(), {
      maxBytes: encoded.data.byteLength,
      contentType: "image/webp",
    });
    return { url: `/media/${key}`, key, width: encoded.width, height: encoded.height };
  }

  /**
   * Stores the figures imported questions name (files of their ZIP, by the name the sheet uses, or
   * http(s) addresses, each fetched once) and answers the questions with the stored copies'
   * addresses. A figure that cannot be had is a problem of the row that names it; with any, no
   * figure is kept and the problems are answered, so that nothing of the import stays.
   */
  async importFigures(
    centerId: string | null,
    questions: QuestionJson[],
    where: string[],
    files: Record<string, Uint8Array> = {},
  ): Promise<{ ok: true; questions: QuestionJson[]; keys: string[] } | { ok: false; problems: RowProblem[] }> {
    const stored = new Map<string, Promise<StoredImage>>();
    const problems: RowProblem[] = [];
    const addresses = new Set(questions.flatMap(figureTargets).filter(isRemoteFigure));
    if (addresses.size > MAX_FETCHED_FIGURES)
      return {
        ok: false,
        problems: [{ where: "The file", message: `A file can name at most ${MAX_FETCHED_FIGURES} images by address` }],
      };
    const storeOnce = (target: string): Promise<StoredImage> | undefined => {
      if (!stored.has(target)) {
        if (target in files) stored.set(target, this.store(centerId, files[target]));
        else if (isRemoteFigure(target))
          stored.set(
            target,
            fetching(() => fetchFigure(target, this.fetchOptions)).then((bytes) => this.store(centerId, bytes)),
          );
        else return undefined;
        stored.get(target)!.catch(() => {});
      }
      return stored.get(target);
    };
    const urls = new Map<string, string>();
    for (const [index, question] of questions.entries()) {
      for (const target of figureTargets(question)) {
        const image = storeOnce(target);
        if (!image) continue;
        try {
          urls.set(target, (await image).url);
        } catch (error) {
          if (!(error instanceof FigureFetchError || error instanceof HttpError)) throw error;
          const reason = error instanceof FigureFetchError ? `could not be fetched: ${error.message}` : error.message;
          if (problems.length < 50 && !problems.some((p) => p.message.includes(target)))
            problems.push({ where: where[index], message: `The image ${target} ${reasonText(reason)}` });
        }
      }
    }
    const keys: string[] = [];
    for (const image of stored.values()) await image.then((done) => keys.push(done.key)).catch(() => {});
    if (problems.length) {
      await this.forget(keys);
      return { ok: false, problems };
    }
    return { ok: true, questions: questions.map((q) => replaceFigures(q, (target) => urls.get(target))), keys };
  }

  /** Removes figures stored for an import that did not happen. */
  async forget(keys: string[]): Promise<void> {
    await Promise.all(keys.map((key) => this.storage.delete(key).catch(() => {})));
  }
}

/** "could not be fetched: …" reads on after the name; a refusal of the image itself is its own sentence. */
function reasonText(reason: string): string {
  return reason.startsWith("could not") ? reason : `was refused: ${reason}`;
}

/**
 * Whether an image key may be served on this site: on an institute's domain its own images and
 * authors' own-bank ones (a test may use its builder's own questions), never another
 * institute's; on the platform's hosts, every one (the banks of every institute are edited there).
 */
export function questionImageServedOn(key: string, siteCenterId: string | null): boolean {
  if (!key.startsWith(QUESTION_IMAGE_PREFIX)) return true;
  if (siteCenterId === null) return true;
  const folder = key.slice(QUESTION_IMAGE_PREFIX.length).split("/")[0];
  return folder === siteCenterId || folder === OWN_FOLDER;
}

async function reencode(bytes: Uint8Array, lineArt: boolean) {
  const limits = QUESTION_IMAGE_LIMITS;
  try {
    const { data, info } = await sharp(bytes, {
      limitInputPixels: limits.maxInputPixels,
      failOn: "error",
      // An SVG is drawn at twice its size, for sharp lines on a phone (then fitted to maxWidth).
      density: 144,
    })
      .timeout({ seconds: limits.timeoutSeconds })
      .rotate()
      .resize({ width: limits.maxWidth, height: limits.maxHeight, fit: "inside", withoutEnlargement: true })
      // Diagrams (PNG, SVG) keep their lines and flat colours; photographs compress.
      .webp(lineArt ? { nearLossless: true, quality: 80 } : { quality: 82 })
      .toBuffer({ resolveWithObject: true });
    return { data: new Uint8Array(data), width: info.width, height: info.height };
  } catch (error) {
    const message = (error as Error).message ?? "";
    if (/pixel limit/i.test(message)) throw new HttpError(413, QUESTION_IMAGE_TEXTS.tooManyPixels);
    throw new HttpError(400, QUESTION_IMAGE_TEXTS.unreadable);
  }
}
