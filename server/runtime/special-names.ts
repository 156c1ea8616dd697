/**
 * Names no one can register (RFC 2606, RFC 6761): `*.localhost` always means this machine, and
 * `.test`, `.example`, `.invalid` and `.local` never resolve on the internet. The demo and the
 * tests name their institutes with them.
 */
const SPECIAL_USE_TLDS = new Set(["localhost", "test", "example", "invalid", "local"]);

/** Whether a normalised host name ends in a special-use name (or is `localhost` itself). */
export function isSpecialUseName(host: string): boolean {
  return SPECIAL_USE_TLDS.has(host.slice(host.lastIndexOf(".") + 1));
}

/**
 * Whether the platform is configured for a real deployment: its platform domain is a name on the
 * internet, not a laptop's (`localhost`, `*.test`…) and not unset.
 */
export function isRealPlatformDomain(platformDomain: string): boolean {
  return platformDomain !== "" && !isSpecialUseName(platformDomain);
}
