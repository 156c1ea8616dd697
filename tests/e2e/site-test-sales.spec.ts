import { expect, test } from "./fixtures.ts";
import {
  asDemoCreator,
  fillStudentSignUp,
  publishTest,
  signUpStudentOnSite,
  unique,
  writeQuestions,
} from "./journeys.ts";

/**
 * Issue 38 §4: a test series sold on the institute's own site. A visitor on Sunrise Academy's
 * domain sees the series in the site's Mock Tests block with its price, clicks Buy, signs up on the
 * way, comes back to Checkout, pays in the payment sandbox, and opens a test of the series.
 */

const port = Number(process.env.E2E_PORT);
const sunrise = `http://demo-t1.localhost:${port}`;

test("a visitor on the institute's site buys a test series, signing up on the way, and opens one of its tests", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const stamp = unique();
  const seriesTitle = `JEE Main Full Mock Series ${stamp}`;
  const titles = [`Full Mock 1 ${stamp}`, `Full Mock 2 ${stamp}`];

  // The creator publishes two ₹99 tests of Sunrise Academy and sells them as a ₹499 series, through the API.
  const creator = await asDemoCreator(page.request);
  const [questionId] = await writeQuestions(creator, [
    {
      type: "single",
      text: "The SI unit of force is",
      options: ["newton", "joule", "watt", "pascal"],
      answer: 0,
    },
  ]);
  const testIds: string[] = [];
  for (const title of titles)
    testIds.push(await publishTest(creator, { title, price: 99, durationMinutes: 30, questions: [questionId] }));
  const series = await page.request.post("/api/series", {
    headers: creator.headers,
    data: { title: seriesTitle, businessId: creator.businessId, price: 499, tests: testIds },
  });
  expect(series.status()).toBe(201);
  const seriesId = (await series.json()).series._id as string;

  // A visitor on the institute's own domain: the Mock Tests block lists the series with its price.
  await page.context().clearCookies();
  await page.goto(`${sunrise}/`);
  const block = page.locator("#mock-tests");
  await expect(block.getByRole("heading", { name: "Mock Tests" })).toBeVisible();
  const offer = block.locator(`[data-test-offer="${seriesId}"]`);
  await expect(offer.getByText(seriesTitle)).toBeVisible();
  await expect(offer.getByText("Test series · 2 tests")).toBeVisible();
  await expect(offer.getByText("₹499", { exact: true })).toBeVisible();
  await expect(block.locator(`[data-test-offer="${testIds[0]}"]`).getByText("₹99", { exact: true })).toBeVisible();

  // Buy: the catalog asks them to sign up as the institute's student first.
  await offer.getByRole("link", { name: "Buy" }).click();
  await expect(page).toHaveURL(/\/auth\?role=student&redirectTo=%2Fcatalog%3Fbuy%3D.+&mode=register$/);
  await expect(page.getByText("Sunrise Academy").first()).toBeVisible();
  await fillStudentSignUp(page, "Meera Nair");

  // Back on the institute's catalog, Checkout opens for the series, in the institute's name, priced by the server.
  const checkout = page.getByRole("dialog", { name: "Sunrise Academy" });
  await expect(checkout.getByText("Test mode — no real money")).toBeVisible();
  await expect(checkout.getByText("₹499.00", { exact: true })).toBeVisible();
  expect(new URL(page.url()).host).toBe(`demo-t1.localhost:${port}`);
  expect(new URL(page.url()).pathname).toBe("/catalog");
  await checkout.getByRole("button", { name: "Pay ₹499.00" }).click();
  await expect(page.getByText("Payment successful").first()).toBeVisible();
  await expect(page.getByText(`You're enrolled in ${seriesTitle}.`)).toBeVisible();
  await expect(checkout).toBeHidden();

  // The series' card now opens each of its tests; neither asks to be bought.
  const card = page.locator(`article#content-${seriesId}`);
  await expect(card.getByText("Enrolled")).toBeVisible();
  const list = card.getByRole("list", { name: `Tests in ${seriesTitle}` });
  for (const title of titles) {
    const item = list.getByRole("listitem").filter({ hasText: title });
    await expect(item.getByRole("link", { name: "Start Test" })).toBeVisible();
  }
  const single = page.locator(`article#content-${testIds[1]}`);
  await expect(single.getByRole("link", { name: "Start Test" })).toBeVisible();
  await expect(single.getByRole("button", { name: /^Buy/ })).toHaveCount(0);

  // A test of the series opens: its instructions, then the exam screen with the server's clock.
  await list.getByRole("listitem").filter({ hasText: titles[1] }).getByRole("link", { name: "Start Test" }).click();
  await expect(page).toHaveURL(`${sunrise}/student/mock-tests/${testIds[1]}`);
  await expect(page.getByRole("heading", { name: titles[1], level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "General Instructions" })).toBeVisible();
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByRole("checkbox", { name: /I have read and understood the instructions/ }).check();
  await page.getByRole("button", { name: "I am ready to begin" }).click();
  await expect(page.getByLabel(/^Time Left 00:(29|30):\d\d$/)).toBeVisible();
  await expect(page.getByText("Question No. 1")).toBeVisible();
});

