import { describe, expect, it } from "vitest";
import type { QuestionJson } from "#common/mock-tests/question.ts";
import {
  readQuestionFile,
  writeQuestionFile,
  questionFileFormat,
  QUESTION_COLUMNS,
  QUESTION_FILE_LIMIT_TEXTS as LIMIT,
} from "./question-files.ts";
import { readQuestionFileInWorker } from "./question-readers.ts";
import { cell, deflated, sheetBomb, stored, workbook } from "../../../tests/helpers/bombs.ts";
import { runInWorker, WorkerLimitError } from "../parsing/bounded-worker.ts";

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
    expect(await readQuestionFile(format, file)).toEqual({
      ok: true,
      questions: BANK,
      where: BANK.map((_, i) => (format === "json" ? `Question ${i + 1}` : `Row ${i + 2}`)),
    });
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
        // The sheet's words: its columns and letters, not the API's JSON (issue 38 §6).
        {
          where: "Row 3",
          message:
            "The answer column must be the letter of one filled option column (A for option_a, B for option_b, …)",
        },
        { where: "Row 4", message: "Question text is required" },
        {
          where: "Row 5",
          message:
            'The answer column must be a number ("12"), several numbers ("2; 3"), a range ("2.25 to 2.35") or a value with a tolerance ("9.8 ± 0.05")',
        },
        { where: "Row 6", message: 'Type must be "single", "multiple" or "numerical"' },
      ],
    });
  });

  it("speaks of a sheet's columns: option letters, empty option columns, the decimals rule", async () => {
    const result = await readQuestionFile(
      "csv",
      csv([
        "type,text,option_a,option_b,answer,decimals,solution",
        'multiple,Which?,yes,no,"A, 3",,',
        "single,One option,yes,,A,,",
        "numerical,Has options,1,2,4,,",
        "numerical,Rule,,,4,9 round,",
        `single,Long,yes,no,A,,${"x".repeat(30_000)}`,
      ]),
    );
    const messages = result.ok ? [] : "problems" in result ? result.problems.map((p) => p.message) : [];
    expect(messages.slice(0, 4)).toEqual([
      'The answer column must list the letters of the correct option columns, such as "A, C"',
      "Fill at least two option columns (option_a and option_b)",
      "A numerical question leaves the option columns (option_a to option_f) empty",
      'The decimals column must be places and a rule, such as "2 round" or "2 truncate" (at most 6 places)',
    ]);
    expect(messages[4]).toMatch(/^Column solution: /);
    for (const message of messages) expect(message).not.toMatch(/\(0 for the first\)|\{value, tolerance\}|JSON/);
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
    expect(questionFileFormat("Figures.ZIP")).toBe("zip");
    expect(questionFileFormat("Physics bank.docx")).toBe("docx");
    expect(QUESTION_COLUMNS).toContain("hindi_option_f");
  });

  it("reads a workbook made by hand (inline text), as office programs write them", async () => {
    const header = ["type", "text", "option_a", "option_b", "answer"];
    const rows = [header, ["single", "Which?", "yes", "no", "A"]]
      .map((cells, r) => `<row r="${r + 1}">${cells.map((c, i) => cell(`${"ABCDE"[i]}${r + 1}`, c)).join("")}</row>`)
      .join("");
    expect(await readQuestionFile("xlsx", workbook(rows))).toEqual({
      ok: true,
      questions: [{ type: "single", text: "Which?", options: ["yes", "no"], answer: 0 }],
      where: ["Row 2"],
    });
  });
});

