import { Worker } from "node:worker_threads";
import type { TaskInput, TaskName, TaskOutput } from "./worker.ts";

/**
 * Runs one parsing task (./worker.ts) on a worker thread of its own, with a ceiling on its
 * JavaScript heap and on its time (decision 0031). What an uploaded file makes a library do is
 * then bounded whatever the library does: past the heap limit the worker is ended by V8, past the
 * time limit by us, and the server's own thread never waits on the parse. Limits checked inside
 * the task (./zip-check.ts, ./pdf-check.ts) refuse most bad files before these are reached, with
 * a clearer reason; these are what is left when a library finds a way the checks did not foresee.
 */

export interface WorkerLimits {
  /** Milliseconds from the start of the worker until it is ended. */
  timeMs: number;
  /** The worker's old-generation heap, in MiB (its ArrayBuffers are not counted: the checks bound those). */
  heapMb: number;
}

/** The task ran out of time or memory. */
export class WorkerLimitError extends Error {
  readonly limit: "time" | "memory";
  constructor(limit: "time" | "memory") {
    super(limit === "time" ? "the parse ran out of time" : "the parse ran out of memory");
    this.limit = limit;
  }
}

export function runInWorker<T extends TaskName>(
  task: T,
  input: TaskInput<T>,
  limits: WorkerLimits,
  transfer: ArrayBuffer[] = [],
): Promise<TaskOutput<T>> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerUrl(), {
      workerData: { task, input },
      transferList: transfer,
      resourceLimits: { maxOldGenerationSizeMb: limits.heapMb, maxYoungGenerationSizeMb: 16 },
      // Its answer is its message; what a library prints there (pdf-lib warns once per broken
      // object, and a crafted file can have a million) is read and dropped, never kept.
      stdout: true,
      stderr: true,
    });
    worker.stdout.resume();
    worker.stderr.resume();
    let settled = false;
    const settle = (done: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      done();
      void worker.terminate();
    };
    const timer = setTimeout(() => settle(() => reject(new WorkerLimitError("time"))), limits.timeMs);
    worker.on("message", (output: TaskOutput<T>) => settle(() => resolve(output)));
    worker.on("error", (error: Error & { code?: string }) =>
      settle(() => reject(error.code === "ERR_WORKER_OUT_OF_MEMORY" ? new WorkerLimitError("memory") : error)),
    );
    worker.on("exit", () => settle(() => reject(new Error("the parsing worker stopped without an answer"))));
  });
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
