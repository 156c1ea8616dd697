import { runInTenantScope } from "../db/tenant-scope.ts";

/**
 * Runs `task` every `everyMs` (and at once with `immediately`) on the platform's scope (each
 * institute's own work sets its own), whatever started the timer, never two runs at once: a slow
 * run makes the next tick skip. The timer does not keep the process alive. Returns the stop.
 */
export function repeat(
  task: () => Promise<unknown>,
  everyMs: number,
  onError: (error: unknown) => void,
  { immediately = false } = {},
): () => void {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      await task();
    } catch (error) {
      onError(error);
    } finally {
      running = false;
    }
  };
  const run = () => runInTenantScope(null, tick);
  if (immediately) void run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
