import { describe, expect, it } from "vitest";
import { ConcurrencyLimit } from "./concurrency-limit.ts";

describe("ConcurrencyLimit", () => {
  it("runs at most its slots at once, the rest in the order they came", async () => {
    const limit = new ConcurrencyLimit(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const gates = Array.from({ length: 5 }, () => Promise.withResolvers<void>());
    const tasks = gates.map((gate, i) =>
      limit.run(async () => {
        started.push(i);
        most = Math.max(most, ++running);
        await gate.promise;
        running--;
        return i;
      }),
    );
    await new Promise((r) => setTimeout(r, 0));
    expect(started).toEqual([0, 1]);
    expect(limit.queued).toBe(3);
    gates[1].resolve();
    await new Promise((r) => setTimeout(r, 0));
    expect(started).toEqual([0, 1, 2]);
    for (const gate of gates) gate.resolve();
    expect(await Promise.all(tasks)).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4]);
  });

  it("frees the slot of a task that failed", async () => {
    const limit = new ConcurrencyLimit(1);
    await expect(limit.run(async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await limit.run(async () => "next")).toBe("next");
  });

  it("refuses a limit that is not a positive whole number", () => {
    expect(() => new ConcurrencyLimit(0)).toThrow();
    expect(() => new ConcurrencyLimit(1.5)).toThrow();
  });
});
