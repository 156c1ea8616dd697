/**
 * Accept-Encoding negotiation for the encodings a part of the server can send, `offered` in its
 * order of preference. The chooser returns the one the client prefers by its q-values (RFC 9110
 * §12.5.3): `*` stands for any not named, q=0 refuses, and equal weights go to the earlier
 * offered. Undefined when none is welcome: the answer goes out as it is.
 */
export function encodingChooser<E extends string>(
  offered: readonly E[],
): (header: string | undefined) => E | undefined {
  const named = offered.map((encoding) => ({
    encoding,
    pattern: new RegExp(`(?:^|[\\s,])${encoding}(?:$|[\\s,])`, "i"),
  }));
  return (header) => {
    if (!header) return undefined;
    // Browsers send a plain list ("gzip, deflate, br, zstd"): every name weighs 1, so the first
    // offered that appears wins, with no parsing. This runs on every institute home page visit.
    if (!header.includes(";") && !header.includes("*"))
      return named.find(({ pattern }) => pattern.test(header))?.encoding;
    const weights = new Map<string, number>();
    for (const part of header.split(",")) {
      const [name, ...params] = part.split(";").map((s) => s.trim());
      if (!name) continue;
      const q = params.find((p) => /^q=/i.test(p));
      const weight = q === undefined ? 1 : Number(q.slice(2));
      weights.set(name.toLowerCase(), Number.isFinite(weight) ? weight : 0);
    }
    let best: { encoding: E; q: number } | undefined;
    for (const encoding of offered) {
      const q = weights.get(encoding) ?? weights.get("*") ?? 0;
      if (q > 0 && (!best || q > best.q)) best = { encoding, q };
    }
    return best?.encoding;
  };
}
