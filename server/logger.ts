import type { Env } from "./env.ts";

type Level = "debug" | "info" | "warn" | "error";
const RANK: Record<Level | "silent", number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

export type LogFields = Record<string, unknown>;

/** Takes one finished line (no newline); `urgent` lines (warnings, errors) must not wait. */
export type LineWriter = (line: string, urgent: boolean) => void;

/**
 * Standard output, in batches: the lines of one turn of the event loop go out in one write, so a
 * busy server makes one system call per turn instead of one per request. Warnings and errors
 * flush at once, and whatever is pending is written when the process exits (writes to stdout are
 * synchronous on Linux, so the exit handler's write completes).
 */
export function batchedLines(out: { write(text: string): unknown } = process.stdout, maxPendingChars = 64 * 1024): LineWriter & { flush(): void } {
  let pending = "";
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (!pending) return;
    const text = pending;
    pending = "";
    out.write(text);
  };
  const writer = (line: string, urgent: boolean) => {
    pending += `${line}\n`;
    if (urgent || pending.length >= maxPendingChars) flush();
    else if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
  return Object.assign(writer, { flush });
}

const stdoutLines = batchedLines();
process.once("exit", stdoutLines.flush);

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

/** What a database's error says that names no value: the SQL state and the names of what refused. */
interface DatabaseErrorFields {
  code?: unknown;
  severity?: unknown;
  constraint?: unknown;
  table?: unknown;
  column?: unknown;
  routine?: unknown;
}

/** The statement of a failed query (drizzle's error), whose message would list its bound values. */
interface FailedQuery {
  query?: unknown;
  params?: unknown;
}

const SQL_STATE = /^[0-9A-Z]{5}$/;

function isDatabaseError(error: unknown): error is DatabaseErrorFields {
  const e = error as DatabaseErrorFields | null;
  return typeof e === "object" && e !== null && typeof e.code === "string" && SQL_STATE.test(e.code) && typeof e.severity === "string";
}

function isFailedQuery(error: unknown): error is FailedQuery & Error {
  return error instanceof Error && typeof (error as FailedQuery).query === "string" && "params" in error;
}

/** The stack's frames without its first lines, which repeat the message. */
function framesOf(error: Error): string | undefined {
  return error.stack
    ?.split("\n")
    .filter((line) => /^\s+at /.test(line))
    .join("\n");
}

/**
 * An error as a log line shows it. A failed query is named by its SQL state, its statement (with
 * placeholders) and the constraint, table and column that refused it: never its bound values or
 * the database's message and detail, which quote them (a password hash, an e-mail address).
 */
export function describeError(error: unknown, depth = 0): LogFields {
  if (isFailedQuery(error) || isDatabaseError(error)) {
    const query = isFailedQuery(error) ? error : undefined;
    const cause = query ? (error as Error).cause : error;
    const database = isDatabaseError(cause) ? cause : undefined;
    const fields: LogFields = { name: query ? "QueryError" : "DatabaseError" };
    if (database) {
      fields.sqlState = database.code;
      for (const key of ["constraint", "table", "column", "routine"] as const) if (typeof database[key] === "string") fields[key] = database[key];
    }
    const statement = query?.query ?? (error as FailedQuery).query;
    if (typeof statement === "string") fields.statement = statement;
    if (error instanceof Error) fields.stack = framesOf(error);
    if (!database && cause !== undefined && depth < 3) fields.cause = describeError(cause, depth + 1);
    return fields;
  }
  if (!(error instanceof Error)) return { name: typeof error, message: String(error).slice(0, 200) };
  const fields: LogFields = { name: error.name, message: error.message, stack: error.stack };
  if (error.cause !== undefined && depth < 3) fields.cause = describeError(error.cause, depth + 1);
  return fields;
}

/** Structured logs: one JSON object per line (or a readable line with LOG_FORMAT=pretty). */
export function createLogger(
  options: Pick<Env, "LOG_LEVEL" | "LOG_FORMAT">,
  base: LogFields = {},
  write: LineWriter = stdoutLines,
): Logger {
  const min = RANK[options.LOG_LEVEL];
  const emit = (level: Level, msg: string, fields?: LogFields) => {
    if (RANK[level] < min) return;
    const record: LogFields = { time: new Date().toISOString(), level, msg, ...base, ...fields };
    // Errors (which JSON.stringify would print as {}) arrive in the call's own fields.
    if (fields) {
      for (const key in fields) {
        const value = fields[key];
        if (value instanceof Error) record[key] = describeError(value);
      }
    }
    const urgent = RANK[level] >= RANK.warn;
    if (options.LOG_FORMAT === "pretty") {
      const { time, level: l, msg: m, ...rest } = record;
      const extra = Object.keys(rest).length ? ` ${JSON.stringify(rest)}` : "";
      write(`${String(time).slice(11, 23)} ${String(l).toUpperCase().padEnd(5)} ${m}${extra}`, urgent);
    } else {
      write(JSON.stringify(record), urgent);
    }
  };
  return {
    debug: (msg, fields) => emit("debug", msg, fields),
    info: (msg, fields) => emit("info", msg, fields),
    warn: (msg, fields) => emit("warn", msg, fields),
    error: (msg, fields) => emit("error", msg, fields),
    child: (fields) => createLogger(options, { ...base, ...fields }, write),
  };
}
