import { describe, expect, it } from "vitest";
import { parseRange } from "./range.ts";

describe("parseRange", () => {
  it("reads first bytes, a middle slice, an open end and a suffix", () => {
    expect(parseRange("bytes=0-99", 1000)).toEqual({ kind: "range", range: { start: 0, end: 99 } });
    expect(parseRange("bytes=500-599", 1000)).toEqual({ kind: "range", range: { start: 500, end: 599 } });
    expect(parseRange("bytes=900-", 1000)).toEqual({ kind: "range", range: { start: 900, end: 999 } });
    expect(parseRange("bytes=-100", 1000)).toEqual({ kind: "range", range: { start: 900, end: 999 } });
  });

  it("clamps an end past the object and a suffix longer than it", () => {
    expect(parseRange("bytes=990-5000", 1000)).toEqual({ kind: "range", range: { start: 990, end: 999 } });
    expect(parseRange("bytes=-5000", 1000)).toEqual({ kind: "range", range: { start: 0, end: 999 } });
  });

  it("calls a range starting past the end unsatisfiable", () => {
    expect(parseRange("bytes=1000-", 1000)).toEqual({ kind: "unsatisfiable" });
    expect(parseRange("bytes=2000-3000", 1000)).toEqual({ kind: "unsatisfiable" });
    expect(parseRange("bytes=-0", 1000)).toEqual({ kind: "unsatisfiable" });
    expect(parseRange("bytes=0-", 0)).toEqual({ kind: "unsatisfiable" });
  });

  it("ignores what it cannot serve as one range", () => {
    expect(parseRange(null, 1000)).toEqual({ kind: "none" });
    expect(parseRange("items=0-5", 1000)).toEqual({ kind: "none" });
    expect(parseRange("bytes=0-5,10-20", 1000)).toEqual({ kind: "none" });
    expect(parseRange("bytes=9-3", 1000)).toEqual({ kind: "none" });
    expect(parseRange("bytes=-", 1000)).toEqual({ kind: "none" });
  });
});
