import cluster from "node:cluster";
import type { Env } from "../runtime/env.ts";

/**
 * WEB_CONCURRENCY > 1 runs that many worker processes sharing the port (Node's cluster), one per
 * core, each a full stateless instance. The embedded database belongs to one process, so it needs
 * PostgreSQL; development keeps one process for Vite.
 */
export function shouldCluster(env: Env): boolean {
  if (!cluster.isPrimary || env.WEB_CONCURRENCY <= 1 || env.NODE_ENV === "development") return false;
  if (!env.DATABASE_URL) {
    console.warn(
      "WEB_CONCURRENCY needs DATABASE_URL (the embedded database belongs to one process); running one process.",
    );
    return false;
  }
  return true;
}

/** Runs the primary: forks the workers, replaces any that die, and drains them all on SIGTERM. Never returns. */
export async function runClusterPrimary(env: Env): Promise<never> {
  let stopping = false;
  const fork = () => cluster.fork();
  for (let i = 0; i < env.WEB_CONCURRENCY; i++) fork();
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    console.error(`worker ${worker.process.pid} stopped (${signal ?? code}); starting another`);
    setTimeout(fork, 1000).unref();
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
  return new Promise<never>(() => {});
}
