import { describe, expect, it } from "vitest";
import { describeKey, editorField, formValuesOf, questionFromForm } from "./question-form";

function form(entries: [string, string][]) {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return data;
}

const options = (...values: string[]) => values.map((v) => ["option", v] as [string, string]);

describe("questionFromForm", () => {
  it("drops blank options and renumbers the answer to the options that remain", () => {
    const q = questionFromForm(
      form([
        ["type", "multiple"],
        ["text", "Pick $x$"],
        ...options("one", "", "three", "four", "", ""),
        ["answer", "2"],
        ["answer", "3"],
        ["subject", "Physics"],
        ["difficulty", "easy"],
      ]),
    );
    expect(q).toEqual({
      type: "multiple",
      text: "Pick $x$",
      options: ["one", "three", "four"],
      answer: [1, 2],
      tags: { subject: "Physics", difficulty: "easy" },
    });
  });

  it("reads a numerical range, a tolerance and a decimal rule; text that is not a number is passed on", () => {
    expect(
      questionFromForm(
        form([
          ["type", "numerical"],
          ["text", "g?"],
          ["numKind", "tolerance"],
          ["numValue", "9.8"],
          ["numTolerance", "0.05"],
          ["decimalPlaces", "2"],
          ["decimalMode", "truncate"],
        ]),
      ),
    ).toMatchObject({ answer: { value: 9.8, tolerance: 0.05 }, decimals: { places: 2, mode: "truncate" } });
    expect(
      questionFromForm(
        form([
          ["type", "numerical"],
          ["text", "x"],
          ["numKind", "range"],
          ["numMin", "2.25"],
          ["numMax", "abc"],
        ]),
      ).answer,
    ).toEqual({ min: 2.25, max: "abc" });
  });

  it("keeps Hindi options beside the English ones that remain", () => {
    const q = questionFromForm(
      form([
        ["type", "single"],
        ["text", "t"],
        ...options("a", "", "c", "", "", ""),
        ["answer", "0"],
        ["hindiText", "प्रश्न"],
        ["hindiOption", "क"],
        ["hindiOption", ""],
        ["hindiOption", "ग"],
      ]),
    );
    expect(q.hindi).toEqual({ text: "प्रश्न", options: ["क", "ग"] });
    expect(q.answer).toBe(0);
  });
});

describe("formValuesOf and describeKey", () => {
  it("round-trips a stored range key and writes keys as people read them", () => {
    const values = formValuesOf({ type: "numerical", text: "x", answer: { min: 1, max: 2 } });
    expect([values.numKind, values.numMin, values.numMax]).toEqual(["range", "1", "2"]);
    expect(describeKey("multiple", [0, 2])).toBe("A, C");
    expect(describeKey("numerical", { value: 9.8, tolerance: 0.05 })).toBe("9.8 ± 0.05");
    expect(describeKey("numerical", { min: 2.25, max: 2.35 })).toBe("2.25 to 2.35");
  });

  it("places the server's issues at the editor's fields", () => {
    expect(editorField("tags.subject", "Subject can be at most 100 characters")).toBe("subject");
    expect(editorField(undefined, "The answer must be the number of one of the options (0 for the first)")).toBe(
      "answer",
    );
    expect(editorField("text", "Question text is required")).toBe("text");
  });
});
