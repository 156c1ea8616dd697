import { describe, expect, it } from "vitest";
import { Lru } from "./lru.ts";

describe("Lru", () => {
  it("evicts the least recently used entry past capacity", () => {
    const lru = new Lru<string, number>(2);
    lru.set("a", 1);
    lru.set("b", 2);
    expect(lru.get("a")).toBe(1);
    lru.set("c", 3);
    expect(lru.get("b")).toBeUndefined();
    expect(lru.get("a")).toBe(1);
    expect(lru.get("c")).toBe(3);
    expect(lru.size).toBe(2);
  });

  it("gives a used entry a second chance and drops the unused one, without reordering on hits", () => {
    const lru = new Lru<string, number>(3);
    lru.set("a", 1);
    lru.set("b", 2);
    lru.set("c", 3);
    // Many hits on a and c: b is the one nobody asked for.
    for (let i = 0; i < 5; i++) {
      lru.get("a");
      lru.get("c");
    }
    lru.set("d", 4);
    expect(lru.get("b")).toBeUndefined();
    expect([lru.get("a"), lru.get("c"), lru.get("d")]).toEqual([1, 3, 4]);
    // a's second chance is spent once it is passed over: unused since, it goes next.
    lru.set("e", 5);
    lru.set("f", 6);
    expect(lru.size).toBe(3);
  });
});
