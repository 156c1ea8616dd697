import { describe, expect, it } from "vitest";
import { ByteLru } from "./byte-lru.ts";

describe("ByteLru", () => {
  it("evicts least recently used entries past its byte budget", () => {
    const lru = new ByteLru<{ bytes: number; id: string }>(100);
    lru.set("a", { bytes: 40, id: "a" });
    lru.set("b", { bytes: 40, id: "b" });
    lru.get("a");
    lru.set("c", { bytes: 40, id: "c" });
    expect(lru.get("b")).toBeUndefined();
    expect(lru.get("a")?.id).toBe("a");
    expect(lru.bytes).toBe(80);
    lru.set("huge", { bytes: 500, id: "huge" });
    expect(lru.get("huge")).toBeUndefined();
    expect(lru.size).toBe(2);
  });

  it("keeps the pages visitors ask for and drops the ones they don't", () => {
    const lru = new ByteLru<{ bytes: number; id: string }>(100);
    for (const id of ["a", "b", "c", "d"]) lru.set(id, { bytes: 25, id });
    lru.get("a");
    lru.get("c");
    lru.set("e", { bytes: 25, id: "e" });
    lru.set("f", { bytes: 25, id: "f" });
    expect(lru.get("b")).toBeUndefined();
    expect(lru.get("d")).toBeUndefined();
    expect(["a", "c", "e", "f"].map((id) => lru.get(id)?.id)).toEqual(["a", "c", "e", "f"]);
    expect(lru.bytes).toBe(100);
  });

  it("accounts for an entry that grew when it is stored again", () => {
    const lru = new ByteLru<{ bytes: number }>(100);
    const page = { bytes: 30 };
    lru.set("page", page);
    // A compressed copy joins the page: the cache is told by storing it again.
    page.bytes += 20;
    lru.set("page", page);
    expect(lru.bytes).toBe(50);
    lru.set("other", { bytes: 60 });
    expect(lru.bytes).toBe(60);
    expect(lru.get("page")).toBeUndefined();
  });
});
