/**
 * The server as production runs it (runtime, middleware, API; React Router aside) on a free
 * port, for `npm run bench:upload`. Reports its port, then its resident memory every 100 ms,
 * to the parent over IPC.
 */
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { Hono } from "hono";
import { serve } from "@hono/node-server";
import { parseEnv } from "../../server/env.ts";
import { startRuntime } from "../../server/runtime.ts";
import { mountEarly, mountPlatform } from "../../server/app.ts";
import type { AppEnv } from "../../server/http-types.ts";
import { allowLongUploads } from "../../server/http-timeouts.ts";

const env = parseEnv({ ...process.env, SEED_DEMO: "0", LOG_LEVEL: "warn" });
const runtime = await startRuntime(env);
const app = new Hono<AppEnv>();
mountEarly(app, runtime);
mountPlatform(app, runtime);
const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
allowLongUploads(server as Server);
server.once("listening", () => {
  process.send!({ port: (server.address() as AddressInfo).port });
  setInterval(() => process.send!({ rss: process.memoryUsage.rss() }), 100).unref();
});
// The parent asks for a collection before taking its baseline, so the baseline is not inflated by start-up garbage.
process.on("message", (m: { gc?: boolean }) => {
  if (m.gc) (globalThis as { gc?: () => void }).gc?.();
});
process.on("disconnect", () => {
  server.close();
  void runtime.close().finally(() => process.exit(0));
});
