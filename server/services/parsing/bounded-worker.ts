import { Piscina } from "piscina";
import type { TaskInput, TaskName, TaskOutput } from "./worker.ts";

/**
 * Runs a parsing task (./worker.ts) on a worker thread, with a ceiling on the thread's
 * JavaScript heap and on the task's time (decision 0031). What an uploaded file makes a library
 * do is then bounded whatever the library does: past the heap limit the thread is ended by V8,
 * past the time limit by the pool, and the server's own thread never waits on a parse. Limits
 * checked inside the task (./zip-check.ts, ./pdf-check.ts) refuse the known bombs first, with a
 * clearer reason; these are what is left when a library finds a way the checks did not foresee.
 *
 * The threads come from piscina pools, one per heap size, kept for a while after use: starting
 * a thread and loading the parsers costs more than most files take to read.
 */

export interface WorkerLimits {
  /** Milliseconds the task may run before its thread is ended. */
  timeMs: number;
  /** The thread's old-generation heap, in MiB (its ArrayBuffers are not counted: the checks bound those). */
  heapMb: number;
  /** Threads of this size at once; callers keep their own queue in front (p-limit), so a task never waits here. */
  threads: number;
}

/** The task ran out of time or memory. */
export class WorkerLimitError extends Error {
  readonly limit: "time" | "memory";
  constructor(limit: "time" | "memory") {
    super(limit === "time" ? "the parse ran out of time" : "the parse ran out of memory");
    this.limit = limit;
  }
}

const pools = new Map<string, Piscina>();

function poolFor(limits: WorkerLimits): Piscina {
  const key = `${limits.heapMb}/${limits.threads}`;
  let pool = pools.get(key);
  if (!pool) {
    pool = new Piscina({
      filename: workerUrl().href,
      minThreads: 0,
      maxThreads: limits.threads,
      idleTimeout: 60_000,
      resourceLimits: { maxOldGenerationSizeMb: limits.heapMb, maxYoungGenerationSizeMb: 16 },
    });
    // A thread that dies between tasks is replaced by the pool; there is no one else to tell.
    pool.on("error", () => {});
    pools.set(key, pool);
  }
  return pool;
}

export async function runInWorker<T extends TaskName>(
  task: T,
  input: TaskInput<T>,
  limits: WorkerLimits,
  transfer: ArrayBuffer[] = [],
): Promise<TaskOutput<T>> {
  try {
    return await poolFor(limits).run(
      { task, input },
      { signal: AbortSignal.timeout(limits.timeMs), transferList: transfer },
    );
  } catch (error) {
    if ((error as Error).name === "AbortError") throw new WorkerLimitError("time");
    if ((error as { code?: string }).code === "ERR_WORKER_OUT_OF_MEMORY") throw new WorkerLimitError("memory");
    throw error;
  }
}

/**
 * The worker's module. From the sources (tests, development) it is ./worker.ts, which Node runs
 * as it is; the build makes build/workers/parsing.js (scripts/build/workers.config.ts) beside
 * build/server and build/cli, whose bundles this module ends up in.
 */
function workerUrl(): URL {
  const here = import.meta.url;
  if (here.endsWith(".ts")) return new URL("./worker.ts", here);
  const build = /^(.*\/build)\/(?:server|cli)\//.exec(here);
  if (!build) throw new Error(`cannot find the parsing worker from ${here}`);
  return new URL(`${build[1]}/workers/parsing.js`);
}