describe("question files within limits", () => {
  const tooLarge = (message: string) => ({ ok: false, tooLarge: message });

  it("refuses a CSV with too many rows, too many columns or a row too long, and JSON nested too deep, before building them", async () => {
    const header = "type,text,answer\n";
    expect(await readQuestionFile("csv", csv([header + "single,x,A\n".repeat(10_001)]))).toEqual(
      tooLarge(LIMIT.tooManyRows),
    );
    expect(await readQuestionFile("csv", csv([header + ",".repeat(100)]))).toEqual(tooLarge(LIMIT.tooManyColumns));
    expect(await readQuestionFile("csv", csv([header + `single,"${"x".repeat(600_000)}",A`]))).toEqual(
      tooLarge(LIMIT.rowTooLong),
    );
    expect(await readQuestionFile("csv", new Uint8Array(8 * 1024 * 1024 + 1))).toEqual(tooLarge(LIMIT.fileTooLarge));
    const deep = new TextEncoder().encode("[".repeat(1_000_000) + "]".repeat(1_000_000));
    expect(await readQuestionFile("json", deep)).toEqual({
      ok: false,
      problems: [{ where: "The file", message: "The JSON nests too deeply to be a question file" }],
    });
    // Brackets inside text are text.
    const bracketed = [{ type: "numerical", text: `${"[{".repeat(40)} \\" ]]`, answer: 1 }];
    expect(await readQuestionFile("json", new TextEncoder().encode(JSON.stringify(bracketed)))).toEqual({
      ok: true,
      questions: bracketed,
      where: ["Question 1"],
    });
  });

  it("refuses a workbook that unpacks too far or has too many parts, from its directory", async () => {
    const bomb = await sheetBomb(64);
    expect(bomb.payload.length).toBeLessThan(512 * 1024);
    expect(await readQuestionFile("xlsx", workbook(bomb))).toEqual(tooLarge(LIMIT.unpacksTooFar));
    const parts = Array.from({ length: 260 }, (_, i) => stored(`xl/media/${i}.bin`, "x"));
    expect(await readQuestionFile("xlsx", workbook("", parts))).toEqual(tooLarge(LIMIT.tooManyParts));
  });

  it("refuses a workbook whose sizes lie, as not a workbook", async () => {
    const bomb = await sheetBomb(64);
    expect(await readQuestionFile("xlsx", workbook({ ...bomb, declare: { central: 2048, local: 2048 } }))).toEqual({
      ok: false,
      problems: [{ where: "The file", message: "The file is not a readable Excel workbook (.xlsx)" }],
    });
  });

  it("refuses a few bytes of sheet that name a far row or column, before any row is made", async () => {
    const far = `<row r="1">${cell("A1", "type")}</row><row r="300000000">${cell("A300000000", "x")}</row>`;
    expect(await readQuestionFile("xlsx", workbook(far))).toEqual(tooLarge(LIMIT.tooManyRows));
    const wide = `<row r="1">${cell("A1", "type")}${cell("XFD1", "x")}</row>`;
    expect(await readQuestionFile("xlsx", workbook(wide))).toEqual(tooLarge(LIMIT.tooManyColumns));
    // Any part can be a sheet (the workbook's relationships name them): every one is looked at.
    const hidden = deflated("xl/other/sheet9.xml", `<worksheet><sheetData>${far}</sheetData></worksheet>`);
    expect(await readQuestionFile("xlsx", workbook(`<row r="1">${cell("A1", "type")}</row>`, [hidden]))).toEqual(
      tooLarge(LIMIT.tooManyRows),
    );
  });

  it("reads in a worker, which answers as the file would, and is ended past its heap or its time", async () => {
    const file = await writeQuestionFile("xlsx", BANK);
    expect(await readQuestionFileInWorker("xlsx", file)).toEqual({
      ok: true,
      questions: BANK,
      where: BANK.map((_, i) => `Row ${i + 2}`),
    });
    // 25 MB of sheet, within the file limits: read in 64 MB of heap, not in 16.
    const rows = Array.from({ length: 5_000 }, (_, r) => {
      const n = r + 1;
      return `<row r="${n}">${cell(`A${n}`, "single")}${cell(`B${n}`, "q".repeat(5_000) + n)}</row>`;
    });
    const big = workbook(rows.join(""));
    const read = (timeMs: number, heapMb: number) =>
      runInWorker("questionFile", { format: "xlsx", bytes: big }, { timeMs, heapMb, threads: 1 });
    await expect(read(60_000, 16)).rejects.toEqual(new WorkerLimitError("memory"));
    await expect(read(1, 256)).rejects.toEqual(new WorkerLimitError("time"));
    await expect(read(60_000, 256)).resolves.toMatchObject({ ok: false, problems: [{ where: "Row 1" }] });
  });
});
