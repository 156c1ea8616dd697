import { PLATFORM_NAME, readsAsPlatformName } from "#common/platform-name.ts";
import type { LinkCenter, SiteLinks } from "./links.ts";
import { PLATFORM_BRAND, type Brand } from "./templates.ts";
import { withoutWebAddresses } from "./visitor-text.ts";

/**
 * How an institute appears in its messages (issue 37 §1, decision 0028): on every channel, in
 * the subject, the text and the e-mail's sender, by its own name, never as the platform. Its
 * e-mail comes from "{institute} via Pathshala", which the platform's own never does; a name
 * that reads as the platform's (made before names were checked, or written by a tool) is shown
 * as the institute's address instead. Controls and invisible formatting (a right-to-left
 * override) are taken out, so the name reads as it is, and so is anything in it that reads as a
 * web address: the name is text its owner typed.
 */
export function instituteBrand(
  center: LinkCenter & { name: string; brandColor?: string | null },
  links: Pick<SiteLinks, "hostOf">,
): Brand {
  const own = withoutWebAddresses(center.name.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\s]+/gu, " "));
  const name = own && !readsAsPlatformName(own) ? own : links.hostOf(center);
  const color =
    center.brandColor && /^#[0-9a-f]{6}$/i.test(center.brandColor) ? center.brandColor : PLATFORM_BRAND.color;
  return { name, color, sender: `${name} via ${PLATFORM_NAME}` };
}

/**
 * A message's values with the institute's name as its brand shows it: a value named
 * `institute` (an enquiry, an invitation, a plan's end) is the name of the institute the
 * message is about, and follows the same rule as its subject.
 */
export function brandedValues<V extends Record<string, string>>(values: V, brand: Brand): V {
  return brand !== PLATFORM_BRAND && "institute" in values ? { ...values, institute: brand.name } : values;
}
