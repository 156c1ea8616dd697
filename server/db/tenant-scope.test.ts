import { describe, expect, it } from "vitest";
import { runAsOwner, runInTenantScope, scopeStatements } from "./tenant-scope.ts";

const ID = "7d9f3c1e-2b4a-4c6d-8e0f-1a2b3c4d5e6f";

describe("the statements that begin each transaction in its scope", () => {
  it("take the application's role and the institute, both for the transaction only", () => {
    expect(runInTenantScope(ID, () => scopeStatements())).toBe(
      `set local role pathshala_app; set local app.center_id to '${ID}'`,
    );
  });

  it("set an empty institute on the platform, or outside any scope", () => {
    expect(runInTenantScope(null, () => scopeStatements())).toBe(
      "set local role pathshala_app; set local app.center_id to ''",
    );
    expect(scopeStatements()).toBe("set local role pathshala_app; set local app.center_id to ''");
  });

  it("stay the login user as the owner, or when the role cannot be taken", () => {
    expect(runInTenantScope(ID, () => runAsOwner(() => scopeStatements()))).toBe(`set local app.center_id to '${ID}'`);
    expect(runInTenantScope(ID, () => scopeStatements(false))).toBe(`set local app.center_id to '${ID}'`);
  });

  it("accept only an institute's id in the SQL text", () => {
    expect(() => runInTenantScope("x'; reset role; --", () => scopeStatements())).toThrow(/Not an institute's id/);
  });
});
