import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { register } from "../helpers/learning.ts";
import { deflatedRepeat, zip } from "../helpers/bombs.ts";
import { docx, equation, fraction, mathRun, paragraph, picture, root, run, superscript } from "../helpers/docx.ts";
import { DOCUMENT_TEXTS } from "../../server/services/mock-tests/question-document.ts";
import { QUESTION_ARCHIVE_TEXTS } from "../../server/services/mock-tests/question-archive.ts";

/**
 * Issue 38 §1: a question bank kept in Word imports with its text, its pictures (stored as
 * figures) and its equations (as LaTeX); a document that asks for more than the limits is refused
 * before it expands.
 */

let t: TestApp;
let owner: Awaited<ReturnType<typeof register>>;
let center: { id: string; customDomain: string | null };

async function importWord(bytes: Uint8Array) {
  const form = new FormData();
  form.set("file", new File([bytes as BlobPart], "Physics bank.docx"));
  const res = await t.request(`/api/questions/import?bank=${center.id}`, {
    method: "POST",
    body: form,
    headers: bearer(owner.access_token),
  });
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  t = await createTestApp();
  owner = await register(t, "business", { name: "Word Owner" });
  center = await createCenter(t, owner.user._id, { instituteName: "Word Academy" });
});
afterAll(() => t.close());

describe("a Word question bank", () => {
  it("imports text, pictures and equations as LaTeX", async () => {
    const png = await sharp({ create: { width: 200, height: 120, channels: 3, background: "#246" } })
      .png()
      .toBuffer();
    const file = docx(
      [
        paragraph(run("Physics — Chapter test (instructions before the first question are skipped)")),
        paragraph(
          run("1. A ray falls on the mirror shown. Its kinetic energy is "),
          equation(fraction(mathRun("1"), mathRun("2")) + mathRun("m") + superscript(mathRun("v"), mathRun("2"))),
        ),
        paragraph(picture(1)),
        paragraph(run("(A) 30° (B) 45° (C) 60° (D) 90°")),
        paragraph(run("Answer: B")),
        paragraph(run("Solution: The angle of incidence equals the angle of reflection.")),
        paragraph(run("1. A numbered step of the solution stays in it.")),
        paragraph(run("Subject: Physics")),
        paragraph(run("Chapter: Optics")),
        paragraph(run("2. Which are noble gases?")),
        paragraph(run("(A) Neon")),
        paragraph(run("(B) Nitrogen")),
        paragraph(run("(C) Argon")),
        paragraph(run("(D) Oxygen")),
        paragraph(run("Ans: A, C")),
        paragraph(run("3. The side of a square of area 2 is "), equation(root(mathRun("2")))),
        paragraph(run("Answer: 1.41 ± 0.01")),
      ],
      [png],
    );
    const res = await importWord(file);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [first, second, third] = res.body.questions;
    expect(first.type).toBe("single");
    expect(first.text).toMatch(
      /^A ray falls on the mirror shown\. Its kinetic energy is \$\\frac\{1\}\{2\}m\{v\}\^\{2\}\$\n\n!\[Figure\]\(\/media\/question-images\/[0-9a-f-]{36}\/[0-9a-f-]{36}\.webp\)$/,
    );
    expect(first.options).toEqual(["30°", "45°", "60°", "90°"]);
    expect(first.answer).toBe(1);
    expect(first.solution).toBe(
      "The angle of incidence equals the angle of reflection.\n\n1. A numbered step of the solution stays in it.",
    );
    expect(first.tags).toMatchObject({ subject: "Physics", chapter: "Optics" });
    expect(second).toMatchObject({
      type: "multiple",
      options: ["Neon", "Nitrogen", "Argon", "Oxygen"],
      answer: [0, 2],
    });
    expect(third).toMatchObject({ type: "numerical", text: "The side of a square of area 2 is $\\sqrt{2}$" });
    expect(third.answer).toEqual({ value: 1.41, tolerance: 0.01 });
  });

  it("names the question without an answer, and says how questions are written when it finds none", async () => {
    const missing = docx([paragraph(run("1. What is g?")), paragraph(run("Solution: about 9.8"))]);
    expect(await importWord(missing)).toMatchObject({
      status: 400,
      body: { problems: [{ where: "Question 1", message: DOCUMENT_TEXTS.noAnswer }] },
    });
    expect(await importWord(docx([paragraph(run("Just a letter to the parents."))]))).toMatchObject({
      status: 400,
      body: { problems: [{ where: "The file", message: DOCUMENT_TEXTS.noQuestions }] },
    });
    expect(await importWord(new TextEncoder().encode("not a document"))).toMatchObject({
      status: 400,
      body: { problems: [{ where: "The file", message: DOCUMENT_TEXTS.unreadable }] },
    });
  });

  it("refuses a document that unpacks too far, before it expands", async () => {
    const bomb = await deflatedRepeat("word/document.xml", {
      head: "<w:document><w:body>",
      chunk: "<w:p/>".repeat(1000),
      times: 20_000,
      tail: "</w:body></w:document>",
    });
    expect(await importWord(zip([bomb]))).toMatchObject({
      status: 413,
      body: { error: QUESTION_ARCHIVE_TEXTS.unpacksTooFar },
    });
  });
});
