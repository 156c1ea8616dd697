import type { MetaDescriptor } from "react-router";

export const SITE_NAME = "Pathshala";
export const MARKETING_LAYOUT_ID = "routes/marketing/layout";

/** The public pages search engines should list (sitemap.xml), with how often they change. */
export const PUBLIC_PAGES: { path: string; changefreq: "weekly" | "monthly"; priority: string }[] = [
  { path: "/", changefreq: "weekly", priority: "1.0" },
  { path: "/pricing", changefreq: "weekly", priority: "0.9" },
  { path: "/invest", changefreq: "monthly", priority: "0.7" },
  { path: "/about", changefreq: "monthly", priority: "0.6" },
  { path: "/contact", changefreq: "monthly", priority: "0.6" },
  { path: "/get-started", changefreq: "monthly", priority: "0.6" },
  { path: "/legal", changefreq: "monthly", priority: "0.2" },
];

interface MatchLike {
  id: string;
  loaderData?: unknown;
  data?: unknown;
}

/** The absolute origin the marketing layout's loader worked out from the request (https behind TLS). */
export function originFrom(matches: readonly (MatchLike | undefined)[]): string {
  const layout = matches.find((m) => m?.id === MARKETING_LAYOUT_ID);
  const data = (layout?.loaderData ?? layout?.data) as { origin?: string } | undefined;
  return data?.origin ?? "";
}

/**
 * Title, description, canonical URL, Open Graph and Twitter card tags of one public page.
 * `title` is the page's own title; the site name is appended unless the title already names it.
 */
export function seo({
  matches,
  title,
  description,
  path,
  image = "/images/og.png",
}: {
  matches: readonly (MatchLike | undefined)[];
  title: string;
  description: string;
  path: string;
  image?: string;
}): MetaDescriptor[] {
  const origin = originFrom(matches);
  const url = `${origin}${path}`;
  const fullTitle = title.includes(SITE_NAME) ? title : `${title} | ${SITE_NAME}`;
  return [
    { title: fullTitle },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: SITE_NAME },
    { property: "og:title", content: fullTitle },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { property: "og:image", content: `${origin}${image}` },
    { property: "og:image:width", content: "1200" },
    { property: "og:image:height", content: "630" },
    { property: "og:image:alt", content: "Pathshala: your institute online in 24 hours" },
    { property: "og:locale", content: "en_IN" },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: fullTitle },
    { name: "twitter:description", content: description },
    { name: "twitter:image", content: `${origin}${image}` },
  ];
}
