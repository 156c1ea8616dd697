import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { asDemoCreator, publishTest, signUpFromTest, unique, writeQuestions } from "./journeys.ts";

const port = Number(process.env.E2E_PORT);
const platform = `http://localhost:${port}`;
const t1 = `http://demo-t1.localhost:${port}`;
const SUBMIT_QUESTION =
  "Are you sure you want to submit for final marking? No changes will be allowed after submission.";

let addresses = 0;
/**
 * A request context of its own address (the per-address limits count each apart). It asks the
 * server's own address, naming the institute's domain in Host (this client does not resolve *.localhost).
 */
async function apiAt(
  playwright: { request: { newContext: (o: object) => Promise<APIRequestContext> } },
  host?: string,
) {
  addresses += 1;
  return playwright.request.newContext({
    baseURL: platform,
    extraHTTPHeaders: {
      "x-forwarded-for": `10.251.${(Date.now() >> 8) & 255}.${(addresses * 7 + Date.now()) & 255}`,
      ...(host ? { host } : {}),
    },
  });
}

/** A JSON call from the page itself (its session cookie, its domain). */
const fromPage = (page: Page, path: string) =>
  page.evaluate(async (url) => (await fetch(url, { headers: { accept: "application/json" } })).json(), path);

const single = (text: string, options: string[], answer: number) => ({
  type: "single",
  text,
  options,
  answer,
  solution: `Option (${String.fromCharCode(65 + answer)}) is right: ${options[answer]}.`,
  tags: { subject: "Physics", difficulty: "easy" },
});
const numerical = (text: string, value: number) => ({
  type: "numerical",
  text,
  answer: { value, tolerance: 0.01 },
  decimals: { places: 2, mode: "round" },
  solution: `The value is $${value}$.`,
});

/**
 * The demo creator (on Sunrise Academy's team) writes the questions and publishes a JEE-Main-like
 * mock with small sections of its own, free, and a paid one; both through the API.
 */
async function publishMocks(api: APIRequestContext, title: string) {
  const creator = await asDemoCreator(api);
  const physicsA = await writeQuestions(creator, [
    single(
      "A ball is thrown up at $u = 10\\,\\text{m/s}$. Its speed at the top is",
      ["10 m/s", "0 m/s", "5 m/s", "20 m/s"],
      1,
    ),
    single("The SI unit of force is", ["newton", "joule", "watt", "pascal"], 0),
    single("Which quantity is a vector?", ["mass", "speed", "velocity", "time"], 2),
  ]);
  const physicsB = await writeQuestions(creator, [
    numerical("Take $g$ in $\\text{m/s}^2$, to two decimals.", 9.81),
    numerical("$\\sqrt{25}$ equals", 5),
  ]);
  const chemistryA = await writeQuestions(creator, [
    single("The atomic number of carbon is", ["4", "8", "6", "12"], 2),
    single("Water is", ["$H_2O$", "$CO_2$", "$O_2$", "$NaCl$"], 0),
  ]);
  const create = (name: string, price: number, sections: { name: string; questions: string[] }[]) =>
    publishTest(creator, { title: name, pattern: "jee-main-2025", durationMinutes: 30, price, sections });
  const free = await create(title, 0, [
    { name: "Physics Section A", questions: physicsA },
    { name: "Physics Section B", questions: physicsB },
    { name: "Chemistry Section A", questions: chemistryA },
  ]);
  const paid = await create(`${title} (paid)`, 199, [{ name: "Physics Section A", questions: [physicsA[0]] }]);
  return { free, paid };
}

/** Another student of the institute sits the test and submits it blank, so that ranks have two takers. */
async function blankTaker(api: APIRequestContext, testId: string) {
  const res = await api.post("/api/auth/register", {
    data: {
      name: "Other Taker",
      email: `other.${unique()}@example.com`,
      password: "tangerine-kettle-42",
      role: "student",
    },
  });
  expect(res.status()).toBe(201);
  const headers = { authorization: `Bearer ${(await res.json()).access_token}` };
  const started = await api.post(`/api/tests/${testId}/attempts`, { headers });
  expect(started.status()).toBe(200);
  const { attempt } = await started.json();
  expect((await api.post(`/api/attempts/${attempt._id}/submit`, { headers, data: { by: "student" } })).status()).toBe(
    200,
  );
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: false });

const palette = (page: Page, n: number) => page.getByRole("button", { name: new RegExp(`^Question ${n}, `) });

