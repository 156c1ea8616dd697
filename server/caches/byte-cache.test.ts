import { describe, expect, it } from "vitest";
import { byteBoundedCache } from "./byte-cache.ts";

describe("byteBoundedCache", () => {
  it("evicts the least recently used values past its byte budget, and keeps none larger than it", () => {
    const cache = byteBoundedCache<{ bytes: number; id: string }>(100);
    cache.set("a", { bytes: 40, id: "a" });
    cache.set("b", { bytes: 40, id: "b" });
    cache.get("a");
    cache.set("c", { bytes: 40, id: "c" });
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")?.id).toBe("a");
    expect(cache.calculatedSize).toBe(80);
    cache.set("huge", { bytes: 500, id: "huge" });
    expect(cache.get("huge")).toBeUndefined();
    expect(cache.size).toBe(2);
  });

  it("weighs a value that grew once it is deleted and set again", () => {
    const cache = byteBoundedCache<{ bytes: number }>(100);
    const page = { bytes: 30 };
    cache.set("page", page);
    page.bytes += 20;
    cache.delete("page");
    cache.set("page", page);
    expect(cache.calculatedSize).toBe(50);
    cache.set("other", { bytes: 60 });
    expect(cache.calculatedSize).toBe(60);
    expect(cache.get("page")).toBeUndefined();
  });
});
