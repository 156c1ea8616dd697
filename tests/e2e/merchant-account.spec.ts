import { expect, test } from "./fixtures.ts";
import { publishTestAsCreator, signUpStudentOnSite, unique } from "./journeys.ts";

/**
 * Issue 40 part 3 (decision 0040): the institute is the merchant of record. Its owner disconnects
 * the demo's sandbox account (its paid items turn 'Not on sale yet' for students), connects another
 * sandbox account by its keys on Website Details, and a student's purchase settles in that account.
 * Refunding it is the institute's decision: its owner refunds it on Student Payments, and the
 * student's access to what they bought ends.
 */

const port = Number(process.env.E2E_PORT);
const sunrise = `http://demo-t1.localhost:${port}`;

test("the owner connects a sandbox Razorpay account on Website Details, and a student's purchase settles in it", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const title = `Merchant optics mock ${unique()}`;
  const { id: testId } = await publishTestAsCreator(page.request, {
    title,
    price: 99,
    durationMinutes: 20,
    questions: [
      { text: "The focal length of a plane mirror is", options: ["infinite", "zero", "1 m", "2 m"], answer: 0 },
    ],
  });

  // The owner of Sunrise Academy, on its own site, opens Website Details: the demo's account is connected.
  await page.context().clearCookies();
  await page.goto(`${sunrise}/auth?role=business&mode=login`);
  await page.getByLabel("Email").fill("business@example.com");
  await page.getByLabel("Password", { exact: true }).fill("demo-business-2025");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/business$/);
  await page.goto(`${sunrise}/business/site`);
  const payments = page.locator("#payments");
  await expect(payments.getByRole("heading", { name: "Payments" })).toBeVisible();
  await expect(payments.getByText("Connected", { exact: true })).toBeVisible();

  // Disconnected: the owner is told why students cannot buy.
  await payments.getByRole("button", { name: "Disconnect" }).click();
  await expect(page.getByText("Razorpay account disconnected").first()).toBeVisible();
  await expect(
    payments.getByText(/Students can't buy your paid items until you connect your Razorpay account/),
  ).toBeVisible();
  await page.goto(`${sunrise}/business`);
  await expect(page.getByRole("region", { name: "Payments" })).toContainText("Students can't buy your paid items");

  // A student of Sunrise sees the paid test 'Not on sale yet', and no Buy.
  const student = await browser.newContext();
  const studentPage = await student.newPage();
  await signUpStudentOnSite(studentPage, "Kavya Rao");
  await studentPage.goto(`${sunrise}/student/mock-tests`);
  const card = studentPage
    .locator("article")
    .filter({ has: studentPage.getByRole("heading", { name: title, exact: true }) });
  await expect(card.getByRole("button", { name: "Not on sale yet" })).toBeDisabled();
  await expect(card.getByRole("button", { name: "Buy ₹99" })).toHaveCount(0);
  await studentPage.screenshot({ path: test.info().outputPath("not-on-sale.png"), fullPage: true });
  // The institute's home page says so too, where it would have offered 'Buy'.
  await studentPage.goto(`${sunrise}/`);
  await expect(studentPage.locator(`[data-test-offer="${testId}"]`)).toContainText("Not on sale yet");
  await studentPage.goto(`${sunrise}/student/mock-tests`);

  // The sandbox's dashboard makes a test account; the owner copies its keys into Website Details.
  const dashboard = await page.context().newPage();
  await dashboard.goto(`${sunrise}/_sandbox/razorpay/accounts/new`);
  const keyId = await dashboard.getByLabel("Key id").inputValue();
  const keySecret = await dashboard.getByLabel("Key secret").inputValue();
  const webhookSecret = await dashboard.getByLabel("Webhook secret").inputValue();
  expect(keyId).toMatch(/^rzp_test_[A-Za-z0-9]{14}$/);
  await dashboard.close();

  await page.goto(`${sunrise}/business/site`);
  // A wrong secret is refused with the gateway's answer in the product's words, and nothing is connected.
  await payments.getByLabel("Key id").fill(keyId);
  await payments.getByLabel("Key secret").fill("not-the-right-secret");
  await payments.getByLabel("Webhook secret").fill(webhookSecret);
  await payments.getByRole("button", { name: "Connect account" }).click();
  await expect(page.getByText(/Razorpay did not accept this key id and key secret/).first()).toBeVisible();
  await payments.getByLabel("Key id").fill(keyId);
  await payments.getByLabel("Key secret").fill(keySecret);
  await payments.getByLabel("Webhook secret").fill(webhookSecret);
  await payments.getByRole("button", { name: "Connect account" }).click();
  await expect(page.getByText("Razorpay account connected").first()).toBeVisible();
  await expect(payments.getByText(`Connected to the Razorpay account with key id ${keyId}.`)).toBeVisible();
  await expect(payments.getByTestId("webhook-url")).toHaveText(/\/api\/payment\/webhook\/[0-9a-f-]{36}$/);
  // The secrets are never shown again.
  await expect(page.locator("body")).not.toContainText(keySecret);
  await expect(page.locator("body")).not.toContainText(webhookSecret);
  await payments.screenshot({ path: test.info().outputPath("connected.png") });

  // The student buys it in the sandbox's Checkout, opened with Sunrise's own key: the payment is its.
  await studentPage.reload();
  const buy = card.getByRole("button", { name: "Buy ₹99" });
  await expect(buy).toBeVisible();
  const paid = studentPage.waitForRequest((r) => r.url().endsWith("/_sandbox/razorpay/checkout/pay"));
  await buy.click();
  const checkout = studentPage.getByRole("dialog", { name: "Sunrise Academy" });
  await expect(checkout.getByText("₹99.00", { exact: true })).toBeVisible();
  await studentPage.screenshot({ path: test.info().outputPath("checkout.png") });
  await checkout.getByRole("button", { name: "Pay ₹99.00" }).click();
  expect(JSON.parse((await paid).postData() ?? "{}")).toMatchObject({ key: keyId });
  await expect(studentPage.getByText("Payment successful").first()).toBeVisible();
  await expect(card.getByRole("link", { name: "Start Test" })).toBeVisible();

  // The owner sees the payment on Student Payments and refunds it, after saying yes.
  await page.goto(`${sunrise}/business/payments`);
  const row = page.getByRole("row").filter({ hasText: title });
  await expect(row).toContainText("Kavya Rao");
  await expect(row).toContainText("₹99");
  await row.getByRole("button", { name: /^Refund Kavya Rao's payment/ }).click();
  const confirm = page.getByRole("alertdialog", { name: "Refund this payment?" });
  await expect(confirm).toContainText(
    "Refund ₹99 to Kavya Rao? It goes back through your Razorpay account, and their access to what they bought ends.",
  );
  await confirm.getByRole("button", { name: "Refund" }).click();
  await expect(
    page
      .getByText("Payment refunded. The student's access to it has ended and their credit note is on its way.")
      .first(),
  ).toBeVisible();
  await expect(row).toContainText("Refunded");
  await expect(row.getByRole("button", { name: /^Refund/ })).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath("refunded.png"), fullPage: true });

  // The student may buy it again, and no longer start it.
  await studentPage.reload();
  await expect(card.getByRole("button", { name: "Buy ₹99" })).toBeVisible();
  await expect(card.getByRole("link", { name: "Start Test" })).toHaveCount(0);
  await student.close();
});
