import type { Context, Hono } from "hono";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { isCenterLive, type TenantCenter } from "../services/tenants.ts";
import { HOME_PAGE_ENCODINGS, SITE_ASSETS } from "../services/sites.ts";
import { escapeHtml, simplePage } from "../http/html.ts";
import { HttpError } from "../http/errors.ts";
import { ENQUIRY_THANKS, submitEnquiry } from "../api/enquiries.ts";
import { encodingChooser } from "../http/accept-encoding.ts";
import { etagMatches, SHARED_FOR_A_SECOND } from "../middleware/caching.ts";

const chooseHomePageEncoding = encodingChooser(HOME_PAGE_ENCODINGS);

/** The unavailable page carries the institute's name, never the platform's. */
function unavailable(c: Context<AppEnv>, center: TenantCenter) {
  c.header("Retry-After", "3600");
  c.header("Cache-Control", "no-store");
  return c.html(
    simplePage(
      center.instituteName,
      "This site is temporarily unavailable",
      `${center.instituteName}'s website will be back soon. Please check again later.`,
    ),
    503,
  );
}

/**
 * What an institute's domain answers outside React Router: its home page (server-rendered
 * template from the rendered-page cache, ETag/304, compressed copies made once), the templates'
 * assets, its admin path (→ the institute's own business sign-in), and the plain-HTML enquiry post.
 */
export function mountTenantSiteEarly(app: Hono<AppEnv>, deps: AppDeps): void {
  app.get("/_site/:file", (c) => {
    const match = /^(enquiry\.js|t[1-4]\.css)$/.exec(c.req.param("file"));
    if (!match) return c.notFound();
    const key = match[1] === "enquiry.js" ? "script" : (match[1].slice(0, 2) as keyof typeof SITE_ASSETS);
    const asset = SITE_ASSETS[key];
    const current = c.req.query("v") === asset.version;
    const encoding = chooseHomePageEncoding(c.req.header("accept-encoding"));
    c.header("ETag", `"${asset.version}"`);
    c.header(
      "Cache-Control",
      current ? "public, max-age=31536000, immutable" : "public, max-age=300, stale-while-revalidate=86400",
    );
    c.header("Vary", "Accept-Encoding");
    if (etagMatches(c.req.header("if-none-match"), `"${asset.version}"`)) return c.body(null, 304);
    c.header("Content-Type", asset.type);
    if (encoding) c.header("Content-Encoding", encoding);
    return c.body((encoding ? asset.compressed[encoding] : asset.body) as Uint8Array<ArrayBuffer>);
  });

  app.on(["GET", "HEAD"], "/", async (c, next) => {
    const site = c.get("site");
    if (site.kind !== "tenant") return next();
    const { center } = site;
    if (!isCenterLive(center)) return unavailable(c, center);
    const encoding = chooseHomePageEncoding(c.req.header("accept-encoding")) ?? null;
    const page = await deps.services.sites.homePage(center, site.host, encoding);
    c.header("ETag", page.etag);
    c.header("Cache-Control", SHARED_FOR_A_SECOND);
    c.header("Vary", "Accept-Encoding");
    if (etagMatches(c.req.header("if-none-match"), page.etag)) return c.body(null, 304);
    c.header("Content-Type", "text/html; charset=utf-8");
    if (encoding) c.header("Content-Encoding", encoding);
    return c.body(page.body as Uint8Array<ArrayBuffer>);
  });

  // The institute's admin path (default /admin) leads to its own business sign-in, on its domain.
  app.get("*", async (c, next) => {
    const site = c.get("site");
    if (site.kind !== "tenant") return next();
    const path = c.req.path.replace(/\/+$/, "") || "/";
    if (path !== site.center.superAdminPath || path === "/") return next();
    return c.redirect(`/auth?role=business&mode=login&redirectTo=${encodeURIComponent("/business")}`, 302);
  });
}

/** The enquiry form's no-JavaScript post: a page saying it worked, or what to fix. */
export function mountTenantSiteForms(app: Hono<AppEnv>, deps: AppDeps): void {
  app.post("/enquiry", async (c, next) => {
    const site = c.get("site");
    if (site.kind !== "tenant") return next();
    if (!isCenterLive(site.center)) return unavailable(c, site.center);
    const form = await c.req.parseBody().catch(() => ({}));
    const input = Object.fromEntries(Object.entries(form).filter(([, value]) => typeof value === "string"));
    const name = site.center.instituteName;
    try {
      await submitEnquiry(deps, c, site.center.id, input);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      return c.html(
        formAnswer(name, "We could not send your enquiry", error.message),
        error.status === 429 ? 429 : 400,
      );
    }
    return c.html(formAnswer(name, "Enquiry sent", ENQUIRY_THANKS), 200);
  });
}

function formAnswer(instituteName: string, heading: string, text: string): string {
  return simplePage(instituteName, heading, text).replace(
    "</main>",
    `<p style="margin-top:1.5rem"><a href="/#contact" style="color:inherit;font-weight:600">Back to ${escapeHtml(instituteName)}</a></p></main>`,
  );
}
