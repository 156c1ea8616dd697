import { describe, expect, it } from "vitest";
import { createLogger, describeError } from "./logger.ts";

function recorder() {
  const lines: string[] = [];
  return { lines, destination: { write: (line: string) => lines.push(line) } };
}

describe("createLogger", () => {
  it("prints one JSON object per line with the child's fields and errors spelled out", () => {
    const { lines, destination } = recorder();
    const logger = createLogger({ LOG_LEVEL: "info", LOG_FORMAT: "json" }, { component: "test" }, destination);
    const child = logger.child({ requestId: "r1" });
    child.debug("hidden");
    child.info("request", { status: 200 });
    child.error("failed", { error: new Error("disk full") });
    child.warn("gave up", { error: "a plain reason" });
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(line.endsWith("}\n") && !line.slice(0, -1).includes("\n")).toBe(true);
    const [request, failed, gaveUp] = lines.map((line) => JSON.parse(line));
    expect(request).toMatchObject({ level: "info", msg: "request", component: "test", requestId: "r1", status: 200 });
    expect(new Date(request.time).toISOString()).toBe(request.time);
    expect(failed).toMatchObject({
      level: "error",
      msg: "failed",
      requestId: "r1",
      error: { name: "Error", message: "disk full", stack: expect.stringContaining("logger.test.ts") },
    });
    expect(gaveUp).toMatchObject({ level: "warn", error: "a plain reason" });
  });

  it("prints nothing below its level, and nothing at all when silent", () => {
    const warnings = recorder();
    createLogger({ LOG_LEVEL: "warn", LOG_FORMAT: "json" }, {}, warnings.destination).info("request");
    expect(warnings.lines).toEqual([]);
    const silent = recorder();
    createLogger({ LOG_LEVEL: "silent", LOG_FORMAT: "json" }, {}, silent.destination).error("boom");
    expect(silent.lines).toEqual([]);
  });

  it("prints readable lines with LOG_FORMAT=pretty", () => {
    const { lines, destination } = recorder();
    createLogger({ LOG_LEVEL: "info", LOG_FORMAT: "pretty" }, {}, destination).warn("slow query", { ms: 812 });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: slow query\n\s+ms: 812\n$/);
  });

  it("describes a database error wrapped in a plain error without its message, detail or values", () => {
    // node-postgres's DatabaseError, as a service might rethrow it with a cause.
    const database = Object.assign(new Error('invalid input syntax for type uuid: "ravi@example.com"'), {
      severity: "ERROR",
      code: "22P02",
      detail: "Key (email)=(ravi@example.com) already exists.",
      table: "users",
      routine: "string_to_uuid",
    });
    const described = describeError(new Error("could not save", { cause: database }));
    expect(described).toMatchObject({
      name: "Error",
      message: "could not save",
      cause: { name: "DatabaseError", sqlState: "22P02", table: "users", routine: "string_to_uuid" },
    });
    expect(JSON.stringify(described)).not.toContain("ravi@example.com");
  });

  it("logs a failed query by its statement and SQL state, not its bound values", () => {
    const { lines, destination } = recorder();
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "users_email_key"'), {
      severity: "ERROR",
      code: "23505",
      detail: "Key (email)=(ravi@example.com) already exists.",
      constraint: "users_email_key",
    });
    const failed = Object.assign(
      new Error("Failed query: insert into users … params: ravi@example.com,$argon2id$secret", { cause }),
      {
        query: 'insert into "users" ("email", "password_hash") values ($1, $2)',
        params: ["ravi@example.com", "$argon2id$secret"],
      },
    );
    createLogger({ LOG_LEVEL: "info", LOG_FORMAT: "json" }, {}, destination).error("unhandled error", {
      error: failed,
    });
    expect(JSON.parse(lines[0]).error).toMatchObject({
      name: "QueryError",
      sqlState: "23505",
      constraint: "users_email_key",
      statement: 'insert into "users" ("email", "password_hash") values ($1, $2)',
    });
    expect(lines[0]).not.toContain("ravi@example.com");
    expect(lines[0]).not.toContain("secret");
  });
});
