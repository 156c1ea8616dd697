const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
  "08000",
  "08003",
  "08006",
]);

/** True when the database could not be reached (as opposed to a query being wrong). */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const err = e as { code?: string; message?: string };
    if (err.code && CONNECTION_CODES.has(err.code)) return true;
    if (
      typeof err.message === "string" &&
      /timeout exceeded when trying to connect|Connection terminated|connect ECONNREFUSED/i.test(err.message)
    ) {
      return true;
    }
  }
  return false;
}

/** True when a unique index refused the write (Postgres 23505), however the driver wrapped it. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const err = e as { code?: string; constraint?: string; constraint_name?: string; message?: string };
    if (err.code === "23505") {
      if (!constraint) return true;
      const name = err.constraint ?? err.constraint_name ?? "";
      return name === constraint || (typeof err.message === "string" && err.message.includes(constraint));
    }
  }
  return false;
}
