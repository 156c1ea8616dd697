import { describe, expect, it } from "vitest";
import { isReservedLabel, slugify } from "./center-slugs.ts";

describe("slugify", () => {
  it("makes a DNS label from an institute's name", () => {
    expect(slugify("Sunrise Academy (Kolkata)")).toBe("sunrise-academy-kolkata");
    expect(slugify("Vidya JEE & NEET Classes")).toBe("vidya-jee-and-neet-classes");
    expect(slugify("  Ëlite   Tutors!! ")).toBe("elite-tutors");
    expect(slugify("विद्या")).toBe("");
    expect(slugify("a".repeat(80))).toHaveLength(40);
    expect(slugify(`${"a".repeat(39)} b`)).toBe("a".repeat(39));
  });

  it("keeps platform-looking labels for the platform", () => {
    for (const label of [
      "login",
      "accounts",
      "account",
      "billing",
      "auth",
      "pay",
      "payments",
      "signin",
      "signup",
      "secure",
      "verify",
      "id",
      "sso",
      "my",
      "portal",
      "www",
      "admin",
      "pathshala",
    ]) {
      expect(isReservedLabel(label), label).toBe(true);
      expect(isReservedLabel(slugify(label.toUpperCase())), label).toBe(true);
    }
    expect(isReservedLabel("login-academy")).toBe(false);
  });
});
