import { readFile } from "node:fs/promises";
import { expect, test } from "./fixtures.ts";
import { chooseInstitute, signIn } from "./journeys.ts";

/**
 * Issue 41 §4 in the browser, on the demo's attendance (server/seed/demo-attendance.ts: Sunrise
 * Academy's JEE 2027 Morning, eight classes in the last eight days, Rohan Mehta at 50 %): the
 * owner opens Attendance from the navigation, sees the flagged student, reads the month by
 * student and by teacher, downloads the CSV and changes the threshold; the demo student sees
 * their own record with each class's mark. The timetable and registers that make such rows in a
 * running institute are other pages; the demo's rows stand in for them here.
 */

/** The India month of yesterday: it always holds at least one of the demo's classes. */
const demoMonth = () => new Date(Date.now() - 86_400_000 + 330 * 60_000).toISOString().slice(0, 7);

test("an owner sees the flagged student, reads the month, downloads the CSV and sets the threshold", async ({
  page,
}) => {
  await signIn(page, "business@example.com", "demo-business-2025");
  await page.goto("/business");
  await chooseInstitute(page, "Sunrise Academy");
  await expect(page.getByText("Sunrise Academy at a glance.")).toBeVisible();
  await page.getByRole("link", { name: "Attendance", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Attendance", exact: true })).toBeVisible();

  const flagged = page.getByRole("list", { name: "Flagged students" });
  await expect(page.getByText("Below 75% in the last 30 days")).toBeVisible();
  await expect(flagged.getByRole("listitem")).toHaveCount(1);
  await expect(flagged).toContainText("Rohan Mehta");
  await expect(flagged).toContainText("JEE 2027 Morning");
  await expect(flagged).toContainText("50% of 8");

  await page.getByLabel("Month").fill(demoMonth());
  await page.getByRole("button", { name: "Show" }).click();
  await page.getByRole("link", { name: "By student" }).click();
  await expect(page.getByRole("link", { name: "By student" })).toHaveAttribute("aria-current", "page");
  const table = page.getByRole("region", { name: "Attendance" });
  await expect(table.getByRole("columnheader").first()).toHaveText("Student");
  await expect(table.getByRole("row").nth(1)).toContainText("Aman Verma");
  await expect(table.getByRole("row").filter({ hasText: "Rohan Mehta" })).toContainText("JEE 2027 Morning");
  await page.screenshot({ path: test.info().outputPath("attendance-by-student.png"), fullPage: true });

  await page.getByRole("link", { name: "By teacher" }).click();
  await expect(page.getByRole("region", { name: "Sessions by teacher" })).toContainText("Rahul Verma");

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download CSV" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^attendance-\d{4}-\d{2}-01-to-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = (await readFile((await download.path())!, "utf8")).replace(/^\ufeff/, "");
  const lines = csv.trimEnd().split("\r\n");
  expect(lines[0]).toBe("Student ID,Student,Batch ID,Batch,Present,Late,Absent,Excused,Sessions,Percent");
  expect(lines.filter((l) => l.includes(",Rohan Mehta,"))).toHaveLength(1);

  // Below 40 % nobody is flagged; the default again afterwards.
  await page.getByLabel("Low attendance (%)").fill("40");
  await page.getByRole("button", { name: "Save policy" }).click();
  await expect(page.getByText("Attendance policy saved.").first()).toBeVisible();
  await expect(page.getByText("Below 40% in the last 30 days")).toBeVisible();
  await expect(page.getByText("Nobody is below the threshold.")).toBeVisible();
  await page.getByLabel("Low attendance (%)").fill("101");
  await page.getByRole("button", { name: "Save policy" }).click();
  await expect(page.getByText("Low attendance must be a whole percentage from 1 to 100.").first()).toBeVisible();
  await page.getByLabel("Low attendance (%)").fill("75");
  await page.getByRole("button", { name: "Save policy" }).click();
  await expect(page.getByText("Below 75% in the last 30 days")).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("attendance-owner.png"), fullPage: true });
});

test("a student sees their own attendance by batch with each class's mark", async ({ page }) => {
  await signIn(page, "student@example.com", "demo-student-2025", "student");
  await page.getByRole("link", { name: "Attendance", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Attendance", exact: true })).toBeVisible();
  await page.getByLabel("Month").fill(demoMonth());
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page.getByText("JEE 2027 Morning")).toBeVisible();
  await expect(page.getByText("100%")).toBeVisible();
  const classes = page.getByRole("region", { name: "Classes" });
  await expect(classes.getByText("Present").first()).toBeVisible();
  await expect(page.getByText("Rohan Mehta")).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath("attendance-student.png"), fullPage: true });
});
