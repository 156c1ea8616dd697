import type { Context } from "hono";
import { createContext, RouterContextProvider } from "react-router";
import type { AppDeps, AppEnv, Auth } from "./types.ts";
import type { Services } from "../services/index.ts";
import type { Site } from "../services/tenants.ts";
import { requestMeta } from "./client-ip.ts";
import { newNonce } from "./security-headers.ts";
import type { Logger } from "../runtime/logger.ts";

/** What every loader and action can read about the request it serves. */
export interface RequestContext {
  requestId: string;
  /** The request's logger (every line carries its request id). */
  log: Logger;
  site: Site;
  services: Services;
  auth: Auth | null;
  secure: boolean;
  meta: { ip: string; userAgent?: string; centerId?: string };
  env: AppDeps["env"];
  /**
   * The Content-Security-Policy nonce for this response's inline scripts; none in a page rendered
   * to be kept as bytes (server/pages/kept-pages.ts), whose scripts are allowed by their hashes.
   */
  nonce: string | undefined;
  /** This page is rendered to be kept as bytes (server/pages/kept-pages.ts). */
  kept: boolean;
}

export const requestContext = createContext<RequestContext>();

export function createLoadContext(
  c: Context<AppEnv>,
  runtime: Pick<AppDeps, "services" | "env">,
): RouterContextProvider {
  const provider = new RouterContextProvider();
  provider.set(requestContext, {
    requestId: c.get("requestId"),
    log: c.get("log"),
    site: c.get("site"),
    services: runtime.services,
    auth: c.get("auth"),
    secure: c.get("secure"),
    meta: requestMeta(c, runtime.env.TRUST_PROXY),
    env: runtime.env,
    nonce: c.get("keptPage") ? undefined : newNonce(c),
    kept: c.get("keptPage") === true,
  });
  return provider;
}
