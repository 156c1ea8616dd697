import { describe, expect, it } from "vitest";
import { stageTable } from "./stage-table.ts";

describe("the test run's stage table", () => {
  it("shows each stage's seconds, outcome and counts, and the wall time", () => {
    const table = stageTable(
      [
        { name: "npm ci", seconds: 61, ok: true },
        { name: "unit", seconds: 95, ok: true, tests: { passed: 583, failed: 0, skipped: 1, files: 70 } },
        { name: "e2e", seconds: 420, ok: false, tests: { passed: 120, failed: 2, skipped: 0 } },
        { name: "faults (PostgreSQL)", seconds: 0, ok: false, skipped: "build failed" },
      ],
      600,
    );
    const lines = table.trim().split("\n");
    expect(lines[0]).toMatch(/^stage\s+seconds\s+outcome\s+passed\s+failed\s+skipped\s+files$/);
    expect(lines[2]).toMatch(/^npm ci\s+61\s+passed\s*$/);
    expect(lines[3]).toMatch(/^unit\s+95\s+passed\s+583\s+0\s+1\s+70$/);
    expect(lines[4]).toMatch(/^e2e\s+420\s+FAILED\s+120\s+2\s+0\s*$/);
    expect(lines[5]).toMatch(/^faults \(PostgreSQL\)\s+-\s+not run \(build failed\)/);
    expect(lines.at(-1)).toBe("wall time 600s");
  });
});
