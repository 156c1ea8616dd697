import { describe, expect, it } from "vitest";
import { robotsTxt, sitemapXml } from "./seo-files";

describe("robots.txt and sitemap.xml", () => {
  it("lists the platform's public pages and keeps private areas out", () => {
    const robots = robotsTxt("platform", "https://pathshala.in");
    expect(robots).toContain("Sitemap: https://pathshala.in/sitemap.xml");
    for (const path of ["/dashboard", "/creator", "/student", "/business", "/api/"])
      expect(robots).toContain(`Disallow: ${path}\n`);
    const sitemap = sitemapXml("platform", "https://pathshala.in");
    for (const path of ["/", "/pricing", "/about", "/contact", "/invest"])
      expect(sitemap).toContain(`<loc>https://pathshala.in${path}</loc>`);
    expect(sitemap).not.toContain("/dashboard");
  });

  it("describes an institute's own site on its domain, not the platform", () => {
    const sitemap = sitemapXml("tenant", "https://sunrise.example.in");
    expect(sitemap).toContain("<loc>https://sunrise.example.in/</loc>");
    expect(sitemap).not.toContain("/pricing");
    expect(sitemap).not.toContain("/invest");
    const robots = robotsTxt("tenant", "https://sunrise.example.in");
    expect(robots).toContain("Sitemap: https://sunrise.example.in/sitemap.xml");
    expect(robots).not.toContain("/dashboard");
  });

  it("escapes XML in URLs", () => {
    expect(sitemapXml("tenant", "https://a.in/?x=1&y=2")).toContain("https://a.in/?x=1&amp;y=2/");
  });
});
