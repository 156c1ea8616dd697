import { sql } from "drizzle-orm";
import { attemptEvents } from "../../db/schema/index.ts";
import type { DbOrTx } from "../../db/types.ts";
import { HttpError } from "../../http/errors.ts";

/**
 * A sitting's event log (what the screen did, in server time: time per question comes from it) is
 * capped, so that no sitting can fill the database: at most `perSitting` entries in all and
 * `perMinute` in any minute. Answers are not events: a save is never refused for the log's sake
 * (once the log is full it is saved without an entry), and the exam screen drops an event the
 * server refuses rather than holding later answers behind it (app/lib/exam/save-queue.ts).
 * Nobody's screen comes near either figure: a 3-hour NEET sitting logs some two thousand entries.
 */
export const EVENT_LOG_LIMITS = { perSitting: 10_000, perMinute: 600 } as const;

export const EVENT_LOG_TEXTS = {
  full: "This attempt's activity log is full; your answers are still being saved",
  tooFast: "Too much activity for this attempt in one minute; your answers are still being saved",
} as const;

/**
 * Refuses `count` more entries when they do not fit: 413 when the sitting's log would pass its
 * total, 429 (with Retry-After) when the last minute's would. The caller holds the sitting's row
 * lock, so two requests of one sitting are decided one after the other.
 */
export async function checkRoomInLog(
  tx: DbOrTx,
  attempt: { id: string; loggedEvents: number },
  count: number,
  limits: { perSitting: number; perMinute: number } = EVENT_LOG_LIMITS,
): Promise<void> {
  if (attempt.loggedEvents + count > limits.perSitting) throw new HttpError(413, EVENT_LOG_TEXTS.full);
  // The newest entries by id are the newest in time (each is stamped now() as it is written), so
  // the last minute's are among the newest `perMinute`: an index range, however long the log.
  const { rows } = (await tx.execute(sql`
    select count(*)::int as recent,
      ceil(extract(epoch from (min(at) + interval '1 minute' - now())))::int as wait
    from (
      select ${attemptEvents.at} as at from ${attemptEvents}
      where ${attemptEvents.attemptId} = ${attempt.id}
      order by ${attemptEvents.id} desc
      limit ${limits.perMinute}
    ) newest
    where at > now() - interval '1 minute'`)) as unknown as { rows: { recent: number; wait: number | null }[] };
  const { recent, wait } = rows[0];
  if (recent + count > limits.perMinute) {
    const retryAfter = String(Math.max(1, wait ?? 60));
    throw new HttpError(
      429,
      EVENT_LOG_TEXTS.tooFast,
      { retryAfter: Number(retryAfter) },
      { "Retry-After": retryAfter },
    );
  }
}
