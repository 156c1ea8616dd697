import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../http-types.ts";
import type { TenantDirectory } from "../services/tenants.ts";
import { runInTenantScope } from "../db/tenant-scope.ts";

/** The host this request was made to: X-Forwarded-Host only behind a trusted proxy. */
export function requestHost(c: { req: { header(name: string): string | undefined; url: string } }, trustProxy: boolean): string {
  const forwarded = trustProxy ? c.req.header("x-forwarded-host")?.split(",")[0] : undefined;
  return forwarded || c.req.header("host") || new URL(c.req.url).host;
}

/** Resolves the Host to the platform, an institute, or an unknown site (DESIGN §3 step 1). */
export function tenant(directory: TenantDirectory, trustProxy: boolean) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const site = await directory.resolve(requestHost(c, trustProxy));
    c.set("site", site);
    // Everything this request does in the database is confined to its institute (row-level security).
    await runInTenantScope(site.kind === "tenant" ? site.center.id : null, next);
  });
}
