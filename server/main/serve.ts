import type { Server } from "node:http";
import type { Hono } from "hono";
import { createRequestHandler } from "react-router";
import { createHonoServer } from "react-router-hono-server/node";
import type { AppEnv } from "../middleware/types.ts";
import { loadEnv } from "../runtime/env.ts";
import { describeStart, startRuntime, type Runtime } from "./runtime.ts";
import { mountEarly, mountPlatform } from "../app.ts";
import { createLoadContext } from "../middleware/context.ts";
import { DataDirBusyError } from "../db/lock.ts";
import { allowLongUploads } from "../http/timeouts.ts";
import { runClusterPrimary, shouldCluster } from "./cluster.ts";

/**
 * The one server process: Hono (health, tenant, institutes' sites, /api, assets), then React Router.
 * In development Vite re-imports this module on change, so the runtime (and the embedded
 * database it holds open) is kept across reloads.
 */
const globalRuntime = globalThis as unknown as { __pathshalaRuntime?: Promise<Runtime> };

async function boot(): Promise<Runtime> {
  const env = loadEnv();
  try {
    return await startRuntime(env);
  } catch (error) {
    // One clear line instead of a stack trace: a busy data folder, an unreachable database…
    const reason =
      error instanceof DataDirBusyError ? error.message : `Pathshala could not start: ${(error as Error).message}`;
    console.error(reason);
    process.exit(1);
  }
}

// With WEB_CONCURRENCY > 1 this process only supervises workers, each of which runs what follows.
const startupEnv = loadEnv();
if (shouldCluster(startupEnv)) await runClusterPrimary(startupEnv);

const runtime = await (globalRuntime.__pathshalaRuntime ??= boot());

function installGracefulShutdown(server: Server) {
  server.on("error", (error: NodeJS.ErrnoException) => {
    // One clear line, not a stack trace, for the usual start-up mistakes.
    const reason =
      error.code === "EADDRINUSE"
        ? `port ${runtime.env.PORT} is already in use (set PORT to another port, or stop the other server)`
        : error.code === "EACCES"
          ? `not allowed to listen on port ${runtime.env.PORT}`
          : error.message;
    console.error(`Pathshala could not start: ${reason}`);
    process.exit(1);
  });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    runtime.draining = true;
    runtime.logger.info("shutting down", { signal });
    // Stop accepting; in-flight requests finish; idle keep-alive sockets are closed now.
    server.close(() => {
      void runtime.close().finally(() => process.exit(0));
    });
    server.closeIdleConnections();
    setTimeout(() => {
      runtime.logger.warn("forced exit after 25 s of draining");
      process.exit(1);
    }, 25_000).unref();
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
}

/**
 * React Router's request handler, made once. react-router-hono-server makes a new one for every
 * request, and each new one builds React Router's route tables again (about a tenth of a signed-in
 * page's time on a profile). In development its own, made afresh for each request, follows the
 * code as it changes.
 */
async function mountReactRouter(app: Hono<AppEnv>) {
  if (runtime.env.NODE_ENV === "development") return;
  const build = await import("virtual:react-router/server-build");
  const handle = createRequestHandler(build, "production");
  app.all("*", (c) => handle(c.req.raw, createLoadContext(c, runtime)));
}

export default await createHonoServer<never>({
  defaultLogger: false,
  overrideGlobalObjects: true,
  // The build writes .br and .gz copies of the browser's files (scripts/build/precompress.ts).
  serveStaticOptions: { clientAssets: { precompressed: true }, publicAssets: { precompressed: true } },
  port: runtime.env.PORT,
  hostname: runtime.env.HOST,
  beforeAll: (app) => mountEarly(app as never, runtime),
  configure: async (app) => {
    mountPlatform(app as never, runtime);
    await mountReactRouter(app as never);
  },
  getLoadContext: (c) => createLoadContext(c as never, runtime),
  onServe: (server) => {
    allowLongUploads(server as Server);
    installGracefulShutdown(server as Server);
  },
  listeningListener: async (info) => {
    for (const line of await describeStart(runtime, info.port)) console.log(line);
  },
});
