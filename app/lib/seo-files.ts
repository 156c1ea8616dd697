import { PUBLIC_PAGES } from "./seo";

/**
 * robots.txt and sitemap.xml for whichever site the host serves: the platform lists its public
 * pages; an institute's own domain describes the institute's site (its home page), never the
 * platform's.
 */
export type SiteKind = "platform" | "tenant";

const PRIVATE_PLATFORM = [
  "/api/",
  "/dashboard",
  "/admin",
  "/creator",
  "/student",
  "/parent",
  "/business",
  "/auth",
  "/login",
  "/logout",
  "/profile",
  "/my-courses",
  "/pricing/setup",
];
const PRIVATE_TENANT = ["/api/", "/student", "/parent", "/business", "/auth", "/logout", "/profile", "/my-courses"];

export function robotsTxt(kind: SiteKind, origin: string): string {
  const lines = [
    "User-agent: *",
    "Allow: /",
    ...(kind === "platform" ? PRIVATE_PLATFORM : PRIVATE_TENANT).map((path) => `Disallow: ${path}`),
    "",
    `Sitemap: ${origin}/sitemap.xml`,
    "",
  ];
  return lines.join("\n");
}

function escapeXml(value: string): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

export function sitemapXml(kind: SiteKind, origin: string): string {
  const pages = kind === "platform" ? PUBLIC_PAGES : [{ path: "/", changefreq: "weekly", priority: "1.0" }];
  const urls = pages
    .map(
      (page) =>
        `  <url><loc>${escapeXml(`${origin}${page.path}`)}</loc><changefreq>${page.changefreq}</changefreq><priority>${page.priority}</priority></url>`,
    )
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}
