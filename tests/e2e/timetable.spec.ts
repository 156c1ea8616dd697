import { expect, test } from "./fixtures.ts";
import { chooseInstitute, signIn, unique } from "./journeys.ts";

/**
 * Issue 41 §2: an owner gives a batch a two-class day, is refused a room another batch holds at
 * that time (the clash named in words), declares a holiday on that day, and the batch's student
 * sees the day's classes struck through with the holiday's name on their week.
 */

const site = () => `http://demo-t1.localhost:${process.env.E2E_PORT}`;
const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
/** India's date `days` from now (India keeps UTC+5:30). */
const indiaDay = (days: number) =>
  new Date(Date.now() + 5.5 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10);
const weekdayOf = (date: string) => WEEKDAYS[(new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7];

test("an owner saves a timetable, a clash is refused, a holiday strikes a student's class through", async ({
  browser,
  page,
}) => {
  const tag = unique();
  const room = `Room ${tag}`;
  const tomorrow = indiaDay(1);
  const day = weekdayOf(tomorrow);
  const email = `week.${tag}@example.com`;
  const student = `Meera ${tag}`;

  // The student signs up on the institute's site.
  const learner = await browser.newPage();
  await learner.goto(`${site()}/auth?role=student&mode=register`);
  await learner.getByLabel("Full name").fill(student);
  await learner.getByLabel("Email").fill(email);
  await learner.getByLabel("Password", { exact: true }).fill("tangerine-kettle-42");
  await learner.getByLabel("Confirm password").fill("tangerine-kettle-42");
  await learner.getByRole("button", { name: "Create account" }).click();
  await expect(learner).toHaveURL(`${site()}/student`);

  await signIn(page, "business@example.com", "demo-business-2025");
  // The student signed up on Sunrise's site: its batches, whichever institute the area opens on.
  await page.goto("/business/batches");
  await chooseInstitute(page, "Sunrise Academy");
  const makeBatch = async (name: string) => {
    await page.goto("/business/batches");
    await page.getByLabel("Name").fill(name);
    await page.getByLabel("Starts on").fill(indiaDay(0));
    await page.getByLabel("Ends on").fill(indiaDay(60));
    await page.getByRole("button", { name: "Make batch" }).click();
    await expect(page.getByRole("row").filter({ hasText: name })).toBeVisible();
  };
  const morning = `JEE Morning ${tag}`;
  const evening = `NEET Evening ${tag}`;
  await makeBatch(evening);
  await makeBatch(morning);
  await page.getByRole("row").filter({ hasText: morning }).getByRole("link", { name: morning }).click();
  await page.getByLabel("Admit by CSV").fill(`name,email,phone\n${student},${email},`);
  await page.getByRole("button", { name: "Admit", exact: true }).click();
  await expect(page.getByRole("region", { name: "Students" })).toContainText(student);

  // Two classes on tomorrow's weekday: one in a room, one online.
  await page.getByRole("link", { name: "Timetable, holidays and classes" }).click();
  await expect(page.getByRole("heading", { name: `${morning}: timetable` })).toBeVisible();
  const addClass = async (
    n: number,
    c: { start: string; end: string; subject: string; teacher?: string; room?: string; meetingUrl?: string },
  ) => {
    await page.getByRole("button", { name: "Add class" }).click();
    const row = page.getByRole("group", { name: `Class ${n}` });
    await row.getByLabel("Day").selectOption({ label: day });
    await row.getByLabel("Starts").fill(c.start);
    await row.getByLabel("Ends").fill(c.end);
    await row.getByLabel("Subject").fill(c.subject);
    if (c.teacher) await row.getByLabel("Teacher").selectOption({ label: c.teacher });
    if (c.meetingUrl) {
      await row.getByLabel("Where").selectOption("online");
      await row.getByLabel("Meeting link").fill(c.meetingUrl);
    } else await row.getByLabel("Room").fill(c.room ?? "");
  };
  await addClass(1, { start: "09:00", end: "10:00", subject: "Physics", teacher: "Anita Sharma", room });
  await addClass(2, {
    start: "11:00",
    end: "12:00",
    subject: "Chemistry",
    meetingUrl: "https://meet.example.com/chem",
  });
  await page.getByRole("button", { name: "Save timetable" }).click();
  await expect(page.getByText("Timetable saved; its classes are made.").first()).toBeVisible();
  const upcoming = page.getByRole("listitem").filter({ hasText: "09:00–10:00 · Physics" });
  await expect(upcoming.first()).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("timetable.png"), fullPage: true });

  // The other batch cannot have the same room at an overlapping time.
  const timetableUrl = page.url();
  await page.goto("/business/batches");
  await page.getByRole("row").filter({ hasText: evening }).getByRole("link", { name: evening }).click();
  await page.getByRole("link", { name: "Timetable, holidays and classes" }).click();
  await addClass(1, { start: "09:30", end: "10:30", subject: "Biology", room: room.toLowerCase() });
  await page.getByRole("button", { name: "Save timetable" }).click();
  await expect(
    page
      .getByRole("alert")
      .filter({ hasText: `${room} is taken by ${morning} on ${day} 09:00–10:00.` })
      .first(),
  ).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("clash.png"), fullPage: true });

  // A holiday tomorrow for the morning batch cancels both its classes.
  await page.goto(timetableUrl);
  await page.getByLabel("Date", { exact: true }).fill(tomorrow);
  await page.getByLabel("Holiday", { exact: true }).fill(`Founders' Day ${tag}`);
  await page.getByLabel("For", { exact: true }).selectOption("batch");
  await page.getByRole("button", { name: "Declare holiday" }).click();
  await expect(
    page.getByText(`Founders' Day ${tag} declared: that day's classes are cancelled.`).first(),
  ).toBeVisible();

  // The student's week: tomorrow's classes struck through with the holiday's name.
  await learner.goto(`${site()}/student/week`);
  await expect(learner.getByRole("heading", { name: "My Week" })).toBeVisible();
  const tomorrowItem = learner.getByRole("listitem", { name: weekdayText(tomorrow), exact: true });
  const physics = tomorrowItem.locator("del", { hasText: `09:00–10:00 Physics · ${morning}` });
  await expect(physics).toBeVisible();
  await expect(tomorrowItem.locator("del", { hasText: `11:00–12:00 Chemistry · ${morning}` })).toBeVisible();
  await expect(tomorrowItem.getByText(`Founders' Day ${tag}`).first()).toBeVisible();
  await expect(learner.getByLabel("Calendar address")).toHaveValue(
    /^http:\/\/demo-t1\.localhost:\d+\/api\/calendar\/.+\.ics$/,
  );
  await learner.screenshot({ path: test.info().outputPath("student-week.png"), fullPage: true });

  // The owner teaches the Physics class: their own week shows it struck through too.
  await page.goto("/creator/week");
  const teaching = page.getByRole("listitem", { name: weekdayText(tomorrow), exact: true });
  await expect(teaching.locator("del", { hasText: `09:00–10:00 Physics · ${morning}` })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("teacher-week.png"), fullPage: true });
});

/** "Monday 30 November 2026", as the week page names a day. */
function weekdayText(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  const month = d.toLocaleString("en-GB", { month: "long", timeZone: "UTC" });
  return `${weekdayOf(date)} ${d.getUTCDate()} ${month} ${d.getUTCFullYear()}`;
}
