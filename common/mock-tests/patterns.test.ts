import { describe, expect, it } from "vitest";
import { pickerSubject, sectionTakesSubject } from "./patterns.ts";

describe("a section's subject in the bank (issue 38 §6: the NEET builder ignored 'Biology')", () => {
  it("takes Biology questions into NEET's Botany and Zoology sections, and nothing of another subject", () => {
    expect(sectionTakesSubject("Botany", "Biology")).toBe(true);
    expect(sectionTakesSubject("Zoology", "biology")).toBe(true);
    expect(sectionTakesSubject("Botany", "Botany")).toBe(true);
    expect(sectionTakesSubject("Botany", "Chemistry")).toBe(false);
    expect(sectionTakesSubject("Physics", "Biology")).toBe(false);
    expect(sectionTakesSubject("", "Anything")).toBe(true);
  });

  it("starts a section's picker on its own subject, else on the bank's name for it, else on all subjects", () => {
    expect(pickerSubject("Botany", ["Biology", "Physics"])).toBe("Biology");
    expect(pickerSubject("Zoology", ["Zoology", "Biology"])).toBe("Zoology");
    expect(pickerSubject("Physics", ["physics"])).toBe("physics");
    expect(pickerSubject("Mathematics", ["Biology"])).toBe("");
  });
});
