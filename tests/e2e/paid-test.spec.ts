import writeXlsxFile, { type SheetData } from "write-excel-file/node";
import { expect, test } from "./fixtures.ts";
import { publishTestAsCreator, signIn, signUpStudentOnSite, unique } from "./journeys.ts";

/**
 * The two browser journeys of mock tests that the other specs leave out: a student buys a paid test
 * in the payment sandbox's Checkout on the institute's site and then takes it, and a creator imports
 * questions from an Excel workbook (refused whole for one bad row, then accepted).
 */

const port = Number(process.env.E2E_PORT);
const sunrise = `http://demo-t1.localhost:${port}`;
const SUBMIT_QUESTION =
  "Are you sure you want to submit for final marking? No changes will be allowed after submission.";

test("a student buys a paid mock test in the sandbox's Checkout on the institute's site, then takes it and sees the result", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const title = `Paid optics mock ${unique()}`;

  // The creator writes one question and publishes a ₹99 test of Sunrise Academy, through the API.
  const { id: testId } = await publishTestAsCreator(page.request, {
    title,
    price: 99,
    durationMinutes: 20,
    questions: [
      {
        text: "A concave mirror's focal length is half its radius of curvature. With $R = 40$ cm, $f$ is",
        options: ["20 cm", "40 cm", "80 cm", "10 cm"],
        answer: 0,
      },
    ],
  });

  // A new student of Sunrise finds the test on its site's list, priced, asking to be bought.
  await signUpStudentOnSite(page, "Neha Kulkarni");
  await page.goto(`${sunrise}/student/mock-tests`);
  await expect(page.getByRole("heading", { name: "Mock Tests", level: 1 })).toBeVisible();
  const card = page.locator("article").filter({ has: page.getByRole("heading", { name: title, exact: true }) });
  await expect(card.getByText("₹99", { exact: true })).toBeVisible();
  await expect(card.getByText("20 min")).toBeVisible();
  await expect(card.getByText("Take it any time")).toBeVisible();
  await expect(card.locator("dd").nth(1)).toHaveText("1");
  await expect(card.locator("dd").nth(2)).toHaveText("4");
  const buy = card.getByRole("button", { name: "Buy ₹99" });
  await expect(buy).toBeVisible();
  await expect(card.getByRole("link", { name: "Start Test" })).toHaveCount(0);

  // Not bought yet: the server refuses to start a sitting, and says how to buy it.
  const refused = await page.evaluate(async (path) => {
    const res = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    return { status: res.status, body: await res.json() };
  }, `/api/tests/${testId}/attempts`);
  expect(refused.status).toBe(402);
  expect(refused.body).toMatchObject({
    error: "Buy this test to take it",
    order: { method: "POST", path: "/api/student/enroll", body: { contentId: testId } },
  });

  // Bought as a person buys it: the sandbox's Checkout, in the institute's name, with the server's amount.
  await buy.click();
  const checkout = page.getByRole("dialog", { name: "Sunrise Academy" });
  await expect(checkout.getByText("Test mode — no real money")).toBeVisible();
  await expect(checkout.getByText("₹99.00", { exact: true })).toBeVisible();
  await checkout.getByRole("button", { name: "Pay ₹99.00" }).click();
  await expect(page.getByText("Payment successful").first()).toBeVisible();
  await expect(page.getByText(`You're enrolled in ${title}.`)).toBeVisible();
  await expect(checkout).toBeHidden();

  // The card now offers to start the test instead.
  const start = card.getByRole("link", { name: "Start Test" });
  await expect(start).toBeVisible();
  await expect(card.getByRole("button", { name: "Buy ₹99" })).toHaveCount(0);

  // The instructions, the declaration, then 'I am ready to begin'.
  await start.click();
  await expect(page).toHaveURL(`${sunrise}/student/mock-tests/${testId}`);
  await expect(page.getByRole("heading", { name: title, level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "General Instructions" })).toBeVisible();
  await expect(page.getByText("The total duration of the test is 20 minutes.")).toBeVisible();
  await page.getByRole("button", { name: "Next" }).click();
  await expect(
    page.getByText("This paper has 1 section and 1 question for 4 marks, to be answered in 20 minutes."),
  ).toBeVisible();
  const begin = page.getByRole("button", { name: "I am ready to begin" });
  await expect(begin).toBeDisabled();
  await page.getByRole("checkbox", { name: /I have read and understood the instructions/ }).check();
  await begin.click();

  // The exam screen: the server's clock and the one question; (A) is saved.
  await expect(page.getByLabel(/^Time Left 00:(19|20):\d\d$/)).toBeVisible();
  await expect(page.getByText("Question No. 1")).toBeVisible();
  await page.getByRole("radio", { name: /\(A\)/ }).click();
  await page.getByRole("button", { name: "SAVE & NEXT" }).click();
  await expect(page.getByRole("button", { name: "Question 1, Answered" })).toBeVisible();
  await expect(page.getByText("All answers saved").first()).toBeVisible();

  // Submit: the summary, the NTA's question, Yes.
  await page.getByRole("button", { name: "SUBMIT" }).click();
  const summary = page.getByRole("dialog", { name: "Exam Summary" });
  await expect(summary.getByText(SUBMIT_QUESTION)).toBeVisible();
  await summary.getByRole("button", { name: "Yes" }).click();

  // The result: 4 of 4, first of one taker.
  await expect(page).toHaveURL(new RegExp(`^${sunrise}/student/mock-tests/attempts/[0-9a-f-]{36}/result$`));
  const resultPath = new URL(page.url()).pathname;
  await expect(page.getByRole("heading", { name: title, level: 1 })).toBeVisible();
  const overview = page.getByRole("region", { name: "Your score" });
  await expect(overview.getByText("4 / 4")).toBeVisible();
  await expect(overview.locator("dt", { hasText: "Rank" }).locator("+ dd")).toHaveText("1");
  await expect(overview.getByText("1 correct of 1 attempted")).toBeVisible();
  const q1 = page.getByRole("article", { name: "Question 1" });
  await expect(q1.getByText("Your answer: (A)")).toBeVisible();
  await expect(q1.getByLabel("Marks")).toHaveText("+4");

  // Back on the list: the bought test shows the attempt and its one attempt is used.
  await page.goto(`${sunrise}/student/mock-tests`);
  await expect(card.getByRole("list", { name: "Your attempts" })).toContainText("Attempt 1 · 4 / 4");
  await expect(card.getByRole("link", { name: "View result" })).toHaveAttribute("href", resultPath);
  await expect(card.getByRole("button", { name: "No attempts left" })).toBeDisabled();
});

