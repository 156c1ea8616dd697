import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { asDemoCreator, publishTest, signUpFromTest, unique, writeQuestions, type TestSpec } from "./journeys.ts";

/**
 * Issue 38 §5 (the screen and the result as a student expects) and §6's instructions landmark: a
 * sitting resumed at its question and language, the phone's submit summary with all six counts,
 * subject totals with time on the result, and practice mode marking a wrong choice.
 */

const port = Number(process.env.E2E_PORT);
const platform = `http://localhost:${port}`;
const t1 = `http://demo-t1.localhost:${port}`;

const LANDMARK_RULES = [
  "landmark-one-main",
  "region",
  "landmark-no-duplicate-main",
  "landmark-main-is-top-level",
  "landmark-unique",
];

const single = (text: string, options: string[], answer: number, subject: string, hindi?: string) => ({
  type: "single",
  text,
  options,
  answer,
  solution: `Option (${String.fromCharCode(65 + answer)}) is right.`,
  tags: { subject, difficulty: "easy" },
  ...(hindi ? { hindi: { text: hindi, options } } : {}),
});

/** The demo creator (Sunrise Academy's team) publishes a small JEE Main mock and a practice test. */
async function publishTests(api: APIRequestContext, title: string) {
  const creator = await asDemoCreator(api);
  const physicsA = await writeQuestions(creator, [
    single("The SI unit of force is", ["joule", "newton", "watt", "pascal"], 1, "Physics"),
    single("Which quantity is a vector?", ["velocity", "mass", "speed", "time"], 0, "Physics"),
  ]);
  const physicsB = await writeQuestions(creator, [
    {
      type: "numerical",
      text: "Take $g$ in $\\text{m/s}^2$, to two decimals.",
      answer: { value: 9.81, tolerance: 0.01 },
      decimals: { places: 2, mode: "round" },
      tags: { subject: "Physics" },
      hindi: { text: "$g$ का मान $\\text{m/s}^2$ में, दो दशमलव तक लिखिए।" },
    },
  ]);
  const chemistryA = await writeQuestions(creator, [
    single("The atomic number of carbon is", ["4", "8", "6", "12"], 2, "Chemistry"),
    single("Water is", ["$H_2O$", "$CO_2$", "$O_2$", "$NaCl$"], 0, "Chemistry"),
  ]);
  const create = (test: TestSpec) => publishTest(creator, { durationMinutes: 30, price: 0, ...test });
  const mock = await create({
    title,
    pattern: "jee-main-2025",
    sections: [
      { name: "Physics Section A", questions: physicsA },
      { name: "Physics Section B", questions: physicsB },
      { name: "Chemistry Section A", questions: chemistryA },
    ],
  });
  const practice = await create({
    title: `${title} (practice)`,
    pattern: "custom",
    practice: true,
    sections: [{ name: "Physics", questions: [physicsA[0]] }],
  });
  return { mock, practice };
}

async function begin(page: Page) {
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByRole("checkbox", { name: /I have read and understood the instructions/ }).check();
  await page.getByRole("button", { name: "I am ready to begin" }).click();
  await expect(page.getByLabel(/^Time Left /)).toBeVisible();
}

const fromPage = (page: Page, path: string) =>
  page.evaluate(async (url) => (await fetch(url, { headers: { accept: "application/json" } })).json(), path);

const shot = (page: Page, name: string) =>
  page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: false });

