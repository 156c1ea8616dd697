/** File types recognised by their first bytes (the name and the declared type are not trusted). */
export type SniffedType = "png" | "jpeg" | "webp" | "gif" | "pdf" | "mp4" | "quicktime" | "webm";

export const MIME: Record<SniffedType, string> = {
  png: "image/png",
  jpeg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
  pdf: "application/pdf",
  mp4: "video/mp4",
  quicktime: "video/quicktime",
  webm: "video/webm",
};

export const EXTENSION: Record<SniffedType, string> = {
  png: "png",
  jpeg: "jpg",
  webp: "webp",
  gif: "gif",
  pdf: "pdf",
  mp4: "mp4",
  quicktime: "mov",
  webm: "webm",
};

export const IMAGE_TYPES: readonly SniffedType[] = ["png", "jpeg", "webp"];
export const VIDEO_TYPES: readonly SniffedType[] = ["mp4", "quicktime", "webm"];

/** How many leading bytes `sniff` needs. */
export const SNIFF_BYTES = 16;

const ascii = (bytes: Uint8Array, at: number, text: string) =>
  bytes.length >= at + text.length && [...text].every((ch, i) => bytes[at + i] === ch.charCodeAt(0));

export function sniff(head: Uint8Array): SniffedType | undefined {
  if (head.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => head[i] === b)) return "png";
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return "jpeg";
  if (ascii(head, 0, "RIFF") && ascii(head, 8, "WEBP")) return "webp";
  if (ascii(head, 0, "GIF87a") || ascii(head, 0, "GIF89a")) return "gif";
  if (ascii(head, 0, "%PDF-")) return "pdf";
  if (head.length >= 4 && head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) return "webm";
  if (ascii(head, 4, "ftyp")) return ascii(head, 8, "qt  ") ? "quicktime" : "mp4";
  // Older QuickTime files open with another atom instead of ftyp.
  if (["moov", "mdat", "wide", "free", "skip", "pnot"].some((atom) => ascii(head, 4, atom))) return "quicktime";
  return undefined;
}
