import { expect, test, type Page } from "./fixtures.ts";
import { chooseInstitute, signIn, unique } from "./journeys.ts";

const site = `http://demo-t1.localhost:${process.env.E2E_PORT}`;

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

  // Asha leaves (asked first): Ravi takes the seat, and the batch remembers Asha.
  await students.getByRole("button", { name: `Remove Asha ${tag} from the batch` }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Remove" }).click();
  await expect(students).toContainText(`Ravi ${tag}`);
  await expect(waiting).toContainText("Nobody.");
  await expect(page.getByRole("region", { name: "History" })).toContainText(`Asha ${tag}: left`);
  await page.screenshot({ path: test.info().outputPath("batch.png"), fullPage: true });
});

/**
 * Issue 41 §1: a lead who signed up on the institute's site is admitted from the batch's open
 * enquiries in two clicks (the batch, then Admit); the batch's content added on the page shows in
 * the student's own area, marked as from the batch; moved to another batch, the student keeps a
 * line in the first batch's history naming where they went, and the first batch's content is gone
 * from their area; found among the institute's students and admitted back, they have it again.
 */
test("a lead is admitted in two clicks, sees the batch's content, and a move is kept as history", async ({
  page,
  browser,
  request,
}) => {
  const tag = unique();
  const name = `Meena ${tag}`;
  const email = `meena.${tag}@example.com`;
  const first = `NEET 2027 Evening ${tag}`;
  const second = `NEET 2027 Weekend ${tag}`;

  // The student signs up on Sunrise Academy's site, then leaves an enquiry there.
  const student = await (await browser.newContext()).newPage();
  await student.goto(`${site}/auth?role=student&mode=register`);
  await student.getByLabel("Full name").fill(name);
  await fillStudentSignUpAs(student, email);
  await expect(student).toHaveURL(`${site}/student`);
  const enquiry = await request.post("/enquiry", {
    headers: { host: `demo-t1.localhost:${process.env.E2E_PORT}` },
    form: { name, phone: "9830012345", email },
  });
  expect(enquiry.status()).toBeLessThan(400);

  await signIn(page, "business@example.com", "demo-business-2025");
  await page.goto("/business/batches");
  await chooseInstitute(page, "Sunrise Academy");
  for (const batch of [first, second]) {
    await page.getByLabel("Name", { exact: true }).fill(batch);
    await page.getByLabel("Starts on").fill("2027-04-01");
    if (batch === first) await page.getByRole("checkbox", { name: "Anita Sharma" }).check();
    await page.getByRole("button", { name: "Make batch" }).click();
    await expect(page.getByRole("row").filter({ hasText: batch })).toBeVisible();
    // The form is cleared for the next batch.
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue("");
  }

  // Two clicks: the batch, then Admit on the lead.
  await page.getByRole("link", { name: first }).click();
  // The teacher chosen when it was made is ticked on the batch.
  await expect(
    page.getByRole("form", { name: "Teachers" }).getByRole("checkbox", { name: "Anita Sharma" }),
  ).toBeChecked();
  await page
    .getByRole("region", { name: "Enquiries" })
    .getByRole("button", { name: `Admit ${name}` })
    .click();
  const students = page.getByRole("region", { name: "Students" });
  await expect(students).toContainText(name);
  await expect(page.getByText(`${name} is admitted.`).first()).toBeVisible();

  // The batch opens the institute's formula sheet to its students.
  const contents = page.getByRole("region", { name: "Contents" });
  await contents.getByLabel("Add content").selectOption({ label: "Rotational Motion Formula Sheet (PDF)" });
  await contents.getByRole("button", { name: "Add", exact: true }).click();
  await expect(
    contents.getByRole("button", { name: "Remove Rotational Motion Formula Sheet from the batch" }),
  ).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("batch-detail.png"), fullPage: true });

  await student.goto(`${site}/student/my-courses`);
  const fromBatches = student.getByRole("region", { name: "From your batches" });
  await expect(fromBatches).toContainText("Rotational Motion Formula Sheet");
  await expect(fromBatches).toContainText(`From your batch ${first}`);
  await expect(fromBatches.getByRole("link", { name: "Download" })).toBeVisible();
  await student.screenshot({ path: test.info().outputPath("student-from-batch.png"), fullPage: true });

  // Moved to the weekend batch: the history says where, and the evening batch's sheet is gone from their area.
  await students.getByLabel(`Batch to move ${name} to`).selectOption({ label: second });
  await students.getByRole("button", { name: `Move ${name}`, exact: true }).click();
  await expect(page.getByRole("region", { name: "History" })).toContainText(`${name}: moved to ${second}`);
  await expect(students).toContainText("Nobody.");
  await page.screenshot({ path: test.info().outputPath("batch-history.png"), fullPage: true });
  await student.reload();
  await expect(student.getByRole("region", { name: "From your batches" })).toHaveCount(0);

  // Found among the institute's students and admitted back, one click: the sheet is theirs again.
  const picker = page.getByRole("region", { name: "Admit a student" });
  await picker.getByLabel("Admit a student of the institute").fill(email);
  await picker.getByRole("button", { name: `Admit ${name}` }).click();
  await expect(students).toContainText(name);
  await student.reload();
  await expect(student.getByRole("region", { name: "From your batches" })).toContainText(`From your batch ${first}`);
  await student.context().close();
});

/** The rest of the sign-up form with a known address (fillStudentSignUp makes one up). */
async function fillStudentSignUpAs(page: Page, email: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("tangerine-kettle-42");
  await page.getByLabel("Confirm password").fill("tangerine-kettle-42");
  await page.getByRole("button", { name: "Create account" }).click();
}
