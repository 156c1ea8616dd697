import { createRequire } from "node:module";
import pino from "pino";
import type { Env } from "./env.ts";

export type LogFields = Record<string, unknown>;

/** Where finished lines go: one JSON object per `write`, newline included. */
export interface LineDestination {
  write(line: string): void;
}

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
  return (
    typeof e === "object" &&
    e !== null &&
    typeof e.code === "string" &&
    SQL_STATE.test(e.code) &&
    typeof e.severity === "string"
  );
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
      for (const key of ["constraint", "table", "column", "routine"] as const)
        if (typeof database[key] === "string") fields[key] = database[key];
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

/** An error passed in a log call's fields as the log line shows it (describeError); anything else as it is. */
const errorField = (value: unknown) => (value instanceof Error ? describeError(value) : value);

/**
 * Standard output through pino's own asynchronous writer: lines queue while a write is under way
 * and go out together, and whatever is queued is written when the process exits. One for the
 * whole process.
 */
let stdout: LineDestination | undefined;
const standardOutput = () => (stdout ??= pino.destination({ dest: 1, sync: false }));

/**
 * LOG_FORMAT=pretty: pino-pretty, a development dependency (logs meant for a person at a
 * terminal); production images ship without it and log JSON.
 */
function prettyLines(to: LineDestination): LineDestination {
  let prettyFactory: (options: object) => (line: string) => string;
  try {
    ({ prettyFactory } = createRequire(import.meta.url)("pino-pretty") as { prettyFactory: typeof prettyFactory });
  } catch {
    throw new Error(
      "LOG_FORMAT=pretty needs the pino-pretty package (a development dependency): install it, or use LOG_FORMAT=json.",
    );
  }
  const prettify = prettyFactory({ colorize: false, translateTime: "HH:MM:ss.l", ignore: "pid,hostname" });
  return { write: (line) => to.write(prettify(line)) };
}

/** Adapts pino's (fields, message) calls to the app's (message, fields). */
function adapt(log: pino.Logger): Logger {
  return {
    debug: (msg, fields) => log.debug(fields ?? {}, msg),
    info: (msg, fields) => log.info(fields ?? {}, msg),
    warn: (msg, fields) => log.warn(fields ?? {}, msg),
    error: (msg, fields) => log.error(fields ?? {}, msg),
    child: (fields) => adapt(log.child(fields)),
  };
}

/**
 * Structured logs (pino): one JSON object per line with `time`, `level` (its name), `msg` and the
 * call's fields, or a readable line with LOG_FORMAT=pretty. An error under `error` or `err` is
 * spelled out by describeError, never as its bare message.
 */
export function createLogger(
  options: Pick<Env, "LOG_LEVEL" | "LOG_FORMAT">,
  base: LogFields = {},
  destination: LineDestination = standardOutput(),
): Logger {
  const pretty = options.LOG_FORMAT === "pretty";
  const log = pino(
    {
      level: options.LOG_LEVEL,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      serializers: { error: errorField, err: errorField },
      // pino-pretty names levels itself from their numbers.
      formatters: pretty ? {} : { level: (label) => ({ level: label }) },
    },
    pretty ? prettyLines(destination) : destination,
  );
  return adapt(Object.keys(base).length ? log.child(base) : log);
}
