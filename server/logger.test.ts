import { describe, expect, it } from "vitest";
import { batchedLines, createLogger, describeError } from "./logger.ts";

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

function recorder() {
  const writes: string[] = [];
  return { writes, out: { write: (text: string) => writes.push(text) } };
}

describe("batchedLines", () => {
  it("writes the lines of one turn of the event loop together, in order", async () => {
    const { writes, out } = recorder();
    const write = batchedLines(out);
    write("one", false);
    write("two", false);
    expect(writes).toEqual([]);
    await nextTurn();
    expect(writes).toEqual(["one\ntwo\n"]);
    write("three", false);
    await nextTurn();
    expect(writes).toEqual(["one\ntwo\n", "three\n"]);
  });

  it("writes warnings and errors at once, after what was pending", () => {
    const { writes, out } = recorder();
    const write = batchedLines(out);
    write("request", false);
    write("boom", true);
    expect(writes).toEqual(["request\nboom\n"]);
  });

  it("does not hold more than its limit", () => {
    const { writes, out } = recorder();
    const write = batchedLines(out, 10);
    write("0123456789", false);
    expect(writes).toEqual(["0123456789\n"]);
  });

  it("writes what is pending on flush (the process's exit)", () => {
    const { writes, out } = recorder();
    const write = batchedLines(out);
    write("last words", false);
    write.flush();
    expect(writes).toEqual(["last words\n"]);
    write.flush();
    expect(writes).toHaveLength(1);
  });
});

describe("createLogger", () => {
  it("prints one JSON object per line with the child's fields and errors spelled out", () => {
    const lines: [string, boolean][] = [];
    const logger = createLogger({ LOG_LEVEL: "info", LOG_FORMAT: "json" }, {}, (line, urgent) => lines.push([line, urgent]));
    const child = logger.child({ requestId: "r1" });
    child.debug("hidden");
    child.info("request", { status: 200 });
    child.error("failed", { error: new Error("disk full") });
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0][0])).toMatchObject({ level: "info", msg: "request", requestId: "r1", status: 200 });
    expect(lines[0][1]).toBe(false);
    expect(JSON.parse(lines[1][0])).toMatchObject({ level: "error", msg: "failed", requestId: "r1", error: { name: "Error", message: "disk full" } });
    expect(lines[1][1]).toBe(true);
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
    expect(described).toMatchObject({ name: "Error", message: "could not save", cause: { name: "DatabaseError", sqlState: "22P02", table: "users", routine: "string_to_uuid" } });
    expect(JSON.stringify(described)).not.toContain("ravi@example.com");
  });
});
