import TLDS from "tlds" with { type: "json" };
import { TEMPLATES, type TemplateId, type ValuesOf } from "./templates.ts";

/**
 * Text people typed (a name, a title, an institute's name) goes into messages to addresses that
 * other people typed: a stranger must never receive a web address from it. `withoutWebAddresses`
 * takes out anything a reader or a messaging app would take for one: links with a scheme
 * (https://, mailto:, javascript:…), www. names, e-mail addresses, IP addresses and bare domain
 * names whose last label is a real top-level domain (evil.com, bit.ly/x, пример.рф) or punycode
 * (xn--…). Look-alikes are undone first: full-width and other compatibility forms (NFKC), the
 * ideographic full stop, "[.]" and "(dot)", and invisible characters placed inside a name.
 */

const KNOWN_TLDS = new Set(TLDS.map((tld) => tld.toLowerCase()));

// Invisible formatting (zero-width spaces, bidirectional overrides, soft hyphens, word joiners),
// except the joiners that Indic scripts and emoji need, which the label pattern below allows instead.
const INVISIBLE = /(?!\u200C|\u200D)\p{Cf}/gu;
const DOT_LOOKALIKES = /\s*(?:\[\s*(?:\.|dot)\s*\]|\(\s*(?:\.|dot)\s*\)|\{\s*(?:\.|dot)\s*\})\s*|[\u3002\uFF61]/giu;

// Each pattern starts only where a word starts, so a long word is read once, not once per letter.
const SCHEME =
  /(?<![\w+.-])[a-z][\w+.-]*:\/\/\S*|(?<![\w+.-])(?:mailto|tel|sms|javascript|data|whatsapp|intent|file|ftp):\S+/giu;
const EMAIL = /(?<![^\s@])[^\s@]+@[^\s@]+\.[^\s@]+/gu;
const WWW = /\bwww\d*\.\S*/giu;
const IPV4 = /(?<![\p{L}\p{N}.])\d{1,3}(?:\.\d{1,3}){3}(?:[:/?#]\S*)?/gu;
// A letter, digit or mark of any script, or a joiner (Indic scripts need them between letters).
const CHAR = String.raw`(?:[\p{L}\p{N}\p{M}]|\u200C|\u200D)`;
const CHAR_OR_HYPHEN = String.raw`(?:[\p{L}\p{N}\p{M}-]|\u200C|\u200D)`;
const LABEL = String.raw`${CHAR}(?:${CHAR_OR_HYPHEN}*${CHAR})?`;
const DOMAIN = new RegExp(
  String.raw`(?<!${CHAR_OR_HYPHEN}|\.)(?:${LABEL}\.)+(${LABEL})(?!${CHAR_OR_HYPHEN})\.?(?:[:/?#]\S*)?`,
  "gu",
);

const isTopLevelDomain = (label: string) => {
  const name = label.toLowerCase().replace(/\u200C|\u200D/g, "");
  return KNOWN_TLDS.has(name) || name.startsWith("xn--");
};

function removeOnce(text: string): string {
  return text
    .replace(SCHEME, " ")
    .replace(EMAIL, " ")
    .replace(WWW, " ")
    .replace(IPV4, " ")
    .replace(DOMAIN, (whole, tld: string) => (isTopLevelDomain(tld) || /xn--/i.test(whole) ? " " : whole));
}

/** `text` without anything that reads as a web address (and tidied: look-alikes undone, spaces collapsed). */
export function withoutWebAddresses(text: string): string {
  let out = text.normalize("NFKC").replace(INVISIBLE, "").replace(DOT_LOOKALIKES, ".");
  // Taking one address out can join the text around it into another: repeat until nothing changes.
  for (let i = 0; i < 5; i++) {
    const next = removeOnce(out);
    if (next === out) break;
    out = next;
  }
  return out
    .replace(/[^\S\n]+/g, " ")
    .replace(/ *\n */g, "\n")
    .trim();
}

/**
 * A message's values as it is sent: in every template but a notice to the institute's own staff,
 * each value except the product's `link` and the template's `kept` ones loses its web addresses.
 */
export function valuesToSend<T extends TemplateId>(id: T, values: ValuesOf<T>): ValuesOf<T> {
  const def = TEMPLATES[id] as { recipient?: string; kept?: readonly string[] };
  if (def.recipient === "staff") return values;
  const kept = new Set(["link", ...(def.kept ?? [])]);
  return Object.fromEntries(
    Object.entries(values as Record<string, string>).map(([key, value]) => [
      key,
      kept.has(key) ? value : withoutWebAddresses(String(value)),
    ]),
  ) as ValuesOf<T>;
}
