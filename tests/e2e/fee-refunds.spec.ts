import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { chooseInstitute, signIn, unique } from "./journeys.ts";

/** Priya Das pays a new plan's ₹41,500 at the desk, leaves on the course's 73rd day, and the owner works out her refund. */
async function workOutARefund(page: Page, plan: string) {
  await signIn(page, "business@example.com", "demo-business-2025");
  await page.goto("/business/fees");
  await chooseInstitute(page, "Sunrise Academy");

  const form = page.getByRole("form", { name: "New fee plan" });
  await form.getByLabel("Name").fill(plan);
  await form.getByLabel("Fee head 1", { exact: true }).fill("Admission");
  await form.getByLabel("Fee head 1 amount (₹)").fill("5000");
  await form.getByLabel("Fee head 1: refundable when a student leaves?").selectOption("non-refundable");
  await form.getByRole("button", { name: "Fee head", exact: true }).click();
  await form.getByLabel("Fee head 2", { exact: true }).fill("Tuition");
  await form.getByLabel("Fee head 2 amount (₹)").fill("36500");
  await form.getByLabel("Instalment 1", { exact: true }).fill("Lump sum");
  await form.getByLabel("Instalment 1 amount (₹)").fill("41500");
  await form.getByLabel("Instalment 1 last date").fill("2026-04-10");
  await form.getByRole("button", { name: "Make fee plan" }).click();
  await expect(page.getByRole("row").filter({ hasText: plan })).toContainText("Admission ₹5,000 (non-refundable)");

  const assign = page.getByRole("form", { name: "Assign a fee plan" });
  await assign.getByLabel("Student").selectOption({ label: "Priya Das (student@example.com)" });
  await assign.getByLabel("Fee plan").selectOption({ label: `${plan} (₹41,500)` });
  await assign.getByRole("button", { name: "Assign plan" }).click();
  const row = page.getByRole("row").filter({ hasText: "Priya Das" }).filter({ hasText: plan });
  await row.getByRole("link").click();
  await expect(page.getByText(`Priya Das · ${plan}`)).toBeVisible();
  const pay = page.getByRole("form", { name: "Take a payment" });
  await pay.getByLabel("Amount (₹)").fill("41500");
  await pay.getByRole("button", { name: "Take payment" }).click();
  await expect(page.getByText(/^Receipt RCT\/\d\d-\d\d\/\d{5} for ₹41,500\.$/).first()).toBeVisible();

  // A 365-day course; left on its 73rd day: a fifth of the tuition used.
  const refund = page.getByRole("region", { name: "Refund" });
  await refund.getByLabel("Left on").fill("2026-06-12");
  await refund.getByLabel("Course from").fill("2026-04-01");
  await refund.getByLabel("Course to").fill("2027-03-31");
  await refund.getByRole("button", { name: "Work out the refund" }).click();
  const working = page.getByRole("table", { name: "The refund's working" });
  await expect(working).toContainText("73 of 365 days used");
  await expect(working).toContainText("₹5,000 (Admission ₹5,000)");
  await expect(working).toContainText("₹7,300 of ₹36,500 refundable");
  await expect(working.getByRole("row", { name: /Proposed refund/ })).toContainText("₹29,200");
}

/**
 * Issue 42 §6 at the front desk: a student who paid leaves; the owner works out the refund (the
 * course's days used, the non-refundable admission kept), confirms it with a double click, and it
 * is made once, with its Refund Voucher; the student sees the refund on their Fees page.
 */
test("a student who left is refunded pro rata once, with a refund voucher", async ({ page, browser }) => {
  const plan = `Refund course ${unique()}`;
  await workOutARefund(page, plan);

  const confirm = page.getByRole("form", { name: "Confirm the refund" });
  await confirm.getByLabel("Paid out by").selectOption("upi");
  await confirm.getByLabel("Reference").fill("UPI 4411");
  await confirm.getByLabel("Reason", { exact: true }).fill("Moved to Pune with the family");
  await confirm.getByRole("button", { name: "Confirm refund" }).dblclick();
  const made = page.getByLabel("Refund made");
  await expect(made).toContainText(/RFV\/\d\d-\d\d\/\d{5}/);
  await expect(made).toContainText("₹29,200 paid out by UPI UPI 4411");
  await expect(page.getByText(/balance ₹0/)).toBeVisible();
  const voucher = await page.request.get(
    (await made.getByRole("link", { name: "Refund Voucher (PDF)" }).getAttribute("href"))!,
  );
  expect(voucher.status()).toBe(200);
  expect(voucher.headers()["content-type"]).toBe("application/pdf");

  const context = await browser.newContext();
  const student = await context.newPage();
  await signIn(student, "student@example.com", "demo-student-2025", "student");
  await student.goto("/student/fees");
  await expect(student.getByRole("region", { name: plan })).toContainText("Refunded ₹29,200");
  await context.close();
});

test("a refund another desk confirmed first shows as made, not as a form to fill again", async ({ page }) => {
  await workOutARefund(page, `Refund course ${unique()}`);
  const accountId = new URL(page.url()).searchParams.get("account");
  const elsewhere = await page.request.post(`/api/fee-accounts/${accountId}/refunds`, {
    headers: { origin: new URL(page.url()).origin },
    data: {
      leftOn: "2026-06-12",
      courseFrom: "2026-04-01",
      courseTo: "2027-03-31",
      mode: "cash",
      reason: "Confirmed at the other counter",
    },
  });
  expect(elsewhere.status()).toBe(201);

  const confirm = page.getByRole("form", { name: "Confirm the refund" });
  await confirm.getByLabel("Reason", { exact: true }).fill("Moved to Pune with the family");
  await confirm.getByRole("button", { name: "Confirm refund" }).click();
  await expect(page.getByText("This account has already been refunded: a student leaves once.")).toBeVisible();
  const made = page.getByLabel("Refund made");
  await expect(made).toContainText("₹29,200 paid out by Cash");
  await expect(made).toContainText("Confirmed at the other counter");
  await expect(confirm).toHaveCount(0);
});
