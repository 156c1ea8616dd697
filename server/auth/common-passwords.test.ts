import { describe, expect, it } from "vitest";
import { isCommonPassword } from "./common-passwords.ts";

describe("isCommonPassword", () => {
  it("refuses the breach-list favourites and their decorated forms", () => {
    for (const p of [
      "password",
      "Password1",
      "12345678",
      "qwerty123",
      "iloveyou",
      "password2025!",
      "aaaaaaaa",
      "23456789",
      "98765432",
    ]) {
      expect(isCommonPassword(p), p).toBe(true);
    }
  });
  it("accepts passwords that are not on it", () => {
    for (const p of ["tangerine-kettle-42", "Sunrise Academy 2025", "demo-business-2025", "13572468"]) {
      expect(isCommonPassword(p), p).toBe(false);
    }
  });
});
