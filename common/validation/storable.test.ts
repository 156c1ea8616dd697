import { describe, expect, it } from "vitest";
import * as v from "valibot";
import { findUnstorable, isStorableText, parseInput } from "./storable.ts";
import { text } from "./account.ts";

describe("isStorableText", () => {
  it("refuses U+0000 and unpaired surrogates, keeps everything else", () => {
    for (const bad of ["\u0000", "a\u0000b", "\uD800", "a\uD800b", "\uDC00", "x\uDC00", "\uD83D", "\uDE00\uD83D"])
      expect(isStorableText(bad), JSON.stringify(bad)).toBe(false);
    for (const good of [
      "",
      "plain",
      "naïve",
      "हिन्दी",
      "🧪📚",
      "\uD83D\uDE00",
      "tab\tnew\nline",
      "\u0001",
      "%00",
      "\\u0000",
    ])
      expect(isStorableText(good), JSON.stringify(good)).toBe(true);
  });
});

describe("findUnstorable", () => {
  it("gives the path of the first bad string, in values and keys, inside objects and arrays", () => {
    expect(findUnstorable({ a: "ok", b: ["ok", { c: "x\u0000" }] })).toEqual(["b", 1, "c"]);
    expect(findUnstorable({ ["k\uD800"]: 1 })).toEqual(["k\uD800"]);
    expect(findUnstorable("\u0000")).toEqual([]);
    expect(findUnstorable({ a: 1, b: null, c: true, d: new Date(0), e: ["fine"] })).toBeNull();
  });
});

describe("parseInput", () => {
  const Schema = v.object({
    name: text("Full name is required"),
    note: v.optional(v.string()),
    code: text("Please give the code", "The code"),
  });

  it("names the field with the label text() knows", () => {
    expect(parseInput(Schema, { name: "A\u0000" })).toEqual({
      success: false,
      issues: [{ field: "name", message: "Full name contains characters that cannot be stored." }],
    });
    expect(parseInput(Schema, { name: "A", code: "\uDC00" })).toEqual({
      success: false,
      issues: [{ field: "code", message: "The code contains characters that cannot be stored." }],
    });
  });

  it("refuses what no field rule looked at by its path in the result", () => {
    expect(parseInput(Schema, { name: "A", note: "x\u0000" })).toEqual({
      success: false,
      issues: [{ field: "note", message: "note contains characters that cannot be stored." }],
    });
    expect(parseInput(v.unknown(), "\u0000")).toEqual({
      success: false,
      issues: [{ field: undefined, message: "The input contains characters that cannot be stored." }],
    });
  });

  it("passes good input through", () => {
    expect(parseInput(Schema, { name: "Asha 🧪" })).toEqual({ success: true, output: { name: "Asha 🧪", code: "" } });
  });
});
