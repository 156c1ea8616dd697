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
        if (value instanceof Error) record[key] = { name: value.name, message: value.message, stack: value.stack };
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
