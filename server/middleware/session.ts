import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./types.ts";
import type { SessionStore } from "../auth/sessions.ts";
import { clearedSessionCookie, isSecureRequest, readSessionToken, sessionCookie } from "../auth/cookies.ts";

/**
 * Reads the caller's identity: `Authorization: Bearer <access_token>` (API clients) or the
 * session cookie (browsers), valid only on the host it was issued for. Sliding web sessions get
 * their cookie re-sent when extended; a dead cookie is cleared.
 */
export function session(store: SessionStore, trustProxy: boolean) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const secure = isSecureRequest(c.req.url, c.req.header("x-forwarded-proto"), trustProxy);
    c.set("secure", secure);
    c.set("auth", null);
    const host = c.get("site").host;
    const authorization = c.req.header("authorization");
    if (authorization) {
      const match = /^Bearer\s+(\S+)$/i.exec(authorization);
      const found = match ? await store.validate(match[1], host, "access") : null;
      if (found) c.set("auth", { ...found, via: "bearer" });
      else c.set("authError", "invalid_token");
      return next();
    }
    const token = readSessionToken(c.req.header("cookie"), secure);
    if (token) {
      const found = await store.validate(token, host, "web");
      if (found) {
        c.set("auth", { ...found, via: "cookie" });
        if (found.session.extended && found.session.persistent) {
          c.header(
            "Set-Cookie",
            sessionCookie(token, { secure, persistent: true, expiresAt: found.session.expiresAt }),
            { append: true },
          );
        }
      } else {
        c.header("Set-Cookie", clearedSessionCookie(secure), { append: true });
      }
    }
    await next();
  });
}
