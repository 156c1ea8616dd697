import * as v from "valibot";
import { text } from "./account.ts";
import { storable } from "./storable.ts";
import { isUuid } from "./ids.ts";

/** Content rules shared by the upload/edit forms and the API (spec §3 Content, §5 Upload). */

/** What the upload form makes; mock tests and test series are made in the Tests area. */
export const UPLOAD_TYPES = ["pdf", "video", "live"] as const;
export type UploadType = (typeof UPLOAD_TYPES)[number];
export const CONTENT_TYPES = [...UPLOAD_TYPES, "test", "series"] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];
export const CONTENT_TYPE_LABELS: Record<ContentType, string> = {
  pdf: "PDF",
  video: "Video",
  live: "Live class",
  test: "Mock test",
  series: "Test series",
};

export const MAX_PRICE_RUPEES = 1_000_000;
export const TITLE_MAX = 200;
export const DESCRIPTION_MAX = 5000;

export const FILE_REQUIRED = "Please select a file for PDF/Video content";
export const UPLOAD_FAILED = "Failed to upload content";
export const LIVE_LINK_REQUIRED = "Please enter the live link for a live class";
export const LIVE_LINK_INVALID = "The live link must be a valid https:// URL";
export const BUSINESS_INVALID = "Please choose an active business";
export const DELETE_CONFIRM = "Delete this content?";

export function isHttpsUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "https:" && url.hostname.includes(".") && !url.username && !url.password;
  } catch {
    return false;
  }
}

export const titleSchema = v.pipe(
  text("Title is required"),
  v.trim(),
  v.nonEmpty("Title is required"),
  v.maxLength(TITLE_MAX, `Title must be at most ${TITLE_MAX} characters`),
);

export const descriptionSchema = v.pipe(
  v.optional(v.string("Description must be text"), ""),
  storable("Description"),
  v.trim(),
  v.maxLength(DESCRIPTION_MAX, `Description must be at most ${DESCRIPTION_MAX} characters`),
);

export const contentTypeSchema = v.pipe(
  v.optional(v.string(), ""),
  v.picklist(UPLOAD_TYPES, "Type must be pdf, video or live"),
);

/** Rupees as typed (a string from a form, a number from JSON) → integer paise. Empty means free. */
export const priceSchema = v.pipe(
  v.optional(v.union([v.string(), v.number()], "Price must be a number"), ""),
  v.transform((value) => {
    if (typeof value === "number") return value;
    const s = value.trim();
    if (s === "") return 0;
    return /^-?\d+(\.\d+)?$/.test(s) ? Number(s) : Number.NaN;
  }),
  v.number("Price must be a number"),
  v.minValue(0, "Price cannot be negative"),
  v.maxValue(MAX_PRICE_RUPEES, `Price must be at most ₹${MAX_PRICE_RUPEES.toLocaleString("en-IN")}`),
  v.check(
    (rupees) => Math.abs(rupees * 100 - Math.round(rupees * 100)) < 1e-6,
    "Price can have at most 2 decimal places",
  ),
  v.transform((rupees) => Math.round(rupees * 100)),
);

export const liveLinkSchema = v.pipe(
  v.optional(v.string("The live link must be text"), ""),
  storable("The live link"),
  v.trim(),
  v.maxLength(2000, "The live link is too long"),
  v.check((s) => s === "" || isHttpsUrl(s), LIVE_LINK_INVALID),
);

export const LIVE_STARTS_INVALID = "Please enter the class's date and time (e.g. 2026-11-22 18:30)";
const INDIA_OFFSET_MS = 5.5 * 60 * 60 * 1000;

/**
 * A class time as a `datetime-local` field sends it ("2026-11-22T18:30", India time, the
 * product's zone) or as an ISO instant with its zone; null when it is not a real time.
 */