test("on an institute's domain a student signs up from a free mock, takes it through a network cut, submits, and sees score, rank and percentile", async ({
  page,
  context,
  playwright,
}) => {
  test.setTimeout(150_000);
  const title = `JEE Main Mock ${unique()}`;
  const creator = await apiAt(playwright);
  const { free, paid } = await publishMocks(creator, title);
  await blankTaker(await apiAt(playwright, new URL(t1).host), free);

  // A visitor opening the free test is asked to sign up as the institute's student, then comes back to it.
  await signUpFromTest(page, free, "Kiran Rao", { institute: "Sunrise Academy" });
  await expect(page.getByRole("heading", { name: title, level: 1 })).toBeVisible();

  // The list: both tests with their facts; the paid one offers to buy it.
  await page.goto(`${t1}/student/mock-tests`);
  const card = page.locator("article").filter({ has: page.getByRole("heading", { name: title, exact: true }) });
  await expect(card.getByText("JEE Main 2025")).toBeVisible();
  await expect(card.getByText("Free")).toBeVisible();
  await expect(card.getByText("30 min")).toBeVisible();
  await expect(card.getByText("Take it any time")).toBeVisible();
  await expect(card.locator("dd").nth(1)).toHaveText("7");
  await expect(card.locator("dd").nth(2)).toHaveText("28");
  const paidCard = page.locator("article").filter({ has: page.getByRole("heading", { name: `${title} (paid)` }) });
  await expect(paidCard.getByRole("button", { name: "Buy ₹199" })).toBeVisible();
  await shot(page, "1-list");

  // Instructions: two pages, the declaration; nothing starts before 'I am ready to begin'.
  await card.getByRole("link", { name: "Start Test" }).click();
  await expect(page).toHaveURL(`${t1}/student/mock-tests/${free}`);
  await expect(page.getByRole("heading", { name: "General Instructions" })).toBeVisible();
  await expect(page.getByText("The total duration of the test is 30 minutes.")).toBeVisible();
  await shot(page, "2-instructions");
  await page.getByRole("button", { name: "Next" }).click();
  await expect(
    page.getByText("This paper has 3 sections and 7 questions for 28 marks, to be answered in 30 minutes."),
  ).toBeVisible();
  await expect(page.getByRole("row", { name: /Physics Section B/ })).toContainText("2 × Numerical value");
  const begin = page.getByRole("button", { name: "I am ready to begin" });
  await expect(begin).toBeDisabled();
  const attemptsOf = async (testId = free) => {
    const { tests } = await fromPage(page, "/api/tests");
    return (tests as { _id: string; attempts: { _id: string }[] }[]).find((t) => t._id === testId)!.attempts;
  };
  expect(await attemptsOf()).toEqual([]);
  await page.getByRole("checkbox", { name: /I have read and understood the instructions/ }).check();
  await shot(page, "3-declaration");
  await begin.click();

  // The screen: the server's clock, the first question.
  await expect(page.getByLabel(/^Time Left 00:(29|30):\d\d$/)).toBeVisible();
  await expect(page.getByText("Question No. 1")).toBeVisible();
  const [{ _id: attemptId }] = await attemptsOf();
  await page.getByRole("radio", { name: /\(B\)/ }).click();
  await page.getByRole("button", { name: "SAVE & NEXT" }).click();
  await expect(page.getByText("Question No. 2")).toBeVisible();
  await page.getByRole("radio", { name: /\(A\)/ }).click();
  await page.getByRole("button", { name: "SAVE & MARK FOR REVIEW" }).click();
  await expect(page.getByText("Question No. 3")).toBeVisible();
  await page.getByRole("button", { name: "MARK FOR REVIEW & NEXT" }).click();
  await expect(palette(page, 4)).toBeVisible();
  await expect(page.getByText("All answers saved").first()).toBeVisible();
  await shot(page, "4-screen-desktop");

  // The network drops: answers made now wait on this device and the screen says so.
  await context.setOffline(true);
  const keypad = page.getByRole("group", { name: "Keypad" });
  for (const key of ["9", "Decimal point", "8", "1"])
    await keypad.getByRole("button", { name: key, exact: true }).click();
  await expect(page.getByLabel("Your answer")).toHaveValue("9.81");
  await page.getByRole("button", { name: "SAVE & NEXT" }).click();
  await expect(page.getByText("Question No. 5")).toBeVisible();
  for (const key of ["Minus", "2"]) await keypad.getByRole("button", { name: key, exact: true }).click();
  await page.getByRole("button", { name: "SAVE & NEXT" }).click();
  await expect(page.getByText("Question No. 6")).toBeVisible();
  await page.getByRole("radio", { name: /\(C\)/ }).click();
  await page.getByRole("button", { name: "SAVE & NEXT" }).click();
  await expect(page.getByText("Offline — 3 answers will be sent when you reconnect").first()).toBeVisible();
  await shot(page, "5-screen-offline");
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, "6-screen-phone");
  await page.setViewportSize({ width: 1280, height: 720 });

  // Back online: the queue empties and the server holds every answer.
  await context.setOffline(false);
  await expect(page.getByText("All answers saved").first()).toBeVisible({ timeout: 30_000 });
  const { attempt } = await fromPage(page, `/api/attempts/${attemptId}`);
  const saved = Object.values(attempt.responses as Record<string, { answer: unknown; markedForReview: boolean }>);
  expect(saved.filter((r) => r.answer !== null).map((r) => r.answer)).toEqual(
    expect.arrayContaining([1, 0, "9.81", "-2", 2]),
  );
  // A reload resumes the same sitting with its saved states.
  await page.reload();
  await expect(page.getByLabel(/^Time Left 00:(2\d|30):\d\d$/)).toBeVisible();
  await page.getByRole("button", { name: "Physics Section A" }).first().click();
  await expect(palette(page, 1)).toHaveAccessibleName("Question 1, Answered");
  await expect(palette(page, 2)).toHaveAccessibleName("Question 2, Answered & Marked for Review");
  await expect(palette(page, 3)).toHaveAccessibleName("Question 3, Marked for Review");

  // Submit: the summary, the NTA's question, Yes.
  await page.getByRole("button", { name: "SUBMIT" }).click();
  const summary = page.getByRole("dialog", { name: "Exam Summary" });
  await expect(summary.getByText(SUBMIT_QUESTION)).toBeVisible();
  await summary.getByRole("button", { name: "Yes" }).click();

  // The result: 4 + 4 (answered & marked is evaluated) + 4 − 1 + 4 = 15 of 28; first of two takers.
  await expect(page).toHaveURL(`${t1}/student/mock-tests/attempts/${attemptId}/result`);
  await expect(page.getByRole("heading", { name: title, level: 1 })).toBeVisible();
  const overview = page.getByRole("region", { name: "Your score" });
  await expect(overview.getByText("15 / 28")).toBeVisible();
  await expect(overview.getByText("100 percentile among 2 takers")).toBeVisible();
  await expect(overview.locator("dt", { hasText: "Rank" }).locator("+ dd")).toHaveText("1");
  await expect(overview.getByText("4 correct of 5 attempted")).toBeVisible();
  await expect(page.getByRole("row", { name: /Physics Section B/ })).toContainText("3 / 8");
  const q5 = page.getByRole("article", { name: "Question 5" });
  await expect(q5.getByText("Your answer: -2")).toBeVisible();
  await expect(q5.getByText("Correct answer: 5 ± 0.01")).toBeVisible();
  await expect(q5.getByLabel("Marks")).toHaveText("−1");
  await shot(page, "7-result");
  await q5.screenshot({ path: test.info().outputPath("8-result-review.png") });
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, "9-result-phone");
  await page.setViewportSize({ width: 1280, height: 720 });

  // Back on the list: the attempt with its score and result; the one attempt allowed is used.
  await page.goto(`${t1}/student/mock-tests`);
  await expect(card.getByRole("list", { name: "Your attempts" })).toContainText("Attempt 1 · 15 / 28");
  await expect(card.getByRole("link", { name: "View result" })).toHaveAttribute(
    "href",
    `/student/mock-tests/attempts/${attemptId}/result`,
  );
  await expect(card.getByRole("button", { name: "No attempts left" })).toBeDisabled();

  // The server's refusals, in its words: no attempts left (409), and a paid test not bought (402) with Buy.
  const beginAgain = async (testId: string) => {
    await page.goto(`${t1}/student/mock-tests/${testId}`);
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("checkbox", { name: /I have read and understood the instructions/ }).check();
    await page.getByRole("button", { name: "I am ready to begin" }).click();
    return page.getByRole("alertdialog");
  };
  // Used up, the test's page says so at once and links the result (issue 38 §4); the server refuses a new sitting.
  await page.goto(`${t1}/student/mock-tests/${free}`);
  await expect(page.getByText("You have used all your attempts at this test.")).toBeVisible();
  await expect(page.getByText("Attempted", { exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "View your result" })).toHaveAttribute(
    "href",
    `/student/mock-tests/attempts/${attemptId}/result`,
  );
  await expect(page.getByRole("button", { name: "I am ready to begin" })).toHaveCount(0);
  const refused = await page.evaluate(async (path) => {
    const res = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    return { status: res.status, body: await res.json() };
  }, `/api/tests/${free}/attempts`);
  expect(refused).toMatchObject({ status: 409, body: { error: "You have used all your attempts at this test" } });
  const unpaid = await beginAgain(paid);
  await expect(unpaid.getByRole("heading", { name: "Buy this test to take it" })).toBeVisible();
  await expect(unpaid).toContainText("This test costs ₹199. Once you have bought it, you can begin.");
  await expect(unpaid.getByRole("button", { name: "Buy ₹199" })).toBeVisible();
  await shot(page, "10-buy-first");
  expect(await attemptsOf(paid)).toEqual([]);
});
