import type { Database } from "../../server/db/types.ts";

/** Polls `check` until it holds; throws "timed out" after `timeoutMs`. */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 5000, everyMs = 20): Promise<void> {
  await waitForValue(async () => (await check()) || undefined, { timeoutMs, everyMs });
}

/** Polls `check` until it gives a value (not undefined, null or false) and returns that value. */
export async function waitForValue<T>(
  check: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  { timeoutMs = 5000, everyMs = 20, what }: { timeoutMs?: number; everyMs?: number; what?: string } = {},
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > until) throw new Error(what ? `timed out waiting for ${what}` : "timed out");
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/**
 * Resolves once every announcement already sent on `channel` has reached this instance. On
 * PostgreSQL they arrive asynchronously, so a late one (even an instance's echo of its own
 * change) can empty a cache mid-test; one channel delivers in commit order, so once a marker
 * sent now comes back, everything before it is in. "*" (a (re)connected listener) also settles.
 */
export function announcementsSettled(database: Pick<Database, "listen" | "notify">, channel: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const stop = database.listen(channel, (payload) => {
      if (payload !== SETTLED && payload !== "*") return;
      stop();
      resolve();
    });
    database.notify(channel, SETTLED).catch((error: unknown) => {
      stop();
      reject(error instanceof Error ? error : new Error(String(error)));
    });
  });
}

const SETTLED = "settled";
