import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { expect, test, type Page } from "./fixtures.ts";
import { chooseInstitute, publishTestAsCreator, signIn, signUpStudentOnSite, unique } from "./journeys.ts";

/**
 * The institute side of mock tests (issue 29): a creator fills the bank (a question with LaTeX, a
 * file import that is refused for one bad row and then accepted), builds a custom test that draws
 * by chapter × difficulty, publishes it, and the institute's owner finds it in their Tests area.
 */

/** Where the pages are saved for looking at, when asked for (full-page shots cost seconds each). */
const SHOTS = process.env.SCREENSHOT_DIR;
if (SHOTS) mkdirSync(SHOTS, { recursive: true });

/** The page fits a 390 px phone (checked always) and, with SCREENSHOT_DIR, is saved at both widths. */
async function shoot(page: Page, name: string) {
  const size = page.viewportSize()!;
  if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}-desktop.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  // Nothing wider than the phone: wide tables scroll inside their own box.
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}-phone.png`), fullPage: true });
  await page.setViewportSize(size);
}

function csv(chapter: string, badText: string) {
  return Buffer.from(
    [
      "type,text,option_a,option_b,option_c,option_d,answer,subject,chapter,difficulty",
      `single,"Light travels at $c = 3\\times 10^8$ m/s in vacuum.",True,False,,,A,Physics,${chapter},easy`,
      `numerical,"A mirror's focal length $f$ in cm if $R = 40$ cm?",,,,,20,Physics,${chapter},medium`,
      `single,"${badText}",Yes,No,,,A,Physics,${chapter},hard`,
    ].join("\n"),
  );
}

test("a creator writes, imports, builds and publishes a test; the owner sees it", async ({ page }) => {
  test.setTimeout(120_000);
  const chapter = `Optics ${unique()}`;
  const title = `Optics weekly ${unique()}`;

  await signIn(page, "creator@example.com", "demo-creator-2025", "creator");
  await page.getByRole("link", { name: "Tests" }).first().click();
  await expect(page).toHaveURL(/\/creator\/tests$/);
  await expect(page.getByRole("heading", { name: "Tests", level: 1 })).toBeVisible();

  // A question with LaTeX: the preview shows it rendered by KaTeX.
  await page.getByRole("link", { name: "Question bank" }).click();
  await expect(page).toHaveURL(/\/creator\/tests\/questions$/);
  await page.getByRole("link", { name: "New question" }).click();
  await page.getByLabel("Question", { exact: true }).fill("Find $\\frac{1}{f}$ when $u = -30$ cm and $v = 60$ cm.");
  const preview = page.getByTestId("question-preview");
  await expect(preview.locator(".katex").first()).toBeVisible();
  await expect(preview.locator(".katex .mfrac")).toHaveCount(1);
  await page.getByLabel("Option A", { exact: true }).fill("$\\frac{1}{20}$");
  await page.getByLabel("Option B", { exact: true }).fill("$\\frac{1}{60}$");
  await page.getByLabel("Option A is correct").check();
  await page.getByLabel("Subject").fill("Physics");
  await page.getByLabel("Chapter").fill(chapter);
  await page.getByLabel("Difficulty").selectOption("easy");
  await expect(preview.locator("li .katex")).toHaveCount(2);
  await shoot(page, "question-editor");
  await page.getByRole("button", { name: "Add question" }).click();
  await expect(page).toHaveURL(/\/creator\/tests\/questions$/);
  await expect(page.getByText("Question added to the bank")).toBeVisible();

  // A file with one bad row: the row is named and nothing is imported.
  const fileInput = page.getByLabel("CSV, XLSX or JSON file");
  await fileInput.setInputFiles({ name: "optics.csv", mimeType: "text/csv", buffer: csv(chapter, "") });
  await page.getByRole("button", { name: "Import" }).click();
  const problems = page.getByRole("alert").filter({ hasText: "Nothing was imported" });
  await expect(problems).toContainText("Row 4: Question text is required");
  await shoot(page, "question-bank-import-refused");
  await page.goto(`/creator/tests/questions?chapter=${encodeURIComponent(chapter)}`);
  await expect(page.getByText(/^1 question$/)).toBeVisible();

  // Fixed, the file imports whole.
  await page.getByLabel("CSV, XLSX or JSON file").setInputFiles({
    name: "optics.csv",
    mimeType: "text/csv",
    buffer: csv(chapter, "Is a plane mirror's image virtual?"),
  });
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByText("3 questions imported")).toBeVisible();
  await page.goto(`/creator/tests/questions?chapter=${encodeURIComponent(chapter)}`);
  await expect(page.getByText(/^4 questions$/)).toBeVisible();
  await expect(page.locator("li .katex").first()).toBeVisible();
  await shoot(page, "question-bank");

  // A custom test drawing one easy and one medium question of the chapter.
  await page.goto("/creator/tests/new");
  await page.getByLabel("Title").fill(title);
  await chooseInstitute(page, "Sunrise Academy");
  const section = page.getByRole("group", { name: "Section 1" });
  await expect(section).toContainText("+4 for the correct option, −1 for an incorrect answer, 0 if not answered.");
  await section.getByRole("checkbox", { name: chapter, exact: true }).check();
  await section.getByRole("checkbox", { name: "Easy", exact: true }).check();
  await section.getByRole("checkbox", { name: "Medium", exact: true }).check();
  await section.getByRole("button", { name: "Add rules" }).click();
  await expect(section.getByRole("list", { name: "Draw rules" }).getByRole("listitem")).toHaveCount(2);
  await expect(page.getByText("2 questions in 1 section")).toBeVisible();
  await shoot(page, "test-builder");
  await page.getByRole("button", { name: "Create draft" }).click();
  await expect(page).toHaveURL(/\/creator\/tests\/[0-9a-f-]{36}$/);
  await expect(page.getByText("Test saved as a draft")).toBeVisible();
  await expect(page.getByRole("heading", { name: title })).toBeVisible();
  await expect(page.getByText("Draft", { exact: true })).toBeVisible();
  await expect(page.getByRole("article")).toHaveCount(2);

  await shoot(page, "test-draft");

  // Changed before publishing: the drawn questions come back as picked ones and stay in the paper.
  await page.getByRole("link", { name: "Edit", exact: true }).click();
  await expect(page.getByRole("heading", { name: `Edit ${title}` })).toBeVisible();
  await expect(page.getByText("2 questions in 1 section")).toBeVisible();
  await expect(page.getByRole("list", { name: "Picked questions" }).getByRole("listitem")).toHaveCount(2);
  await shoot(page, "test-builder-edit");
  await page.getByRole("button", { name: "Take out picked question 2" }).click();
  await expect(page.getByText("1 question in 1 section")).toBeVisible();
  await page.getByLabel("Duration (minutes)").fill("45");
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByText("Draft saved")).toBeVisible();
  await expect(page.getByText("45 min", { exact: true })).toBeVisible();
  await expect(page.getByRole("article")).toHaveCount(1);

  await page.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByRole("alertdialog")).toContainText("Publish this test?");
  await page.getByRole("alertdialog").getByRole("button", { name: "Publish" }).click();
  await expect(page.getByText("Test published")).toBeVisible();
  await expect(page.getByText("Published", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Close test" })).toBeVisible();
  await shoot(page, "test-page");

  await page.goto("/creator/tests");
  await expect(page.getByRole("row", { name: new RegExp(title) })).toContainText("Published");
  await shoot(page, "tests-list");

  // The owner of Sunrise Academy sees the test in their Tests area, with Sunrise chosen in the
  // header (the demo owner has two institutes; the area shows one institute's tests at a time).
  await page.context().clearCookies();
  await signIn(page, "business@example.com", "demo-business-2025", "business");
  await page.getByRole("link", { name: "Tests" }).first().click();
  await expect(page).toHaveURL(/\/business\/tests$/);
  await chooseInstitute(page, "Sunrise Academy");
  await expect(page).toHaveURL(/\/business\/tests$/);
  const row = page.getByRole("row", { name: new RegExp(title) });
  await expect(row).toContainText("Published");
  await expect(row).toContainText("Sunrise Academy");
  await shoot(page, "owner-tests-list");
  await row.getByRole("link", { name: title }).click();
  await expect(page).toHaveURL(/\/business\/tests\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { name: title })).toBeVisible();
  await expect(page.getByText("No one has submitted this test yet.")).toBeVisible();
  await shoot(page, "owner-test-page");
});

/** A Sunrise Academy student signs up on its domain, and sits the test through the API as the exam screen does. */
async function sit(page: Page, name: string, testId: string, answer: number | null) {
  await signUpStudentOnSite(page, name);
  // The institute's host is resolved by the browser only, so the calls go from the page, as the exam screen's do.
  const call = (method: string, path: string, body: unknown) =>
    page.evaluate(
      async ([m, p, b]) => {
        const res = await fetch(p as string, {
          method: m as string,
          headers: { "content-type": "application/json" },
          body: JSON.stringify(b),
        });
        return { status: res.status, body: await res.json() };
      },
      [method, path, body],
    );
  expect((await call("POST", "/api/student/enroll", { contentId: testId })).status).toBe(201);
  const started = await call("POST", `/api/tests/${testId}/attempts`, {});
  expect(started.status).toBe(200);
  const { attempt } = started.body;
  if (answer === null) return;
  const question = attempt.sections[0].questions[0];
  expect((await call("PUT", `/api/attempts/${attempt._id}/responses/${question._id}`, { answer, seq: 1 })).status).toBe(
    200,
  );
  expect((await call("POST", `/api/attempts/${attempt._id}/submit`, {})).status).toBe(200);
}

test("each institute has its own bank, and a question goes to another only when copied", async ({ page }) => {
  const text = `Snell's law ${unique()}: $n_1 \\sin\\theta_1 = n_2 \\sin\\theta_2$`;
  await signIn(page, "creator@example.com", "demo-creator-2025", "creator");
  const origin = new URL(page.url()).origin;
  const banks = await (await page.request.get("/api/questions?limit=200")).json();
  const sunrise = banks.questions.find((q: { tags?: { subject?: string } }) => q.tags?.subject === "Physics")
    .businessId as string;
  const vidya = banks.questions.find((q: { tags?: { subject?: string } }) => q.tags?.subject === "Biology")
    .businessId as string;
  const made = await page.request.post(`/api/questions?bank=${sunrise}`, {
    headers: { origin },
    data: { type: "single", text, options: ["Yes", "No"], answer: 0, tags: { chapter: "Refraction" } },
  });
  expect(made.status()).toBe(201);

  // Vidya's bank does not hold Sunrise's question until it is copied there.
  await page.goto(`/creator/tests/questions?bank=${vidya}&chapter=Refraction`);
  await expect(page.getByText(/^0 questions$/)).toBeVisible();
  await page.goto(`/creator/tests/questions?bank=${sunrise}&chapter=Refraction`);
  await expect(page.getByText(/^1 question$/)).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: "Snell" }).getByText("Sunrise Academy")).toBeVisible();
  await page.getByRole("checkbox", { name: "Select question 1 to copy" }).check();
  await page.getByLabel("Copy to").selectOption(vidya);
  await shoot(page, "question-bank-copy");
  await page.getByRole("button", { name: "Copy selected" }).click();
  await expect(page.getByText("1 question copied")).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`bank=${vidya}`));
  await page.goto(`/creator/tests/questions?bank=${vidya}&chapter=Refraction`);
  await expect(page.getByText(/^1 question$/)).toBeVisible();
  await expect(
    page.getByRole("listitem").filter({ hasText: "Snell" }).getByText("Vidya JEE & NEET Classes"),
  ).toBeVisible();
});

