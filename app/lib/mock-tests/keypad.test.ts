import { describe, expect, it } from "vitest";
import { applyKey, sanitizeNumeric, type KeypadKey } from "./keypad";

const press = (...keys: KeypadKey[]) => keys.reduce(applyKey, "");

describe("the numeric keypad", () => {
  it("types digits, one point and a leading minus", () => {
    expect(press("-", "1", "2", ".", "5")).toBe("-12.5");
    expect(press("1", ".", "2", ".", "3")).toBe("1.23");
    expect(press("4", "-", "2")).toBe("42");
    expect(press("-", "-", "3")).toBe("-3");
  });

  it("deletes one character with Backspace and all with Clear All", () => {
    expect(press("9", ".", "8", "backspace")).toBe("9.");
    expect(press("backspace")).toBe("");
    expect(press("1", "2", "clear")).toBe("");
  });

  it("stops at 15 characters", () => {
    expect(press(...(Array(20).fill("7") as KeypadKey[])).length).toBe(15);
  });

  it("keeps typed text within the same rules", () => {
    expect(sanitizeNumeric("\u22121,5 m")).toBe("-15");
    expect(sanitizeNumeric("3.14.15")).toBe("3.1415");
    expect(sanitizeNumeric("2-1")).toBe("21");
  });
});
