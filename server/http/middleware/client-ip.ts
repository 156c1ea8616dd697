import type { Context } from "hono";
import type { AppEnv } from "../types.ts";
import { getConnInfo } from "@hono/node-server/conninfo";
import { siteOrigin } from "./tenant.ts";

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

/** Who is asking and where: what rate limits, sessions and sign-ups record. */
export function requestMeta(c: Context<AppEnv>, trustProxy: boolean) {
  const site = c.get("site");
  return {
    ip: clientIp(c, trustProxy),
    userAgent: c.req.header("user-agent"),
    centerId: site.kind === "tenant" ? site.center.id : undefined,
    /** Where links in the messages this request causes lead: the site it came to. */
    origin: siteOrigin(c, trustProxy),
  };
}
