import { PDFDocument } from "pdf-lib";
import { expect, test } from "./fixtures.ts";
import { chooseInstitute, signIn, unique } from "./journeys.ts";
import { addDays, indiaDate } from "../../common/india-dates.ts";
import { formatDate } from "../../common/format.ts";

/**
 * Issue 42 §3 at the front desk: the owner sets a bounce fee in the Fees page's settings, takes a
 * post-dated cheque into the PDC register (held, unreceipted; a deposit before its date is refused
 * in words), takes a current cheque (receipted at once), deposits it from the register and marks
 * it bounced; the receipt is reversed and the bounce fee owed on the account; the receipt's
 * thermal PDF is 80 mm wide; the student sees the institute's defaulter policy and the receipt's PDFs. The server's clock is the real one here, so the post-dated cheque is
 * never deposited (the integration suite moves the clock for that).
 */
test("the desk holds a post-dated cheque, bounces a deposited one, and prints a receipt on the roll", async ({
  page,
  browser,
}) => {
  const shots = (name: string) => page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
  const plan = `Cheque plan ${unique()}`;
  const today = indiaDate(new Date());
  const later = addDays(today, 7);
  await signIn(page, "business@example.com", "demo-business-2025");
  await page.goto("/business/fees");
  await chooseInstitute(page, "Sunrise Academy");
  await expect(page.getByText("Sunrise Academy's fee plans")).toBeVisible();

  const settings = page.getByRole("form", { name: "Fee settings" });
  await settings.getByLabel("Bounce fee (₹)").fill("500");
  await settings
    .getByLabel("What a defaulter loses (shown to students)")
    .fill("New lectures lock after 15 days overdue.");
  await settings.getByRole("button", { name: "Save fee settings" }).click();
  await expect(page.getByText("Fee settings saved.").first()).toBeVisible();

  const form = page.getByRole("form", { name: "New fee plan" });
  await form.getByLabel("Name").fill(plan);
  await form.getByLabel("Fee head 1", { exact: true }).fill("Tuition");
  await form.getByLabel("Fee head 1 amount (₹)").fill("20000");
  await form.getByLabel("Instalment 1", { exact: true }).fill("Lump sum");
  await form.getByLabel("Instalment 1 amount (₹)").fill("20000");
  await form.getByLabel("Instalment 1 last date").fill(addDays(today, 20));
  await form.getByRole("button", { name: "Make fee plan" }).click();
  await expect(page.getByRole("row").filter({ hasText: plan })).toContainText("₹20,000");
  const assign = page.getByRole("form", { name: "Assign a fee plan" });
  await assign.getByLabel("Student").selectOption({ label: "Priya Das (student@example.com)" });
  await assign.getByLabel("Fee plan").selectOption({ label: `${plan} (₹20,000)` });
  await assign.getByRole("button", { name: "Assign plan" }).click();
  await expect(page.getByRole("row").filter({ hasText: "Priya Das" }).filter({ hasText: plan })).toBeVisible();
  await shots("fees-page");

  await page.getByRole("link", { name: "Cheques and DDs" }).click();
  await expect(page.getByRole("heading", { name: "Cheques and DDs" })).toBeVisible();
  const take = page.getByRole("form", { name: "Take a cheque or DD" });
  const account = `Priya Das · ${plan} · owes ₹20,000`;
  await take.getByLabel("Student's account").selectOption({ label: account });
  await take.getByLabel("Number").fill("771001");
  await take.getByLabel("Bank").fill("HDFC Bank");
  await take.getByLabel("Date on it").fill(later);
  await take.getByLabel("Amount (₹)").fill("8000");
  await take.getByRole("button", { name: "Take cheque" }).click();
  await expect(page.getByText(`Post-dated cheque 771001 is held until ${formatDate(later)}.`).first()).toBeVisible();
  const pdc = page.getByRole("row").filter({ hasText: "Cheque 771001" });
  await expect(pdc).toContainText("post-dated");
  await expect(pdc).toContainText("On deposit");
  await pdc.getByRole("button", { name: "Deposit cheque 771001" }).click();
  await expect(
    page.getByText(`This cheque is dated ${formatDate(later)}: it cannot be deposited before that day.`).first(),
  ).toBeVisible();
  await expect(pdc).toContainText("Held");

  await take.getByLabel("Student's account").selectOption({ label: account });
  await take.getByLabel("Number").fill("771002");
  await take.getByLabel("Bank").fill("HDFC Bank");
  await take.getByLabel("Date on it").fill(today);
  await take.getByLabel("Amount (₹)").fill("5000");
  await take.getByRole("button", { name: "Take cheque" }).click();
  await expect(
    page.getByText(/^Cheque 771002 is receipted as RCT\/\d\d-\d\d\/\d{5} and held\.$/).first(),
  ).toBeVisible();
  const current = page.getByRole("row").filter({ hasText: "Cheque 771002" });
  await current.getByRole("button", { name: "Deposit cheque 771002" }).click();
  await expect(current.getByText("Deposited", { exact: true })).toBeVisible();
  await current.getByLabel("Note for 771002").fill("Returned unpaid: funds insufficient");
  await current.getByRole("button", { name: "Bounced cheque 771002" }).click();
  await expect(current.getByText("Bounced", { exact: true })).toBeVisible();
  await expect(current).toContainText("Reversed");
  await current.getByText("History").click();
  await expect(current).toContainText("(Returned unpaid: funds insufficient)");
  await shots("pdc-register");

  await page.goto("/business/fees");
  await page.getByRole("row").filter({ hasText: "Priya Das" }).filter({ hasText: plan }).getByRole("link").click();
  const receipts = page.getByRole("region", { name: "Receipts" });
  await expect(receipts).toContainText("Reversed: Cheque 771002 bounced");
  // The ₹5,000 is owed again and the ₹500 bounce fee on top: ₹20,500 in all.
  await expect(page.getByText(/balance ₹20,500/)).toBeVisible();
  await page.getByText(/^Statement of account/).click();
  await expect(page.getByRole("row").filter({ hasText: "Bounce fee for cheque 771002" })).toContainText("₹500");
  await shots("account");

  const thermal = receipts.getByRole("link", { name: /^Thermal print of receipt RCT/ }).first();
  const res = await page.request.get((await thermal.getAttribute("href"))!);
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toBe("application/pdf");
  const roll = await PDFDocument.load(await res.body());
  expect(roll.getPage(0).getWidth()).toBeCloseTo(226.77, 1);
  expect(roll.getTitle()).toMatch(/^Receipt Voucher RCT\//);

  // The student sees the institute's policy for defaulters and their receipt's printable copies.
  const context = await browser.newContext();
  const student = await context.newPage();
  await signIn(student, "student@example.com", "demo-student-2025", "student");
  await student.goto("/student/fees");
  await expect(student.getByText("If fees are overdue")).toBeVisible();
  await expect(student.getByText("New lectures lock after 15 days overdue.")).toBeVisible();
  await expect(student.getByRole("link", { name: /^Thermal print of receipt RCT/ }).first()).toBeVisible();
  await student.screenshot({ path: test.info().outputPath("student-fees.png"), fullPage: true });
  await context.close();
});
