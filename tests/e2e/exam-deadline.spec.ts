import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { chooseInstitute, publishTestAsCreator, signIn, signUpStudentOnSite, unique } from "./journeys.ts";

/**
 * Issue 38 §2 and §3 in the browser: answers made offline before time was up count on the result,
 * with a note saying so; minutes granted during a sitting reach the open screen's timer. A sitting
 * ends at its test's window when that comes first, so a window closing shortly after the start
 * brings the deadline within the test instead of 30 real minutes.
 */

const port = Number(process.env.E2E_PORT);
const platform = `http://localhost:${port}`;
const t1 = `http://demo-t1.localhost:${port}`;

let addresses = 0;
async function api(playwright: { request: { newContext: (o: object) => Promise<APIRequestContext> } }) {
  addresses += 1;
  return playwright.request.newContext({
    baseURL: platform,
    extraHTTPHeaders: { "x-forwarded-for": `10.252.${(Date.now() >> 8) & 255}.${(addresses * 11 + Date.now()) & 255}` },
  });
}

/** A published free test of three single-correct questions (answers B, C, A), with an optional window close. */
const publishFreeTest = (request: APIRequestContext, title: string, closesAt?: Date) =>
  publishTestAsCreator(request, {
    title,
    pattern: "custom",
    durationMinutes: 30,
    price: 0,
    closesAt,
    questions: (
      [
        ["The SI unit of force is", 1],
        ["Which quantity is a vector?", 2],
        ["Water is", 0],
      ] as const
    ).map(([text, answer]) => ({
      text,
      options: ["first", "second", "third", "fourth"],
      answer,
      tags: { subject: "Physics", difficulty: "easy" },
    })),
  });

async function begin(page: Page, testId: string) {
  await page.goto(`${t1}/student/mock-tests/${testId}`);
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByRole("checkbox", { name: /I have read and understood the instructions/ }).check();
  await page.getByRole("button", { name: "I am ready to begin" }).click();
  await expect(page.getByText("Question No. 1")).toBeVisible();
}

const answer = async (page: Page, option: string) => {
  await page.getByRole("radio", { name: new RegExp(`\\(${option}\\)`) }).click();
  await page.getByRole("button", { name: "SAVE & NEXT" }).click();
};

