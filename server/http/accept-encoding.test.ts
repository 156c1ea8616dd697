import { describe, expect, it } from "vitest";
import { encodingChooser } from "./accept-encoding.ts";

describe("encodingChooser", () => {
  const choose = encodingChooser(["br", "gzip"] as const);

  it("takes the first offered a plain list names, whole names only", () => {
    expect(choose("gzip, deflate, br, zstd")).toBe("br");
    expect(choose("gzip,deflate")).toBe("gzip");
    expect(choose("GZIP")).toBe("gzip");
    expect(choose("brotli, xgzip")).toBeUndefined();
    expect(choose("identity")).toBeUndefined();
    expect(choose("")).toBeUndefined();
    expect(choose(undefined)).toBeUndefined();
  });

  it("weighs q-values, refuses q=0 and lets * stand for the rest", () => {
    expect(choose("br;q=0, gzip")).toBe("gzip");
    expect(choose("br;q=0.5, gzip;q=0.8")).toBe("gzip");
    expect(choose("br;q=0.8, gzip;q=0.8")).toBe("br");
    expect(choose("gzip;q=0, br;q=0")).toBeUndefined();
    expect(choose("*")).toBe("br");
    expect(choose("*;q=0.3, br;q=0")).toBe("gzip");
    expect(choose("identity;q=1, *;q=0")).toBeUndefined();
    expect(choose("br;q=abc, gzip")).toBe("gzip");
  });
});
