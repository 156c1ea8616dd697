import { expect, test } from "./fixtures.ts";
import { chooseInstitute, signIn, unique } from "./journeys.ts";

/**
 * Issue 42 §1–3 at the front desk: an owner makes a fee plan whose instalments must add up,
 * assigns it to a student with a scholarship, takes a part payment in cash (a numbered receipt
 * settling the oldest due), is refused a UPI payment without its reference, reverses the receipt
 * with a reason, and the student sees the dues and the reversed receipt on their Fees page.
 */
test("the front desk makes a plan, assigns it, takes a payment and reverses it; the student sees it", async ({
  page,
  browser,
}) => {
  const plan = `Foundation lump sum ${unique()}`;
  await signIn(page, "business@example.com", "demo-business-2025");
  await page.goto("/business/fees");
  await chooseInstitute(page, "Sunrise Academy");
  await expect(page.getByText("Sunrise Academy's fee plans")).toBeVisible();

  const form = page.getByRole("form", { name: "New fee plan" });
  await form.getByLabel("Name").fill(plan);
  await form.getByLabel("Fee head 1", { exact: true }).fill("Tuition");
  await form.getByLabel("Fee head 1 amount (₹)").fill("30000");
  await form.getByRole("button", { name: "Fee head", exact: true }).click();
  await form.getByLabel("Fee head 2", { exact: true }).fill("Study material");
  await form.getByLabel("Fee head 2 amount (₹)").fill("5000");
  await form.getByLabel("Instalment 1", { exact: true }).fill("Lump sum");
  await form.getByLabel("Instalment 1 amount (₹)").fill("30000");
  await form.getByLabel("Instalment 1 last date").fill("2026-04-10");
  await form.getByRole("button", { name: "Make fee plan" }).click();
  await expect(
    page.getByText("The instalments add up to ₹30,000, but the fee heads to ₹35,000: they must be equal.").first(),
  ).toBeVisible();
  await form.getByLabel("Instalment 1 amount (₹)").fill("35000");
  await form.getByRole("button", { name: "Make fee plan" }).click();
  await expect(page.getByRole("row").filter({ hasText: plan })).toContainText("₹35,000");

  const assign = page.getByRole("form", { name: "Assign a fee plan" });
  await assign.getByLabel("Student").selectOption({ label: "Priya Das (student@example.com)" });
  await assign.getByLabel("Fee plan").selectOption({ label: `${plan} (₹35,000)` });
  await assign.getByLabel("Discount", { exact: true }).selectOption("scholarship");
  await assign.getByLabel("Discount value").fill("20");
  await assign.getByLabel("Reason for the discount").fill("Board marks 95 %");
  await assign.getByRole("button", { name: "Assign plan" }).click();
  await expect(page.getByRole("row").filter({ hasText: "Priya Das" }).filter({ hasText: plan })).toContainText(
    "₹28,000",
  );
  await page.getByRole("row").filter({ hasText: "Priya Das" }).filter({ hasText: plan }).getByRole("link").click();
  await expect(page.getByText(`Priya Das · ${plan}`)).toBeVisible();

  const pay = page.getByRole("form", { name: "Take a payment" });
  await pay.getByLabel("Amount (₹)").fill("10000");
  await pay.getByLabel("Mode").selectOption("upi");
  await pay.getByRole("button", { name: "Take payment" }).click();
  await expect(page.getByText("Give the cheque, DD, UPI or bank transfer's reference number").first()).toBeVisible();
  await pay.getByLabel("Mode").selectOption("cash");
  await pay.getByRole("button", { name: "Take payment" }).click();
  await expect(page.getByText(/^Receipt RCT\/\d\d-\d\d\/\d{5} for ₹10,000\.$/).first()).toBeVisible();
  const receipts = page.getByRole("region", { name: "Receipts" });
  await expect(receipts).toContainText("Lump sum ₹10,000");
  await expect(page.getByText(/balance ₹18,000/)).toBeVisible();

  await receipts.getByPlaceholder("Reason").fill("Counted short at closing");
  await receipts.getByRole("button", { name: "Reverse" }).click();
  await expect(receipts).toContainText("Reversed: Counted short at closing");
  await expect(page.getByText(/balance ₹28,000/)).toBeVisible();

  const context = await browser.newContext();
  const student = await context.newPage();
  await signIn(student, "student@example.com", "demo-student-2025", "student");
  await student.goto("/student/fees");
  const card = student.getByRole("region", { name: plan });
  await expect(card).toContainText("₹28,000");
  await expect(card).toContainText("Reversed: Counted short at closing");
  // Their statement of account, one click away: the discount, the payment and its reversal.
  await card.getByText(/^Statement of account/).click();
  const statement = card.getByRole("table", { name: `Statement of ${plan}` });
  await expect(statement).toContainText("Discount (scholarship)");
  await expect(statement).toContainText("Payment reversed");
  await expect(statement).toContainText("Counted short at closing");
  await context.close();
});
