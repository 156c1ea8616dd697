import type { ByteRange } from "./types.ts";

/**
 * Reads an HTTP Range header against an object of `size` bytes (RFC 9110 §14):
 * - "none": no header, another unit, or a malformed or multi-range header (answer with the whole object)
 * - "unsatisfiable": no requested byte exists (answer 416 with `Content-Range: bytes * /size`)
 * - otherwise the one inclusive range to send with 206.
 */
export type RangeRequest = { kind: "none" } | { kind: "unsatisfiable" } | { kind: "range"; range: ByteRange };

export function parseRange(header: string | null | undefined, size: number): RangeRequest {
  if (!header) return { kind: "none" };
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  // Several ranges would need multipart/byteranges; sending the whole object is allowed instead.
  if (!match) return { kind: "none" };
  const [, first, last] = match;
  if (first === "" && last === "") return { kind: "none" };
  if (first === "") {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: "unsatisfiable" };
    return { kind: "range", range: { start: Math.max(0, size - suffix), end: size - 1 } };
  }
  const start = Number(first);
  if (start >= size) return { kind: "unsatisfiable" };
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  if (end < start) return { kind: "none" };
  return { kind: "range", range: { start, end } };
}
