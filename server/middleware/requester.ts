import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./types.ts";
import { clientIp } from "./client-ip.ts";
import { runAsRequester } from "../messages/requester.ts";

/** Names the request's account and address for the messages it writes (after `session`, which knows the account). */
export function requester(trustProxy: boolean) {
  return createMiddleware<AppEnv>((c, next) =>
    runAsRequester({ userId: c.get("auth")?.user.id ?? null, ip: clientIp(c, trustProxy) }, next),
  );
}
