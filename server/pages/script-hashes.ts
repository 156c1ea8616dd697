import { createHash } from "node:crypto";

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const HAS_SRC = /(?:^|\s)src\s*=/i;

/**
 * The base64 SHA-256 of every inline script of a page that React rendered, as a
 * Content-Security-Policy names them (`'sha256-…'`): the text between the tags, with line
 * breaks as the browser's parser reads them (CR LF and CR become LF), in UTF-8. React escapes
 * every text and attribute it writes, and React Router writes its data into scripts with `<`
 * escaped, so each `<script` in its output opens a real script element. Scripts loaded by `src`
 * are allowed by 'self', not by a hash. Each hash once, in order of first appearance.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, attributes, text] of html.matchAll(INLINE_SCRIPT)) {
    if (HAS_SRC.test(attributes)) continue;
    hashes.add(createHash("sha256").update(text.replace(/\r\n?/g, "\n"), "utf8").digest("base64"));
  }
  return [...hashes];
}
