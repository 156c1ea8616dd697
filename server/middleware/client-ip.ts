import type { Context } from "hono";
import type { AppEnv } from "./types.ts";
import { getConnInfo } from "@hono/node-server/conninfo";

/**
 * The caller's address. Behind a trusted proxy, the right-most X-Forwarded-For entry (the one the
 * nearest proxy added; left-most entries are whatever the client claimed).
 */
export function clientIp(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header("x-forwarded-for");
    const last = forwarded?.split(",").pop()?.trim();
    if (last) return last;
  }
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "unknown";
  }
}

/**
 * Who is asking and where: what rate limits, sessions and sign-ups record. Never where links
 * lead: those come from where the account or institute lives (SiteLinks, decision 0028).
 */
export function requestMeta(c: Context<AppEnv>, trustProxy: boolean) {
  const site = c.get("site");
  return {
    ip: clientIp(c, trustProxy),
    userAgent: c.req.header("user-agent"),
    centerId: site.kind === "tenant" ? site.center.id : undefined,
  };
}
