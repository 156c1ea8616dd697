import { expect, test } from "./fixtures.ts";
import {
  chooseInstitute,
  daysFromNow,
  outboxMail,
  signIn,
  signUpStudentOnSite,
  sunriseFees,
  unique,
} from "./journeys.ts";

/**
 * Issue 42 §3 online: a student of Sunrise Academy pays a due on the institute's own site through
 * the payment sandbox's Checkout (the institute's own account) and sees its receipt; the owner
 * sends a payment link for the next due from the account's detail, sees it with its status, and
 * the student's e-mail with the link is in the sandbox outbox.
 */

const port = Number(process.env.E2E_PORT);
const sunrise = `http://demo-t1.localhost:${port}`;

test("a student pays a due on the institute's site; the owner sends a payment link for the next", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const plan = `Online fees ${unique()}`;
  await signUpStudentOnSite(page, "Kiran Mehta");
  // Asked from the page itself: only the browser resolves the institute's test host.
  const me = await page.evaluate(async () => {
    const res = await fetch("/api/auth/profile");
    return ((await res.json()) as { user: { _id: string; email: string } }).user;
  });

  // The owner makes a two-instalment plan for Sunrise Academy and assigns it, through the API.
  const owner = await browser.newContext();
  const desk = await owner.newPage();
  const accountId = await (
    await sunriseFees(desk.request)
  ).assignPlan(me._id, plan, [
    { label: "Admission instalment", amount: 12_000, dueOn: daysFromNow(3) },
    { label: "Second instalment", amount: 6_000, dueOn: daysFromNow(45) },
  ]);

  // The student pays the first due on the institute's site, in the sandbox's Checkout.
  await page.goto(`${sunrise}/student/fees`);
  await expect(page.getByText(plan, { exact: true })).toBeVisible();
  const first = page.getByRole("row").filter({ hasText: "Admission instalment" });
  await first.getByRole("button", { name: "Pay ₹12,000" }).click();
  const checkout = page.getByRole("dialog", { name: "Sunrise Academy" });
  await expect(checkout.getByText("Test mode — no real money")).toBeVisible();
  await expect(checkout.getByText("₹12,000.00", { exact: true })).toBeVisible();
  await checkout.getByRole("button", { name: "Pay ₹12,000.00" }).click();
  await expect(page.getByText("Payment successful").first()).toBeVisible();
  await expect(page.getByText(/^Receipt RCT\/\d\d-\d\d\/\d{5} for ₹12,000\.$/).first()).toBeVisible();
  await expect(page.getByRole("region", { name: "Receipts" })).toContainText(/RCT\/\d\d-\d\d\/\d{5}.*₹12,000.*Online/);
  await expect(first.getByRole("button")).toHaveCount(0);
  await expect(page.getByRole("row").filter({ hasText: "Second instalment" }).getByRole("button")).toHaveText(
    "Pay ₹6,000",
  );
  await page.screenshot({ path: test.info().outputPath("fee-online-student.png"), fullPage: true });

  // The owner sends a payment link for the second due from the account's detail.
  await signIn(desk, "business@example.com", "demo-business-2025");
  await desk.goto("/business/fees");
  await chooseInstitute(desk, "Sunrise Academy");
  await desk.goto(`/business/fees?account=${accountId}`);
  await expect(desk.getByText(`Kiran Mehta · ${plan}`)).toBeVisible();
  const second = desk.getByRole("row").filter({ hasText: "Second instalment" });
  await expect(desk.getByRole("row").filter({ hasText: "Admission instalment" }).getByRole("button")).toHaveCount(0);
  await second.getByRole("button", { name: "Send payment link for Second instalment" }).click();
  await expect(desk.getByText(/^Payment link sent to the student: http/).first()).toBeVisible();
  await expect(second.getByText("Sent, not paid yet")).toBeVisible();
  const url = (await second.getByRole("link").textContent())!;
  expect(url).toMatch(/\/_sandbox\/razorpay\/l\/plink_/);
  await desk.screenshot({ path: test.info().outputPath("fee-online-owner.png"), fullPage: true });

  const mail = await outboxMail(desk, me.email, "asks you to pay");
  await expect(mail).toContainText(`Kiran Mehta, Sunrise Academy asks you to pay ₹6,000 for Second instalment, due `);
  await expect(mail).toContainText(url);
  await owner.close();
});