/** A workbook as Excel writes it: a header row, then one question a row (numbers as number cells). */
async function workbook(rows: SheetData): Promise<Buffer> {
  const header = [
    "type",
    "text",
    "option_a",
    "option_b",
    "option_c",
    "option_d",
    "answer",
    "subject",
    "chapter",
    "difficulty",
  ];
  return writeXlsxFile([header, ...rows], { sheet: "Questions" }).toBuffer();
}

const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

test("a creator imports questions from an Excel workbook; one bad row refuses the whole file", async ({ page }) => {
  const chapter = `Wave optics ${unique()}`;
  const good: SheetData = [
    [
      "single",
      "Interference needs sources that are",
      "coherent",
      "incoherent",
      null,
      null,
      "A",
      "Physics",
      chapter,
      "easy",
    ],
    [
      "multiple",
      "Which of these show that light is a wave?",
      "Diffraction",
      "Photoelectric effect",
      "Interference",
      "Compton effect",
      "A, C",
      "Physics",
      chapter,
      "medium",
    ],
    [
      "numerical",
      "Fringe width in mm when $\\beta = 0.5$ mm is doubled",
      null,
      null,
      null,
      null,
      1,
      "Physics",
      chapter,
      "hard",
    ],
  ];
  const bad: SheetData = [
    good[0],
    ["single", "Young's experiment shows", "interference", "polarisation", null, null, "C", "Physics", chapter, "easy"],
    good[2],
  ];

  await signIn(page, "creator@example.com", "demo-creator-2025", "creator");
  await page.goto("/creator/tests/questions");
  await expect(page.getByRole("heading", { name: "Question bank", level: 1 })).toBeVisible();

  // The second question's key names an option it does not have: the row is named and nothing is imported.
  await page
    .getByLabel("CSV, XLSX or JSON file")
    .setInputFiles({ name: "wave-optics.xlsx", mimeType: XLSX, buffer: await workbook(bad) });
  await page.getByRole("button", { name: "Import" }).click();
  const problems = page.getByRole("alert").filter({ hasText: "Nothing was imported" });
  await expect(problems.getByText("Nothing was imported: fix these rows and upload the file again.")).toBeVisible();
  await expect(problems.getByRole("list", { name: "Problems in the file" }).getByRole("listitem")).toHaveText([
    "Row 3: The answer column must be the letter of one filled option column (A for option_a, B for option_b, …)",
  ]);
  await page.goto(`/creator/tests/questions?chapter=${encodeURIComponent(chapter)}`);
  await expect(page.getByText(/^0 questions$/)).toBeVisible();
  await expect(page.getByText("No questions match these filters.")).toBeVisible();

  // The good workbook imports whole: three questions of the chapter, with their keys.
  await page
    .getByLabel("CSV, XLSX or JSON file")
    .setInputFiles({ name: "wave-optics.xlsx", mimeType: XLSX, buffer: await workbook(good) });
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByText("3 questions imported")).toBeVisible();
  await page.goto(`/creator/tests/questions?chapter=${encodeURIComponent(chapter)}`);
  await expect(page.getByText(/^3 questions$/)).toBeVisible();
  const items = page.locator("ul > li").filter({ hasText: chapter });
  await expect(items).toHaveCount(3);
  await expect(items.filter({ hasText: "Interference needs sources that are" })).toContainText("Answer: A");
  await expect(items.filter({ hasText: "Which of these show that light is a wave?" })).toContainText("Answer: A, C");
  await expect(items.filter({ hasText: "Fringe width in mm" })).toContainText("Answer: 1");
  await expect(items.filter({ hasText: "Fringe width in mm" }).locator(".katex")).toBeVisible();
});
