import { readFile } from "node:fs/promises";
import { expect, test } from "./fixtures.ts";
import { chooseInstitute, messagesTo, signIn } from "./journeys.ts";

/**
 * Issue 42 §5, the owner's morning view: from the Fees page to Dues, where the demo's overdue
 * student (her first instalment is 20 days past its last date, part paid) is on the defaulters
 * list; one click on Remind puts the overdue reminder, with her Fees page to pay at, in the sandbox
 * outbox; a second click the same day is refused; the collection report downloads as a CSV. The
 * student sees the overdue notice on her own Fees page.
 */
test("the owner sees the demo defaulter on Dues, reminds her in one click and downloads the collection CSV", async ({
  page,
  browser,
}) => {
  await signIn(page, "business@example.com", "demo-business-2025");
  await page.goto("/business/fees");
  await chooseInstitute(page, "Sunrise Academy");
  await expect(page.getByText("Sunrise Academy's fee plans")).toBeVisible();
  await page.getByRole("link", { name: "Dues at a glance" }).click();
  await expect(page.getByRole("heading", { name: "Dues", exact: true })).toBeVisible();
  await expect(page.getByText("Collected this month")).toBeVisible();

  const row = page.getByRole("table", { name: "Defaulters" }).getByRole("row").filter({ hasText: "Priya Das" });
  await expect(row).toContainText("JEE 2027 Target, two instalments");
  // 20 days when the demo was seeded the same India day; 21 once midnight in India has passed since.
  await expect(row).toContainText(/2[01] days overdue/);
  await expect(page.getByRole("table", { name: "Outstanding by student" })).toContainText("Priya Das");
  await page.screenshot({ path: test.info().outputPath("dues.png"), fullPage: true });

  await row.getByRole("button", { name: "Remind Priya Das" }).click();
  await expect(page.getByText("A reminder is on its way to Priya Das.").first()).toBeVisible();
  // The outbox shows a message once the worker has sent it.
  let reminder: Awaited<ReturnType<typeof messagesTo>>[number] | undefined;
  await expect(async () => {
    reminder = (await messagesTo(page.request, "student@example.com")).find((m) => m.text.startsWith("Priya Das, "));
    expect(reminder).toBeDefined();
  }).toPass({ timeout: 20_000 });
  expect(reminder?.subject).toMatch(/^Sunrise Academy: ₹[\d,.]+ fee overdue$/);
  expect(reminder?.text).toMatch(
    /^Priya Das, ₹[\d,.]+ for At admission was due on \d{1,2} \w+ \d{4} at Sunrise Academy and is still unpaid\. Pay: https?:\/\/[\w.-]+(:\d+)?\/student\/fees$/,
  );
  await row.getByRole("button", { name: "Remind Priya Das" }).click();
  await expect(page.getByText("Priya Das has already been reminded today. Try again tomorrow.").first()).toBeVisible();

  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download CSV" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^collections-\d{4}-\d\d-\d\d-to-\d{4}-\d\d-\d\d\.csv$/);
  const csv = await readFile((await download.path())!, "utf8");
  expect(csv.replace(/^\ufeff/, "").split("\r\n")[0]).toBe(
    "Receipt,Paid on,Student,Fee plan,Mode,Reference,Amount (₹),Reversed,Reversal reason",
  );

  const context = await browser.newContext();
  const student = await context.newPage();
  await signIn(student, "student@example.com", "demo-student-2025", "student");
  await student.goto("/student/fees");
  const notice = student.getByRole("alert").filter({ hasText: "Your fees are overdue" });
  await expect(notice).toContainText("is overdue by 20 days");
  await student.screenshot({ path: test.info().outputPath("student-overdue.png"), fullPage: true });
  await context.close();
});
