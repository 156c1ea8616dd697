import type { PDFFont } from "pdf-lib";

/**
 * Text the standard font can print: accents are kept where the font has them, other letters
 * (e.g. Devanagari, which the standard PDF fonts lack) are dropped, so the e-mail always shows.
 */
export function printable(value: string, font?: PDFFont): string {
  const supported = font ? new Set(font.getCharacterSet()) : null;
  const keep = (ch: string) => {
    const code = ch.codePointAt(0)!;
    if (code < 0x20 || code === 0x7f) return false;
    return supported ? supported.has(code) : code < 0x7f;
  };
  let out = "";
  for (const ch of value.normalize("NFC")) {
    if (keep(ch)) out += ch;
    else {
      // "é" as "e" when the composed form is missing; otherwise leave it out.
      const base = ch.normalize("NFD").replace(/\p{M}/gu, "");
      if (base && base !== ch && [...base].every(keep)) out += base;
    }
  }
  return out.replace(/\s+/g, " ").trim();
}
