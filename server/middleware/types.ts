import type { Membership } from "../auth/permissions.ts";
import type { Reader } from "../services/content-access.ts";
import type { Logger } from "../runtime/logger.ts";
import type { Site } from "../services/tenants.ts";
import type { SessionUser, ValidSession } from "../auth/sessions.ts";
import type { Env } from "../runtime/env.ts";
import type { Database } from "../db/types.ts";
import type { Services } from "../services/index.ts";

export interface Auth {
  user: SessionUser;
  session: ValidSession;
  via: "bearer" | "cookie";
}

export interface AppVariables {
  requestId: string;
  log: Logger;
  site: Site;
  /** Whether the request arrived over https (directly or through a trusted proxy). */
  secure: boolean;
  auth: Auth | null;
  /** The Content-Security-Policy nonce of this response's scripts (pages rendered by React Router only). */
  nonce?: string;
  /** This page is rendered to be kept as bytes (server/pages/kept-pages.ts): no nonce, scripts allowed by hash. */
  keptPage?: true;
  /** Set when a bearer token was sent but is not (or no longer) valid. */
  authError?: "invalid_token";
  /** The caller's roles in the request's institute, once requireMember has found them. */
  membership?: Membership;
  /** The creator area's caller and the institute they work on, once the creatorDesk guard has found them. */
  deskReader?: Reader;
}

export type AppEnv = { Variables: AppVariables };

/** What the app's routers and pages are built from: the running process's parts (server/main/runtime.ts). */
export interface AppDeps {
  env: Env;
  logger: Logger;
  database: Database;
  services: Services;
  /** Set while shutting down: new requests are refused. */
  draining: boolean;
}