test("a draft is thrown away from its page, after a confirmation", async ({ page }) => {
  const title = `Scrap draft ${unique()}`;
  await signIn(page, "creator@example.com", "demo-creator-2025", "creator");
  const origin = new URL(page.url()).origin;
  const made = await page.request.post("/api/questions", {
    headers: { origin },
    data: { type: "single", text: "A question for a scrapped draft", options: ["Yes", "No"], answer: 0 },
  });
  const questionId = (await made.json()).questions[0]._id as string;
  const created = await page.request.post("/api/tests", {
    headers: { origin },
    data: { title, sections: [{ name: "All", questions: [questionId] }] },
  });
  const testId = (await created.json()).test._id as string;

  await page.goto(`/creator/tests/${testId}`);
  await page.getByRole("button", { name: "Discard draft" }).click();
  await expect(page.getByRole("alertdialog")).toContainText("Discard this draft?");
  await page.getByRole("alertdialog").getByRole("button", { name: "Discard draft" }).click();
  await expect(page).toHaveURL(/\/creator\/tests$/);
  await expect(page.getByText("Draft discarded")).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(title) })).toHaveCount(0);
  // The question stays in the bank.
  expect((await page.request.get(`/api/questions/${questionId}`)).status()).toBe(200);
});

test("the test page shows the rank list and analysis, grants extra time and re-scores on a key decision", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const title = `Ray optics ${unique()}`;
  const { id: testId } = await publishTestAsCreator(page.request, {
    title,
    questions: [{ text: "Which mirror can form a real image?", options: ["Concave", "Plane"], answer: 0 }],
  });

  await sit(page, "Asha Rao", testId, 0);
  await sit(page, "Vikram Sen", testId, null);

  await page.context().clearCookies();
  await signIn(page, "creator@example.com", "demo-creator-2025", "creator");
  await page.goto(`/creator/tests/${testId}`);
  const rankList = page.getByRole("table").first();
  await expect(rankList.getByRole("row", { name: /Asha Rao/ })).toContainText("4 / 4");
  await expect(page.getByRole("link", { name: "Rank list CSV" })).toHaveAttribute(
    "href",
    `/api/tests/${testId}/rank-list.csv`,
  );
  await expect(page.getByRole("table").nth(1).getByRole("row", { name: /Q1/ })).toContainText("100%");
  await expect(page.getByRole("table").nth(1).getByRole("row", { name: /Q1/ })).toContainText("A: 1 · B: 0");

  // Vikram's sitting is still running: ten more minutes.
  await page.getByLabel("Extra minutes for Vikram Sen").fill("10");
  await page.getByRole("button", { name: "Grant extra time" }).click();
  await expect(page.getByText("Extra time granted")).toBeVisible();
  await expect(page.getByText("10 extra minutes so far")).toBeVisible();

  // The key was wrong: Plane is marked correct now, and Asha's 4 becomes −1.
  const question = page.getByRole("article", { name: "Question 1" });
  await question.getByText("Key decision").click();
  await question.getByLabel("Decision").selectOption("changed");
  await question.getByRole("radio", { name: "B" }).check();
  await question.getByRole("button", { name: "Save decision" }).click();
  await expect(page.getByText("Key decision saved; every attempt has been scored again")).toBeVisible();
  await expect(page.getByRole("article", { name: "Question 1" })).toContainText("Key changed to B");
  await expect(rankList.getByRole("row", { name: /Asha Rao/ })).toContainText("-1 / 4");
  await shoot(page, "test-page-results");
});
