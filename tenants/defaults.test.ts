import { describe, expect, it } from "vitest";
import { DEFAULT_PROGRAMS, defaultTagline, inWords, programFocus } from "./defaults";

describe("what an institute coaches for, in the templates' hero lines", () => {
  it("is the spec's JEE, NEET and Boards for the sample programs", () => {
    expect(programFocus(DEFAULT_PROGRAMS)).toEqual(["JEE", "NEET", "Boards"]);
    expect(defaultTagline("Sunrise Academy")).toBe(
      "Sunrise Academy: coaching for JEE, NEET and Boards that turns effort into results.",
    );
  });

  it("follows the institute's own programs: a word each, no repeats, at most four", () => {
    const programs = [
      "Olympiad Foundation",
      "JEE Main",
      "JEE Advanced",
      " NEET/AIIMS",
      "CUET",
      "Boards X",
      "Spoken English",
    ].map((name) => ({ name }));
    expect(programFocus(programs)).toEqual(["Olympiad", "JEE", "NEET", "CUET"]);
    expect(defaultTagline("Olympiad Point", [{ name: "Olympiad Foundation" }])).toBe(
      "Olympiad Point: coaching for Olympiad that turns effort into results.",
    );
  });

  it("reads as a list", () => {
    expect(inWords([])).toBe("");
    expect(inWords(["JEE"])).toBe("JEE");
    expect(inWords(["JEE", "NEET"])).toBe("JEE and NEET");
    expect(inWords(["JEE", "NEET", "Boards"])).toBe("JEE, NEET and Boards");
  });
});
