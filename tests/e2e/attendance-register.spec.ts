import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { devices } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { prepareRegisterWorld, startBuiltServer } from "../helpers/register-world.ts";
import {
  ALL_SENT,
  KEEP_PAGE_OPEN,
  QR_PHONE_USED,
  SAVED_ON_PHONE,
  type QrCodeJson,
  type RegisterJson,
} from "../../common/validation/attendance.ts";

/**
 * Issue 41 §3 in a teacher's hand: roll-call on a phone with the network cut. Classes running now
 * with exact marks to check want a classroom of their own, so this spec starts a server on an
 * embedded database it prepares first (an institute, a teacher, a batch of five and classes that
 * started five minutes ago: tests/helpers/register-world.ts), then drives the built app in a phone's browser.
 */

const { defaultBrowserType: _browser, ...phone } = devices["Pixel 7"];
test.use(phone);

const PASSWORD = "register-kettle-42";
const TEACHER = "kavya.register@example.com";
const PUPILS = ["Aarav Shah", "Bhavna Rao", "Chetan Iyer", "Divya Menon", "Farhan Ali"];

let stopServer: (() => Promise<void>) | undefined;
let dataDir: string;
let origin: string;
let sessionId: string;
let scannedId: string;
let onlineId: string;

test.beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "pathshala-register-e2e-"));
  ({
    classroom: sessionId,
    scanned: scannedId,
    online: onlineId,
  } = await prepareRegisterWorld(dataDir, { teacherEmail: TEACHER, password: PASSWORD, pupils: PUPILS }));
  ({ origin, stop: stopServer } = await startBuiltServer(dataDir));
});

test.afterAll(async () => {
  await stopServer?.();
  rmSync(dataDir, { recursive: true, force: true });
});

test("a teacher marks a class on a phone with the network cut, and the marks reach the server once it is back", async ({
  page,
  context,
}) => {
  await page.goto(`${origin}/auth?role=creator&mode=login`);
  await page.getByLabel("Email").fill(TEACHER);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/creator$/);

  await page.goto(`${origin}/sessions/${sessionId}/register`);
  await expect(page.getByRole("heading", { name: "Physics · JEE Morning" })).toBeVisible();
  const counter = page.getByTestId("register-counter");
  await expect(counter).toHaveText("Present 5 · Absent 0");

  await context.setOffline(true);
  await page.getByRole("button", { name: "Bhavna Rao: Present" }).click();
  await page.getByRole("button", { name: "Divya Menon: Present" }).click();
  await expect(counter).toHaveText("Present 3 · Absent 2");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: SAVED_ON_PHONE })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("register-offline.png"), fullPage: true });

  await context.setOffline(false);
  await expect(page.getByRole("status").filter({ hasText: ALL_SENT })).toBeVisible();

  const res = await page.request.get(`${origin}/api/sessions/${sessionId}/attendance`);
  expect(res.status()).toBe(200);
  const { register } = (await res.json()) as { register: RegisterJson };
  expect(Object.fromEntries(register.students.map((s) => [s.name, s.status]))).toEqual({
    "Aarav Shah": "present",
    "Bhavna Rao": "absent",
    "Chetan Iyer": "present",
    "Divya Menon": "absent",
    "Farhan Ali": "present",
  });
  expect(register.students.every((s) => s.source === "roll-call")).toBe(true);

  await page.reload();
  await expect(counter).toHaveText("Present 3 · Absent 2");
  await expect(page.getByRole("button", { name: "Bhavna Rao: Absent" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Divya Menon: Absent" })).toBeVisible();
  await expect(page.getByText("(on this phone)")).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath("register-sent.png"), fullPage: true });

  await page.getByRole("link", { name: "QR code" }).click();
  await expect(page.getByRole("img", { name: "Attendance QR code" })).toBeVisible();
  await expect(page.getByText(/New code in \d+ s/)).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("register-qr.png"), fullPage: true });

  // Closed: a mark changes only by a correction with a reason, kept in the history.
  await page.getByRole("link", { name: "Back to the register" }).click();
  await page.getByRole("button", { name: "Close register" }).click();
  await expect(page.getByText("This register is closed: correct a mark with a reason.")).toBeVisible();
  const bhavna = page.getByRole("list", { name: "Students" }).getByRole("listitem").filter({ hasText: "Bhavna Rao" });
  await bhavna.getByRole("button", { name: "Correct" }).click();
  await bhavna.getByLabel("Status").selectOption("excused");
  await bhavna.getByLabel("Reason").fill("Medical note shown");
  await bhavna.getByRole("button", { name: "Save correction" }).click();
  await expect(bhavna).toContainText("Excused");
  const history = page.getByRole("region", { name: "History" });
  await expect(history).toContainText("Bhavna Rao: Absent → Excused (Correction)");
  await expect(history).toContainText("Kavya Iyer");
  await expect(history).toContainText("Medical note shown");
  await page.screenshot({ path: test.info().outputPath("register-closed.png"), fullPage: true });
});

test("a student's phone marks them from the QR code, once; the join page of an online class keeps their time", async ({
  browser,
  page,
}) => {
  const site = origin.replace("localhost", "register-sunrise.localhost");
  const signInOn = async (p: typeof page, email: string) => {
    await p.goto(`${site}/auth?role=student&mode=login`);
    await p.getByLabel("Email").fill(email);
    await p.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await p.getByRole("button", { name: "Sign in" }).click();
    await expect(p).toHaveURL(/\/student$/);
  };
  // The teacher's screen gives the code of the moment.
  const teacher = await browser.newContext();
  const screen = await teacher.newPage();
  await screen.goto(`${origin}/auth?role=creator&mode=login`);
  await screen.getByLabel("Email").fill(TEACHER);
  await screen.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await screen.getByRole("button", { name: "Sign in" }).click();
  await expect(screen).toHaveURL(/\/creator$/);
  const codeNow = async () => {
    const res = await screen.request.get(`${origin}/api/sessions/${scannedId}/qr`);
    expect(res.status()).toBe(200);
    return ((await res.json()) as QrCodeJson).url;
  };

  await signInOn(page, "pupil4.register@example.com");
  const url = await codeNow();
  expect(url.startsWith(`${site}/attend?c=`)).toBe(true);
  await page.goto(url);
  await expect(page.getByRole("heading", { name: "Marked present" })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("attend-marked.png"), fullPage: true });

  // Another student on the same phone is refused in words.
  await page.context().clearCookies({ name: /session/ });
  await signInOn(page, "pupil0.register@example.com");
  await page.goto(await codeNow());
  await expect(page.getByRole("alert")).toHaveText(QR_PHONE_USED);
  await page.screenshot({ path: test.info().outputPath("attend-refused.png"), fullPage: true });
  await teacher.close();

  await page.goto(`${site}/sessions/${onlineId}/join`);
  await expect(page.getByRole("heading", { name: "Chemistry · JEE Morning" })).toBeVisible();
  await expect(page.getByRole("status")).toHaveText(KEEP_PAGE_OPEN);
  const meeting = page.context().waitForEvent("page");
  await page.context().route("https://meet.example.com/**", (route) => route.fulfill({ body: "The meeting" }));
  await page.getByRole("button", { name: "Join the class" }).click();
  await expect((await meeting).locator("body")).toHaveText("The meeting");
  // A click on the link is not attendance: no minutes yet.
  await expect(page.getByText("0 minutes in the class so far", { exact: true })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("join.png"), fullPage: true });
});