test("answers made offline before time was up count on the result, with a note that says so", async ({
  page,
  context,
  browser,
  playwright,
}) => {
  test.setTimeout(240_000);
  const title = `Offline deadline test ${unique()}`;
  await signUpStudentOnSite(page, "Nisha Offline");
  // The window closes 30 s from now: the sitting's deadline.
  const { id } = await publishFreeTest(await api(playwright), title, new Date(Date.now() + 30_000));
  await begin(page, id);
  await expect(page.getByLabel(/^Time Left 00:00:[0-4]\d$/)).toBeVisible();

  await answer(page, "B");
  await expect(page.getByText("Question No. 2")).toBeVisible();
  await expect(page.getByText("All answers saved").first()).toBeVisible();

  // The network drops before the end; two more answers are made in time, and wait on this device.
  await context.setOffline(true);
  await answer(page, "C");
  await expect(page.getByText("Question No. 3")).toBeVisible();
  await page.getByRole("radio", { name: /\(A\)/ }).click();
  await page.getByRole("button", { name: "SAVE & NEXT" }).click();
  await expect(page.getByText("Offline — 2 answers will be sent when you reconnect").first()).toBeVisible();

  // Time runs out while offline: the screen cannot submit yet and says why.
  const overlay = page.getByRole("alert").filter({ hasText: "Time is up. Submitting your test…" });
  await expect(overlay).toBeVisible({ timeout: 60_000 });
  await expect(overlay).toContainText("Offline — 2 answers will be sent when you reconnect");
  await page.screenshot({ path: test.info().outputPath("1-time-up-offline.png") });

  // Back online after the deadline: the answers arrive, are judged by when they were made, and count.
  await context.setOffline(false);
  await expect(page).toHaveURL(/\/student\/mock-tests\/attempts\/[0-9a-f-]+\/result$/, { timeout: 30_000 });
  const overview = page.getByRole("region", { name: "Your score" });
  await expect(overview.getByText("12 / 12")).toBeVisible();
  const note = page.getByRole("region", { name: "Answers made offline" });
  await expect(note.getByText("2 answers reached the server after time was up: 2 counted.")).toBeVisible();
  for (const n of [2, 3]) {
    const item = note.getByRole("listitem", { name: `Question ${n}` });
    await expect(item.getByText("Counted", { exact: true })).toBeVisible();
    await expect(item).toContainText(
      /Made at \d{1,2}:\d\d:\d\d [ap]m, before time was up; reached the server at \d{1,2}:\d\d:\d\d [ap]m, after time was up: counted\./,
    );
  }
  await expect(page.getByRole("article", { name: "Question 3" }).getByLabel("Marks")).toHaveText("+4");
  await page.screenshot({ path: test.info().outputPath("2-result-late-note.png"), fullPage: true });

  // The institute's owner sees them in the test's results, and sets what late answers do.
  const owner = await (
    await browser.newContext({
      baseURL: platform,
      extraHTTPHeaders: { "x-forwarded-for": `10.253.${(Date.now() >> 8) & 255}.${Date.now() & 255}` },
    })
  ).newPage();
  await signIn(owner, "business@example.com", "demo-business-2025", "business");
  // The Tests pages show the institute chosen in the header (the demo owner has two): Sunrise's test.
  await owner.goto(`/business/tests`);
  await chooseInstitute(owner, "Sunrise Academy");
  await expect(owner).toHaveURL(/\/business\/tests$/);
  await owner.goto(`/business/tests/${id}`);
  const late = owner.getByRole("table").filter({ has: owner.getByRole("columnheader", { name: "Decision" }) });
  await expect(owner.getByText("Answers that arrived after time was up")).toBeVisible();
  await expect(late.getByRole("row", { name: /Nisha Offline/ })).toHaveCount(2);
  await expect(late.getByRole("row", { name: /Q2/ })).toContainText("Counted");
  await owner.screenshot({ path: test.info().outputPath("4-institute-late-answers.png"), fullPage: true });
  await owner.goto("/business/site");
  const rule = owner.locator("#late-answers");
  await expect(rule.getByRole("heading", { name: "Answers made offline" })).toBeVisible();
  await expect(rule.getByLabel("Grace period (minutes after the deadline)")).toHaveValue("10");
  await rule.getByLabel("Answers made in time that arrive late").selectOption("review");
  await rule.getByRole("button", { name: "Save" }).click();
  await expect(owner.getByText("Saved: answers made offline follow the new setting")).toBeVisible();
  await owner.reload();
  await expect(owner.locator("#late-answers").getByLabel("Answers made in time that arrive late")).toHaveValue(
    "review",
  );
  await owner.locator("#late-answers").screenshot({ path: test.info().outputPath("5-institute-rule.png") });
  // Back to the default for the other tests of the demo institute.
  await owner.locator("#late-answers").getByLabel("Answers made in time that arrive late").selectOption("count");
  await owner.locator("#late-answers").getByRole("button", { name: "Save" }).click();
  await expect(owner.getByText("Saved: answers made offline follow the new setting")).toBeVisible();
});

test("minutes granted during a sitting reach the open screen's timer within seconds", async ({ page, playwright }) => {
  test.setTimeout(120_000);
  const request = await api(playwright);
  await signUpStudentOnSite(page, "Ravi Extra");
  const { id, headers } = await publishFreeTest(request, `Extra time test ${unique()}`);
  await begin(page, id);
  await expect(page.getByLabel(/^Time Left 00:(29|30):\d\d$/)).toBeVisible();
  const { tests } = await page.evaluate(async () =>
    (await fetch("/api/tests", { headers: { accept: "application/json" } })).json(),
  );
  const attemptId = (tests as { _id: string; attempts: { _id: string }[] }[]).find((t) => t._id === id)!.attempts[0]
    ._id;

  // The institute grants 5 minutes; the student saves nothing: the screen's light poll brings them.
  const granted = await request.post(`/api/attempts/${attemptId}/extra-time`, { headers, data: { minutes: 5 } });
  expect(granted.status()).toBe(200);
  await expect(page.getByLabel(/^Time Left 00:3[45]:\d\d$/)).toBeVisible({ timeout: 10_000 });
  await page.screenshot({ path: test.info().outputPath("3-extra-time.png") });
});