export function parseClassTime(value: string): Date | null {
  const local = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (local) {
    const [y, mo, d, h, mi, sec] = local.slice(1).map((n) => Number(n ?? 0));
    const utc = Date.UTC(y, mo - 1, d, h, mi, sec);
    const check = new Date(utc);
    // Date.UTC rolls 31 February over into March: such a date is refused, not moved.
    if (
      check.getUTCFullYear() !== y ||
      check.getUTCMonth() !== mo - 1 ||
      check.getUTCDate() !== d ||
      h > 23 ||
      mi > 59 ||
      sec > 59
    )
      return null;
    return new Date(utc - INDIA_OFFSET_MS);
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value)) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** An instant as a `datetime-local` field shows it, in India time ("2026-11-22T18:30"). */
export function classTimeInput(iso: string | null | undefined): string {
  if (!iso) return "";
  return new Date(Date.parse(iso) + INDIA_OFFSET_MS).toISOString().slice(0, 16);
}

/** When a live class starts ("" for no set time). */
const classTimeSchema = v.pipe(
  v.nullable(v.string(LIVE_STARTS_INVALID)),
  v.transform((s) => (s ?? "").trim()),
  v.check((s) => s === "" || parseClassTime(s) !== null, LIVE_STARTS_INVALID),
  v.transform((s) => (s === "" ? null : parseClassTime(s))),
);

export { isUuid };

/** A business (center) id, or "" / null / missing for none. */
export const businessIdSchema = v.pipe(
  v.optional(v.nullable(v.string(BUSINESS_INVALID)), ""),
  v.transform((s) => (s ?? "").trim()),
  v.check((s) => s === "" || isUuid(s), BUSINESS_INVALID),
  v.transform((s) => (s === "" ? null : s)),
);

/** The text fields of an upload (`POST /api/content`, multipart). */
export const ContentFields = v.pipe(
  v.object({
    title: titleSchema,
    description: descriptionSchema,
    type: contentTypeSchema,
    price: priceSchema,
    liveLink: liveLinkSchema,
    liveStartsAt: v.optional(classTimeSchema, ""),
    businessId: businessIdSchema,
  }),
  v.forward(
    v.check((input) => input.type !== "live" || input.liveLink !== "", LIVE_LINK_REQUIRED),
    ["liveLink"],
  ),
);
export type ContentFieldsOutput = v.InferOutput<typeof ContentFields>;

/** `PUT /api/content/{id}`: any of the editable fields. */
export const ContentUpdate = v.object({
  title: v.optional(titleSchema),
  description: v.optional(descriptionSchema),
  price: v.optional(priceSchema),
  liveLink: v.optional(liveLinkSchema),
  liveStartsAt: v.optional(classTimeSchema),
  isActive: v.optional(v.boolean("Status must be true or false")),
});
export type ContentUpdateOutput = v.InferOutput<typeof ContentUpdate>;

export const ContentAssign = v.object({ businessId: businessIdSchema });

export const SORT_KEYS = ["createdAt", "title", "type", "price", "status"] as const;
export type SortKey = (typeof SORT_KEYS)[number];

/** Search, sorting and paging of a creator's list (query string of the page and of `GET /api/content/my`). */
export const ContentListQuery = v.object({
  q: v.pipe(v.optional(v.string(), ""), storable("Search"), v.trim(), v.maxLength(100, "Search is too long")),
  sort: v.optional(v.fallback(v.picklist(SORT_KEYS), "createdAt"), "createdAt"),
  dir: v.optional(v.fallback(v.picklist(["asc", "desc"]), "desc"), "desc"),
  page: v.optional(v.fallback(v.pipe(v.string(), v.transform(Number), v.integer(), v.minValue(1)), 1), "1"),
  limit: v.optional(
    v.fallback(v.pipe(v.string(), v.transform(Number), v.integer(), v.minValue(1), v.maxValue(100)), 20),
    "20",
  ),
});
export type ContentListQueryOutput = v.InferOutput<typeof ContentListQuery>;
