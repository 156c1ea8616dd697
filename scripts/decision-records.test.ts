import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/** Every decision record follows docs/decisions/template.md: a numbered title, Date, Status, three sections. */
const folder = new URL("../docs/decisions/", import.meta.url);
const records = readdirSync(folder).filter((name) => /^\d{4}-.+\.md$/.test(name));

describe("decision records", () => {
  it("exist", () => {
    expect(records.length).toBeGreaterThan(0);
  });

  it.each(records)("%s has its number, a Date, a Status and the template's sections", (name) => {
    const lines = readFileSync(new URL(name, folder), "utf8").split("\n");
    expect(lines[0]).toMatch(new RegExp(`^# ${Number(name.slice(0, 4))}\\. \\S`));
    expect(lines[2]).toMatch(/^Date: \d{4}-\d{2}-\d{2}$/);
    expect(lines[3]).toMatch(
      /^Status: (accepted|proposed|superseded by \[\d{4}\]\(\d{4}-[^)]+\.md\) on \d{4}-\d{2}-\d{2})/,
    );
    const sections = lines.filter((line) => line.startsWith("## "));
    expect(sections.slice(0, 3)).toEqual(["## Context", "## Decision", "## Consequences"]);
  });
});
