import { describe, expect, it } from "vitest";
import { readRows } from "./form-lists";

describe("readRows", () => {
  it("collects indexed rows in order and drops blank ones", () => {
    const form = new FormData();
    form.set("programs.1.name", "NEET UG");
    form.set("programs.0.name", "JEE");
    form.set("programs.0.description", "Two years");
    form.set("programs.2.name", " ");
    form.set("programs.2.description", "");
    form.set("other.0.name", "ignored");
    expect(readRows(form, "programs", ["name", "description"] as const)).toEqual([
      { name: "JEE", description: "Two years" },
      { name: "NEET UG", description: "" },
    ]);
  });
});
