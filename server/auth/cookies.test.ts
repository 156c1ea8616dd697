import { describe, expect, it } from "vitest";
import { readCookie, readSessionToken } from "./cookies.ts";

describe("readCookie", () => {
  it("reads and %-decodes the named cookie", () => {
    expect(readCookie("a=1; pathshala_theme=dark%20mode; b=2", "pathshala_theme")).toBe("dark mode");
    expect(readCookie("a=1", "pathshala_theme")).toBeUndefined();
    expect(readCookie(undefined, "a")).toBeUndefined();
  });

  it("treats malformed %-encoding, and text that cannot be stored, as absent", () => {
    expect(readCookie("pathshala_session=%E0%A4%A", "pathshala_session")).toBeUndefined();
    expect(readCookie("pathshala_session=%", "pathshala_session")).toBeUndefined();
    expect(readCookie("pathshala_session=a%00b", "pathshala_session")).toBeUndefined();
    expect(readSessionToken("other=%ZZ; pathshala_session=tok%2Den", false)).toBe("tok-en");
  });
});