test("a sitting resumes at its question and language; the phone's summary shows six counts; the result gives subject totals with time", async ({
  page,
  playwright,
}) => {
  test.setTimeout(150_000);
  const title = `Subjects Mock ${unique()}`;
  const api = await playwright.request.newContext({ baseURL: platform });
  const { mock } = await publishTests(api, title);
  await signUpFromTest(page, mock, "Meera Iyer");

  // The instructions are the page's main landmark (axe-core finds no landmark problem).
  await expect(page.getByRole("heading", { name: "General Instructions" })).toBeVisible();
  await expect(page.getByRole("main")).toHaveCount(1);
  await expect(page.getByRole("main").getByRole("heading", { name: title, level: 1 })).toBeVisible();
  const { violations } = await new AxeBuilder({ page }).withRules(LANDMARK_RULES).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);

  await begin(page);
  await expect(page.getByText("Question No. 1")).toBeVisible();
  await page.getByRole("radio", { name: /\(B\)/ }).click();
  await page.getByRole("button", { name: "SAVE & NEXT" }).click();
  await expect(page.getByText("Question No. 2")).toBeVisible();
  await page.getByRole("radio", { name: /\(B\)/ }).click();
  await page.getByRole("button", { name: "SAVE & NEXT" }).click();
  await expect(page.getByText("Question No. 3")).toBeVisible();
  await page.getByLabel("View in").selectOption("hi");
  await expect(page.getByText("दो दशमलव तक लिखिए")).toBeVisible();
  const { tests } = await fromPage(page, "/api/tests");
  const attemptId = (tests as { _id: string; attempts: { _id: string }[] }[]).find((t) => t._id === mock)!.attempts[0]
    ._id;
  // The server has the place, so another device would open there too.
  await expect
    .poll(async () => (await fromPage(page, `/api/attempts/${attemptId}`)).attempt.resume)
    .toMatchObject({ language: "hi" });

  // A reload opens the same question in the same language.
  await page.reload();
  await expect(page.getByText("Question No. 3")).toBeVisible();
  await expect(page.getByLabel("View in")).toHaveValue("hi");
  await expect(page.getByText("दो दशमलव तक लिखिए")).toBeVisible();
  // So does leaving the test and coming back to it.
  await page.goto(`${t1}/student/mock-tests`);
  await page.goto(`${t1}/student/mock-tests/${mock}`);
  await expect(page.getByText("Question No. 3")).toBeVisible();
  await expect(page.getByLabel("View in")).toHaveValue("hi");

  const keypad = page.getByRole("group", { name: "Keypad" });
  for (const key of ["9", "Decimal point", "8", "1"])
    await keypad.getByRole("button", { name: key, exact: true }).click();
  await page.getByRole("button", { name: "SAVE & NEXT" }).click();
  await expect(page.getByText("Question No. 4")).toBeVisible();
  await page.getByRole("radio", { name: /\(C\)/ }).click();
  await page.getByRole("button", { name: "SAVE & NEXT" }).click();
  await expect(page.getByText("Question No. 5")).toBeVisible();
  await expect(page.getByText("All answers saved").first()).toBeVisible();

  // On a phone the summary shows each section's six counts, none cut off.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole("button", { name: "SUBMIT" }).click();
  const summary = page.getByRole("dialog", { name: "Exam Summary" });
  const physicsA = summary
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name: "Physics Section A" }) });
  const chemistryA = summary
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name: "Chemistry Section A" }) });
  const counts = async (card: typeof physicsA) =>
    Object.fromEntries(
      await card
        .locator("dl > div")
        .evaluateAll((rows) =>
          rows.map((row) => [row.querySelector("dt")!.textContent, Number(row.querySelector("dd")!.textContent)]),
        ),
    );
  expect(await counts(physicsA)).toEqual({
    Questions: 2,
    Answered: 2,
    "Not Answered": 0,
    "Marked for Review": 0,
    "Answered & Marked for Review": 0,
    "Not Visited": 0,
  });
  expect(await counts(chemistryA)).toEqual({
    Questions: 2,
    Answered: 1,
    "Not Answered": 1,
    "Marked for Review": 0,
    "Answered & Marked for Review": 0,
    "Not Visited": 0,
  });
  for (const value of await chemistryA.locator("dt, dd").all()) {
    await value.scrollIntoViewIfNeeded();
    await expect(value).toBeInViewport({ ratio: 1 });
    const box = (await value.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }
  await physicsA.scrollIntoViewIfNeeded();
  await shot(page, "1-phone-submit-summary");
  await summary.getByRole("button", { name: "Yes" }).click();

  // The result: Physics 4 − 1 + 4 = 7 of 12 (Sections A and B), Chemistry 4 of 8, each with its time.
  await expect(page).toHaveURL(`${t1}/student/mock-tests/attempts/${attemptId}/result`);
  await page.setViewportSize({ width: 1280, height: 900 });
  const subjects = page.getByRole("region", { name: "Subjects" });
  const physics = subjects.getByRole("row", { name: /^Physics/ });
  await expect(physics.getByRole("cell").nth(1)).toHaveText("7 / 12");
  await expect(physics.getByRole("cell").nth(2)).toHaveText("2");
  await expect(physics.getByRole("cell").nth(3)).toHaveText("1");
  await expect(physics.getByRole("cell").nth(6)).toHaveText(/^\d+ (s|min \d\d s)$/);
  const chemistry = subjects.getByRole("row", { name: /^Chemistry/ });
  await expect(chemistry.getByRole("cell").nth(1)).toHaveText("4 / 8");
  await expect(chemistry.getByRole("cell").nth(4)).toHaveText("1");
  await expect(
    page.getByRole("region", { name: "Sections" }).getByRole("columnheader", { name: "Time spent" }),
  ).toBeVisible();
  await expect(
    page.getByRole("region", { name: "Sections" }).getByRole("row", { name: /Physics Section B/ }),
  ).toContainText("4 / 4");
  await subjects.scrollIntoViewIfNeeded();
  await shot(page, "2-result-subjects");
});

test("practice mode marks a wrong choice as wrong and shows the correct one", async ({ page, playwright }) => {
  const title = `Practice ${unique()}`;
  const api = await playwright.request.newContext({ baseURL: platform });
  const { practice } = await publishTests(api, title);
  await signUpFromTest(page, practice, "Meera Iyer");
  await begin(page);
  await page.getByRole("radio", { name: /\(A\)/ }).click();
  await page.getByRole("button", { name: "SAVE & CHECK ANSWER" }).click();
  const solution = page.getByRole("region", { name: "Solution" });
  await expect(solution.getByText("Wrong: your answer (A) is not correct.")).toBeVisible();
  await expect(solution.getByText("Correct answer: (B)")).toBeVisible();
  const chosen = page.locator("label", { has: page.getByRole("radio", { name: /\(A\)/ }) });
  await expect(chosen).toHaveAttribute("data-mark", "wrong");
  await expect(chosen.getByText("Your answer: wrong")).toBeVisible();
  const right = page.locator("label", { has: page.getByRole("radio", { name: /\(B\)/ }) });
  await expect(right).toHaveAttribute("data-mark", "correct");
  await expect(right.getByText("Correct answer")).toBeVisible();
  await shot(page, "3-practice-wrong-choice");
});