test("a screen whose clock runs ahead submits at its zero, the server refuses it before the deadline, and the test goes on", async ({
  page,
  playwright,
}) => {
  test.setTimeout(120_000);
  await signUpStudentOnSite(page, "Tara Fastclock");
  const { id } = await publishFreeTest(await api(playwright), `Fast clock test ${unique()}`);
  // The browser's clocks (Date, performance.now, timers) are the test's to move.
  await page.clock.install();
  await begin(page, id);
  await expect(page.getByLabel(/^Time Left 00:(29|30):\d\d$/)).toBeVisible();

  // The screen's clock jumps 30 minutes (a suspended laptop's clock, a wrong clock): at its zero it
  // submits by itself; the server's deadline is still ~30 minutes away, so it refuses and the
  // screen counts on from the server's time.
  const submitted = page.waitForResponse((r) => r.url().endsWith("/submit") && r.request().method() === "POST");
  await page.clock.fastForward("30:05");
  const refusal = await submitted;
  expect(refusal.status()).toBe(409);
  expect(await refusal.json()).toMatchObject({
    message: "Time is not up yet: the test goes on until its deadline",
    deadline: expect.any(String),
  });
  expect(JSON.parse(refusal.request().postData() ?? "{}")).toEqual({ by: "clock" });
  await expect(page.getByLabel(/^Time Left 00:(29|30):\d\d$/)).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText("Question No. 1")).toBeVisible();
  const { tests } = await page.evaluate(async () =>
    (await fetch("/api/tests", { headers: { accept: "application/json" } })).json(),
  );
  const [attempt] = (tests as { _id: string; attempts: { submittedAt: string | null }[] }[]).find(
    (t) => t._id === id,
  )!.attempts;
  expect(attempt.submittedAt).toBeNull();
});

test("answers kept on a device whose screen was closed offline are sent from the result page, judged and told", async ({
  page,
  context,
  playwright,
}) => {
  test.setTimeout(180_000);
  await signUpStudentOnSite(page, "Kabir Closedtab");
  const { id } = await publishFreeTest(
    await api(playwright),
    `Closed tab test ${unique()}`,
    new Date(Date.now() + 30_000),
  );
  await begin(page, id);
  const { tests } = await page.evaluate(async () =>
    (await fetch("/api/tests", { headers: { accept: "application/json" } })).json(),
  );
  const attemptId = (tests as { _id: string; attempts: { _id: string }[] }[]).find((t) => t._id === id)!.attempts[0]
    ._id;
  await answer(page, "B");
  await expect(page.getByText("All answers saved").first()).toBeVisible();
  await context.setOffline(true);
  await answer(page, "C");
  await expect(page.getByText("Offline — 1 answer will be sent when you reconnect").first()).toBeVisible();
  // The tab is closed with the answer still on this device; the server's clock ends the sitting.
  await page.close();
  await context.setOffline(false);
  const later = await context.newPage();
  await later.goto(`${t1}/student`);
  await expect
    .poll(
      () =>
        later.evaluate(
          async (path) => (await (await fetch(path, { headers: { accept: "application/json" } })).json()).status,
          `/api/attempts/${attemptId}/clock`,
        ),
      { timeout: 90_000, intervals: [2_000] },
    )
    .toBe("submitted");

  await later.goto(`${t1}/student/mock-tests/attempts/${attemptId}/result`);
  const note = later.getByRole("region", { name: "Answers made offline" });
  await expect(note.getByText("1 answer reached the server after time was up: 1 counted.")).toBeVisible();
  await expect(later.getByRole("region", { name: "Your score" }).getByText("8 / 12")).toBeVisible();
});
