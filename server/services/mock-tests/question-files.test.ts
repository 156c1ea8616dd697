import { describe, expect, it } from "vitest";
import type { QuestionJson } from "#common/mock-tests/question.ts";
import { readQuestionFile, writeQuestionFile, questionFileFormat, QUESTION_COLUMNS } from "./question-files.ts";

const BANK: QuestionJson[] = [
  {
    type: "single",
    text: "A ball is dropped from $h = 20\\,\\text{m}$. Its speed on reaching the ground is",
    options: ["10 m/s", "20 m/s", "-20 m/s", "=SUM(A1)"],
    answer: 1,
    solution: "$v = \\sqrt{2gh} = 20$ m/s",
    tags: { subject: "Physics", chapter: "Kinematics", topic: "Free fall", difficulty: "easy" },
    hindi: {
      text: "एक गेंद $20$ m से गिराई जाती है। ज़मीन पर उसकी चाल है",
      options: ["10 m/s", "20 m/s", "-20 m/s", "=SUM(A1)"],
    },
  },
  { type: "multiple", text: "Which are vectors?", options: ["Force", "Mass", "Velocity", "Energy"], answer: [0, 2] },
  {
    type: "numerical",
    text: "Value of $x$, rounded to 2 places",
    answer: { min: 2.25, max: 2.35 },
    decimals: { places: 2, mode: "round" },
  },
  { type: "numerical", text: "Integer answer", answer: -3 },
  { type: "numerical", text: "g", answer: { value: 9.8, tolerance: 0.05 } },
  { type: "numerical", text: "Either root", answer: [2, 3] },
];

const text = (bytes: Uint8Array) => new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
const csv = (lines: string[]) => new TextEncoder().encode(lines.join("\n"));

describe("question files", () => {
  it.each(["csv", "xlsx", "json"] as const)("round-trip the bank through %s", async (format) => {
    const file = await writeQuestionFile(format, BANK);
    expect(await readQuestionFile(format, file)).toEqual({ ok: true, questions: BANK });
  });

  it("write spreadsheet cells that would run as formulas with a leading apostrophe", async () => {
    const written = text(await writeQuestionFile("csv", BANK));
    expect(written.startsWith("\ufefftype,text,option_a")).toBe(true);
    expect(written).toContain(",'=SUM(A1),");
    expect(written).toContain(",'-20 m/s,");
    // The answer column is ours and stays readable.
    expect(written).toContain(",-3,");
  });

  it("names every bad row and imports nothing", async () => {
    const result = await readQuestionFile(
      "csv",
      csv([
        "type,text,option_a,option_b,answer",
        "single,Good one,yes,no,A",
        "single,Bad key,yes,no,C",
        "multiple,,yes,no,A",
        "numerical,Range,,,3 to 2",
        "essay,What?,,,x",
      ]),
    );
    expect(result).toEqual({
      ok: false,
      problems: [
        { where: "Row 3", message: "The answer must be the number of one of the options (0 for the first)" },
        { where: "Row 4", message: "Question text is required" },
        {
          where: "Row 5",
          message:
            "A numerical answer must be a number, a list of numbers, {value, tolerance} or {min, max} with min ≤ max",
        },
        { where: "Row 6", message: 'Type must be "single", "multiple" or "numerical"' },
      ],
    });
  });

  it("refuses a file it cannot read, with the reason", async () => {
    expect(await readQuestionFile("json", csv(["{"]))).toEqual({
      ok: false,
      problems: [{ where: "The file", message: "The file is not valid JSON" }],
    });
    expect(await readQuestionFile("json", csv(['{"items": []}']))).toMatchObject({
      ok: false,
      problems: [{ message: 'The JSON must be a list of questions or {"questions": [...]}' }],
    });
    expect(await readQuestionFile("json", csv(["[]"]))).toMatchObject({
      ok: false,
      problems: [{ message: "The file has no questions" }],
    });
    expect(await readQuestionFile("xlsx", csv(["not a workbook"]))).toMatchObject({
      ok: false,
      problems: [{ message: "The file is not a readable Excel workbook (.xlsx)" }],
    });
    expect(await readQuestionFile("csv", csv(["kind,body", "single,x"]))).toMatchObject({
      ok: false,
      problems: [
        {
          where: "Row 1",
          message: "The header must name the columns type, text, answer (see the question file format)",
        },
      ],
    });
    expect(await readQuestionFile("csv", csv(["type,text,answer,colour", "numerical,x,1,red"]))).toMatchObject({
      ok: false,
      problems: [{ where: "Row 1", message: "Unknown columns: colour" }],
    });
    expect(
      await readQuestionFile("json", csv(['[{"type":"single","text":"a\\u0000b","options":["x","y"],"answer":0}]'])),
    ).toMatchObject({
      ok: false,
      problems: [{ where: "Question 1", message: "text contains characters that cannot be stored." }],
    });
  });

  it("reads the answer column's forms", async () => {
    const result = await readQuestionFile(
      "csv",
      csv([
        "type,text,option_a,option_b,option_c,answer,decimals",
        'multiple,m,a,b,c,"a, c",',
        "numerical,n1,,,,−4.5,",
        "numerical,n2,,,,9.8 +- 0.1,",
        "numerical,n3,,,,1.41,2 truncate",
      ]),
    );
    expect(result).toMatchObject({
      ok: true,
      questions: [
        { answer: [0, 2] },
        { answer: -4.5 },
        { answer: { value: 9.8, tolerance: 0.1 } },
        { answer: 1.41, decimals: { places: 2, mode: "truncate" } },
      ],
    });
  });

  it("knows formats by file name and documents every column", () => {
    expect(questionFileFormat("bank.XLSX")).toBe("xlsx");
    expect(questionFileFormat("bank.csv")).toBe("csv");
    expect(questionFileFormat("bank.txt")).toBeNull();
    expect(QUESTION_COLUMNS).toContain("hindi_option_f");
  });
});
