import type { Env } from "./env.ts";

type Level = "debug" | "info" | "warn" | "error";
const RANK: Record<Level | "silent", number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

/** Structured logs: one JSON object per line (or a readable line with LOG_FORMAT=pretty). */
export function createLogger(
  options: Pick<Env, "LOG_LEVEL" | "LOG_FORMAT">,
  base: LogFields = {},
  write: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Logger {
  const min = RANK[options.LOG_LEVEL];
  const emit = (level: Level, msg: string, fields?: LogFields) => {
    if (RANK[level] < min) return;
    const record: LogFields = { time: new Date().toISOString(), level, msg, ...base, ...fields };
    for (const [key, value] of Object.entries(record)) {
      if (value instanceof Error) record[key] = { name: value.name, message: value.message, stack: value.stack };
    }
    if (options.LOG_FORMAT === "pretty") {
      const { time, level: l, msg: m, ...rest } = record;
      const extra = Object.keys(rest).length ? ` ${JSON.stringify(rest)}` : "";
      write(`${String(time).slice(11, 23)} ${String(l).toUpperCase().padEnd(5)} ${m}${extra}`);
    } else {
      write(JSON.stringify(record));
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
