import { expect, test } from "./fixtures.ts";
import { signIn, unique } from "./journeys.ts";

/**
 * Issue 41 §1: an owner makes a batch with a capacity, admits students by CSV (the rest wait in
 * order), is told which row of a bad file is wrong with nobody admitted, and when a student
 * leaves, the first on the waiting list takes the seat; the batch keeps its history.
 */
test("an owner makes a batch, admits by CSV up to its capacity, and the waiting list moves up", async ({ page }) => {
  const tag = unique();
  const name = `JEE 2027 Target Morning ${tag}`;
  await signIn(page, "business@example.com", "demo-business-2025");
  await page.goto("/business/batches");
  await expect(page.getByRole("heading", { name: "Batches", exact: true })).toBeVisible();

  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Course or exam").fill("JEE Main");
  await page.getByLabel("Starts on").fill("2027-04-01");
  await page.getByLabel("Capacity").fill("1");
  await page.getByLabel("Medium").fill("Hindi");
  await page.getByRole("button", { name: "Make batch" }).click();
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toBeVisible();
  await row.getByRole("link", { name }).click();

  const csv = page.getByLabel("Admit by CSV");
  // A bad row names itself, and nobody is admitted.
  await csv.fill(`name,email,phone\nAsha ${tag},asha.${tag}@example.com,\nRavi ${tag},not-an-email,`);
  await page.getByRole("button", { name: "Admit", exact: true }).click();
  await expect(page.getByText(/One row of the CSV cannot be admitted, so nobody was: row 3: /).first()).toBeVisible();
  await expect(page.getByRole("region", { name: "Students" })).toContainText("Nobody.");

  await csv.fill(`name,email,phone\nAsha ${tag},asha.${tag}@example.com,\nRavi ${tag},ravi.${tag}@example.com,`);
  await page.getByRole("button", { name: "Admit", exact: true }).click();
  await expect(page.getByText("1 admitted, 1 on the waiting list.").first()).toBeVisible();
  const students = page.getByRole("region", { name: "Students" });
  const waiting = page.getByRole("region", { name: "Waiting list" });
  await expect(students).toContainText(`Asha ${tag}`);
  await expect(waiting).toContainText(`Ravi ${tag}`);
  await expect(row).toContainText("1 / 1");

  // Asha leaves: Ravi takes the seat, and the batch remembers Asha.
  await students.getByRole("button", { name: `Remove Asha ${tag} from the batch` }).click();
  await expect(students).toContainText(`Ravi ${tag}`);
  await expect(waiting).toContainText("Nobody.");
  await expect(page.getByRole("region", { name: "History" })).toContainText(`Asha ${tag}: left`);
  await page.screenshot({ path: test.info().outputPath("batch.png"), fullPage: true });
});
