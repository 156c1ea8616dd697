import type { Hono } from "hono";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { errorBody } from "../http/errors.ts";
import { SANDBOX_PATH } from "../payments/config.ts";
import { sandboxRouter } from "../payments/sandbox/router.ts";

/**
 * The sandbox answers on any host, before tenant resolution (the SDK calls it on 127.0.0.1).
 * Without it, its paths are a plain 404 rather than a page of the platform.
 */
export function mountPaymentSandbox(app: Hono<AppEnv>, deps: Pick<AppDeps, "services" | "logger">): void {
  const { config } = deps.services.payments;
  if (config.sandbox) {
    app.route(SANDBOX_PATH, sandboxRouter({ config, logger: deps.logger }));
  } else {
    app.all("/_sandbox/*", (c) => c.json(errorBody("Not found"), 404));
  }
}
