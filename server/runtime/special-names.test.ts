import { describe, expect, it } from "vitest";
import { isRealPlatformDomain, isSpecialUseName } from "./special-names.ts";

describe("special-use names", () => {
  it("are the names nobody can register: localhost, .test, .example, .invalid, .local", () => {
    for (const name of ["localhost", "demo-t1.localhost", "acme.test", "a.b.example", "x.invalid", "printer.local"])
      expect(isSpecialUseName(name), name).toBe(true);
    for (const name of ["pathshala.in", "example.com", "test.com", "localhost.in", "mytest", "local.host.org"])
      expect(isSpecialUseName(name), name).toBe(false);
  });

  it("tell a laptop's platform domain from a real deployment's", () => {
    for (const domain of ["", "localhost", "pathshala.test", "demo.localhost"])
      expect(isRealPlatformDomain(domain), domain).toBe(false);
    for (const domain of ["pathshala.in", "app.pathshala.co.in"])
      expect(isRealPlatformDomain(domain), domain).toBe(true);
  });
});