test("a student buys a single test from the site's Buy and it opens; a free test they have used up shows their result, not 'Take the free test'", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const stamp = unique();
  const paidTitle = `Optics Mock ${stamp}`;
  const freeTitle = `Free Optics Quiz ${stamp}`;

  const creator = await asDemoCreator(page.request);
  const [questionId] = await writeQuestions(creator, [
    { type: "single", text: "Light travels fastest in", options: ["vacuum", "glass", "water", "air"], answer: 0 },
  ]);
  const publish = (title: string, price: number) =>
    publishTest(creator, { title, price, durationMinutes: 10, questions: [questionId] });
  const paid = await publish(paidTitle, 99);
  const free = await publish(freeTitle, 0);

  // A new student of Sunrise, signed in on its domain.
  await signUpStudentOnSite(page, "Arjun Menon");

  // Their Mock Tests page sells the institute's series too (the demo's), priced, with the tests it opens.
  await page.goto(`${sunrise}/student/mock-tests`);
  const seriesSection = page.getByRole("region", { name: "Test series" });
  const demoSeries = seriesSection.locator("article").filter({ hasText: "JEE Main Mock Series 2026" });
  await expect(demoSeries.getByText("Test series · 2 tests")).toBeVisible();
  await expect(demoSeries.getByRole("button", { name: "Buy ₹199" })).toBeVisible();
  await expect(demoSeries.getByRole("list", { name: "Tests in JEE Main Mock Series 2026" })).toContainText(
    "JEE Main Mock Test 2",
  );

  // Buy on the home page opens Checkout at once; paid, the test's own page opens.
  await page.goto(`${sunrise}/`);
  await page.locator(`#mock-tests [data-test-offer="${paid}"]`).getByRole("link", { name: "Buy" }).click();
  const checkout = page.getByRole("dialog", { name: "Sunrise Academy" });
  await expect(checkout.getByText("₹99.00", { exact: true })).toBeVisible();
  await checkout.getByRole("button", { name: "Pay ₹99.00" }).click();
  await expect(page).toHaveURL(`${sunrise}/student/mock-tests/${paid}`);
  await expect(page.getByRole("heading", { name: paidTitle, level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "General Instructions" })).toBeVisible();

  // The free test, taken once (its one attempt), through the API as the screen would.
  const attemptId = await page.evaluate(async (testId) => {
    const post = (path: string) =>
      fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }).then((r) =>
        r.json(),
      );
    const { attempt } = await post(`/api/tests/${testId}/attempts`);
    await post(`/api/attempts/${attempt._id}/submit`);
    return attempt._id as string;
  }, free);

  // The home page is the same for everyone and still offers it; the student's click shows their state instead.
  await page.goto(`${sunrise}/`);
  await page
    .locator(`#mock-tests [data-test-offer="${free}"]`)
    .getByRole("link", { name: "Take the free test" })
    .click();
  await expect(page).toHaveURL(`${sunrise}/student/mock-tests/${free}`);
  await expect(page.getByRole("heading", { name: freeTitle, level: 1 })).toBeVisible();
  await expect(page.getByText("Attempted", { exact: true })).toBeVisible();
  await expect(page.getByText("You have used all your attempts at this test.")).toBeVisible();
  await expect(page.getByRole("button", { name: "I am ready to begin" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "View your result" })).toHaveAttribute(
    "href",
    `/student/mock-tests/attempts/${attemptId}/result`,
  );

  // On the catalog, where the student is known, it is "Attempted" with the result, not offered again.
  await page.goto(`${sunrise}/catalog#mock-tests`);
  const card = page.locator(`article#content-${free}`);
  await expect(card.getByText("Attempted", { exact: true })).toBeVisible();
  await expect(card.getByRole("link", { name: "View result" })).toHaveAttribute(
    "href",
    `/student/mock-tests/attempts/${attemptId}/result`,
  );
  await expect(card.getByRole("link", { name: "Take the free test" })).toHaveCount(0);
});
