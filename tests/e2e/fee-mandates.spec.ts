import { expect, test } from "./fixtures.ts";
import { chooseInstitute, daysFromNow, signIn, signUpStudentOnSite, sunriseFees, unique } from "./journeys.ts";

/**
 * Issue 42 §7, the payment method follows the amount: a student of Sunrise Academy on a monthly
 * plan of ₹2,500 dues sets up UPI Autopay on the institute's site in the sandbox's Checkout (₹1 to
 * authorise, given back), sees it active on their Fees page; the owner sees it on the account's
 * detail with who set it up; the student cancels it and the page says so.
 */

const port = Number(process.env.E2E_PORT);
const sunrise = `http://demo-t1.localhost:${port}`;

test("a student sets up UPI Autopay for a monthly plan, the owner sees it, the student cancels it", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const plan = `Monthly fees ${unique()}`;
  await signUpStudentOnSite(page, "Ishaan Verma");
  const me = await page.evaluate(async () => {
    const res = await fetch("/api/auth/profile");
    return ((await res.json()) as { user: { _id: string } }).user;
  });

  const owner = await browser.newContext();
  const desk = await owner.newPage();
  const accountId = await (
    await sunriseFees(desk.request)
  ).assignPlan(
    me._id,
    plan,
    [0, 1, 2, 3].map((m) => ({ label: `Month ${m + 1}`, amount: 2_500, dueOn: daysFromNow(10 + 30 * m) })),
  );

  await page.goto(`${sunrise}/student/fees`);
  const card = page.getByRole("region", { name: plan });
  const instruction = card.getByRole("region", { name: "Standing instruction" });
  await expect(instruction).toContainText(
    "Monthly dues of at most ₹2,500: UPI Autopay can collect them each month without asking you again",
  );
  await instruction.getByRole("button", { name: "Set up UPI Autopay" }).click();
  const checkout = page.getByRole("dialog", { name: "Sunrise Academy" });
  await expect(checkout.getByText(/^Authorise UPI Autopay: up to ₹15,000 a month until /)).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("mandate-checkout.png"), fullPage: true });
  await checkout.getByRole("button", { name: "Authorise and pay ₹1.00" }).click();
  await expect(page.getByText("UPI Autopay is set up").first()).toBeVisible();
  await expect(instruction.getByText("Active", { exact: true })).toBeVisible();
  await expect(instruction).toContainText("UPI Autopay collects each due a couple of days before its last date");
  await page.screenshot({ path: test.info().outputPath("mandate-student.png"), fullPage: true });

  // The owner sees it on the account's detail, with who set it up.
  await signIn(desk, "business@example.com", "demo-business-2025");
  await desk.goto(`/business/fees?account=${accountId}`);
  await chooseInstitute(desk, "Sunrise Academy");
  await desk.goto(`/business/fees?account=${accountId}`);
  const deskView = desk.getByRole("region", { name: "Standing instruction" });
  await expect(deskView.getByText("Active", { exact: true })).toBeVisible();
  await expect(deskView).toContainText("Set up by Ishaan Verma.");
  await desk.screenshot({ path: test.info().outputPath("mandate-owner.png"), fullPage: true });

  // The student ends it.
  await instruction.getByRole("button", { name: "Cancel UPI Autopay" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Cancel UPI Autopay" }).click();
  await expect(page.getByText("UPI Autopay is cancelled").first()).toBeVisible();
  await expect(instruction.getByText("Cancelled", { exact: true })).toBeVisible();
  await expect(instruction.getByRole("button", { name: "Set up UPI Autopay" })).toBeVisible();
  await owner.close();
});
