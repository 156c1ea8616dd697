import { readdirSync } from "node:fs";
import { join } from "node:path";
import { expect, test, type Page } from "./fixtures.ts";
import { makeDemoPdf } from "../../server/seed/demo-files.ts";
import { DEMO_VIDEO_MP4_BASE64 } from "../../server/seed/demo-video.ts";
import { inviteToTeam } from "./journeys.ts";

let n = 0;
const email = () => `e2e.creator.${Date.now().toString(36)}.${++n}@example.com`;
const MiB = 1024 * 1024;

/** A real PDF grown to `size` with a trailing comment (PDF readers ignore it). */
async function pdfOf(size: number) {
  const pdf = Buffer.from(await makeDemoPdf());
  return Buffer.concat([pdf, Buffer.from("\n%"), Buffer.alloc(Math.max(0, size - pdf.length - 2), 0x20)]);
}

/** The demo MP4 grown to `size` with an ISO-BMFF `free` box (players skip it). */
function mp4Of(size: number) {
  const video = Buffer.from(DEMO_VIDEO_MP4_BASE64, "base64");
  const pad = Math.max(8, size - video.length);
  const header = Buffer.alloc(8);
  header.writeUInt32BE(pad, 0);
  header.write("free", 4, "ascii");
  return Buffer.concat([video, header, Buffer.alloc(pad - 8)]);
}

async function newCreator(page: Page) {
  const address = email();
  await page.goto("/auth?role=creator");
  await page.getByLabel("Full name").fill("E2E Creator");
  await page.getByLabel("Email").fill(address);
  await page.getByLabel("Password", { exact: true }).fill("tangerine-kettle-42");
  await page.getByLabel("Confirm password").fill("tangerine-kettle-42");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/creator$/);
  return address;
}

/** Slows uploads down (DevTools network emulation) so that progress can be watched. */
async function throttleUploads(page: Page, bytesPerSecond: number) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  });
  return () =>
    cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
}

async function expectVisibleProgress(page: Page, totalText: RegExp) {
  await expect(page.getByRole("button", { name: "Uploading..." })).toBeDisabled();
  const bar = page.getByRole("progressbar", { name: "Upload progress" });
  await expect(bar).toBeVisible();
  await expect
    .poll(async () => Number(await bar.getAttribute("aria-valuenow")), { timeout: 15_000 })
    .toBeGreaterThan(0);
  await expect(page.getByText(totalText)).toBeVisible();
  await expect(page.getByText(/^\d{1,3}%$/)).toBeVisible();
}

const partialFiles = () => {
  try {
    return readdirSync(join(process.env.E2E_DATA_DIR!, "files"), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.parentPath.includes(".partial"))
      .map((e) => e.name);
  } catch {
    return [];
  }
};

test("a creator uploads a PDF and a video with visible progress, edits, assigns, switches off and deletes", async ({
  page,
  browser,
}) => {
  const address = await newCreator(page);
  await page.getByRole("link", { name: "Upload" }).first().click();
  await expect(page).toHaveURL(/\/creator\/upload$/);

  // A PDF, sent slowly until its progress has been seen (however long that takes on a busy
  // machine), then at full speed.
  let restore = await throttleUploads(page, 64 * 1024);
  await page.getByLabel("Title").fill("E2E Formula Sheet");
  await page.getByLabel("Description").fill("All the rotational motion formulas.");
  await page.getByLabel("Price (₹)").fill("149");
  await page
    .getByLabel("File")
    .setInputFiles({ name: "formula-sheet.pdf", mimeType: "application/pdf", buffer: await pdfOf(3 * MiB) });
  await page.getByRole("button", { name: "Upload" }).click();
  await expectVisibleProgress(page, /of 3 MB$/);
  await restore();
  await expect(page).toHaveURL(/\/creator\/contents$/, { timeout: 20_000 });
  await expect(page.getByText("Content uploaded")).toBeVisible();

  // A video.
  await page.getByRole("link", { name: "New Content" }).click();
  await page.getByText("Video", { exact: true }).click();
  await page.getByLabel("Title").fill("E2E Rolling Lesson");
  await page.getByLabel("Price (₹)").fill("299");
  await page.getByLabel("File").setInputFiles({ name: "rolling.mp4", mimeType: "video/mp4", buffer: mp4Of(4 * MiB) });
  restore = await throttleUploads(page, 64 * 1024);
  await page.getByRole("button", { name: "Upload" }).click();
  await expectVisibleProgress(page, /of 4 MB$/);
  await restore();
  await expect(page).toHaveURL(/\/creator\/contents$/, { timeout: 20_000 });

  const pdfRow = page.getByRole("row", { name: /E2E Formula Sheet/ });
  const videoRow = page.getByRole("row", { name: /E2E Rolling Lesson/ });
  await expect(pdfRow.getByText("PDF", { exact: true })).toBeVisible();
  await expect(pdfRow.getByText("₹149")).toBeVisible();
  await expect(videoRow.getByText("Video", { exact: true })).toBeVisible();

  // Edit (dialog).
  await page.getByRole("button", { name: "Edit E2E Formula Sheet" }).click();
  const dialog = page.getByRole("dialog", { name: "Edit content" });
  await dialog.getByLabel("Title").fill("E2E Formula Sheet (2026)");
  await dialog.getByLabel("Price (₹)").fill("199");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Content updated")).toBeVisible();
  await expect(dialog).toBeHidden();
  const editedRow = page.getByRole("row", { name: /E2E Formula Sheet \(2026\)/ });
  await expect(editedRow.getByText("₹199")).toBeVisible();

  // Assign to a business: one whose team the creator joined.
  await expect(editedRow.getByLabel("Business for E2E Formula Sheet (2026)").locator("option")).toHaveText([
    "Unassigned",
  ]);
  await page.goto(await inviteToTeam(browser, address));
  await page.getByRole("button", { name: "Accept invitation" }).click();
  await expect(page.getByText("You joined Sunrise Academy's team")).toBeVisible();
  await expect(page).toHaveURL(/\/creator\/contents$/);
  await editedRow.getByLabel("Business for E2E Formula Sheet (2026)").selectOption({ label: "Sunrise Academy" });
  await expect(page.getByText("Business updated")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Business for E2E Formula Sheet (2026)")).toHaveValue(/[0-9a-f-]{36}/);
  await expect(page.getByLabel("Business for E2E Formula Sheet (2026)").locator("option:checked")).toHaveText(
    "Sunrise Academy",
  );

  // Switch the video off.
  await page.getByRole("button", { name: "Active: switch E2E Rolling Lesson off" }).click();
  await expect(page.getByText("Status updated")).toBeVisible();
  await expect(page.getByRole("button", { name: "Inactive: switch E2E Rolling Lesson on" })).toBeVisible();

  // View: the detail page opens the file through a signed link.
  await page.getByRole("link", { name: "View E2E Formula Sheet (2026)" }).click();
  await expect(page.getByRole("heading", { name: "E2E Formula Sheet (2026)" })).toBeVisible();
  await expect(page.getByText("₹199", { exact: true })).toBeVisible();
  await expect(page.getByText("Sunrise Academy", { exact: true })).toBeVisible();
  const href = await page.getByRole("link", { name: "Open file" }).getAttribute("href");
  expect(href).toMatch(/^\/api\/files\/[0-9a-f-]{36}\/formula-sheet\.pdf\?u=/);
  const file = await page.request.get(href!, { headers: { range: "bytes=0-4" } });
  expect(file.status()).toBe(206);
  expect(await file.text()).toBe("%PDF-");
  await page.getByRole("link", { name: "Manage Contents" }).click();
  await expect(page).toHaveURL(/\/creator\/contents$/);

  // Delete, after confirming.
  await page.getByRole("button", { name: "Delete E2E Rolling Lesson" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete this content?" });
  await expect(confirm).toBeVisible();
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("Content deleted")).toBeVisible();
  await expect(page.getByRole("row", { name: /E2E Rolling Lesson/ })).toHaveCount(0);
  await expect(page.getByText("Showing 1–1 of 1")).toBeVisible();
});

test("the upload form names what is missing and shows the server's reason for a refusal", async ({ page }) => {
  await newCreator(page);
  await page.goto("/dashboard/creator/upload");
  await page.getByLabel("Title").fill("No file yet");
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByRole("alert")).toHaveText("Please select a file for PDF/Video content");

  // A file that calls itself a PDF but is not one: only the server can tell.
  await page
    .getByLabel("File")
    .setInputFiles({ name: "notes.pdf", mimeType: "application/pdf", buffer: Buffer.from("<html>not a pdf</html>") });
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByRole("alert")).toHaveText("The file must be a PDF.");
  // A PDF that students' copies could not be made of (here a damaged one) is refused at once, not at every student's first open.
  await page.getByLabel("File").setInputFiles({
    name: "damaged.pdf",
    mimeType: "application/pdf",
    buffer: Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(4096, 0x20)]),
  });
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "This PDF cannot be prepared for students: it may be password-protected or damaged. Please upload another PDF.",
  );

  await page.getByText("Live class", { exact: true }).click();
  await expect(page.getByLabel("File")).toBeHidden();
  await page.getByLabel("Live Link").fill("http://meet.example.com/abc");
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByRole("alert")).toHaveText("The live link must be a valid https:// URL");
  await page.getByLabel("Live Link").fill("https://meet.example.com/abc");
  await page.getByRole("button", { name: "Upload" }).click();
  // The /dashboard/creator family keeps its own paths.
  await expect(page).toHaveURL(/\/dashboard\/creator\/contents$/);
  await expect(page.getByRole("row", { name: /No file yet/ }).getByText("Live class")).toBeVisible();
});

test("cancelling an upload stops it and keeps nothing", async ({ page }) => {
  await newCreator(page);
  await page.goto("/creator/upload");
  await throttleUploads(page, 256 * 1024);
  await page.getByText("Video", { exact: true }).click();
  await page.getByLabel("Title").fill("Cancelled lesson");
  await page.getByLabel("File").setInputFiles({ name: "big.mp4", mimeType: "video/mp4", buffer: mp4Of(8 * MiB) });
  await page.getByRole("button", { name: "Upload" }).click();
  await expectVisibleProgress(page, /of 8 MB$/);
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByText("Upload cancelled")).toBeVisible();
  await expect(page.getByRole("button", { name: "Upload" })).toBeEnabled();
  await expect(page.getByRole("progressbar")).toHaveCount(0);
  await expect.poll(partialFiles, { timeout: 10_000 }).toEqual([]);
  await page.goto("/creator/contents");
  await expect(page.getByText("You have not uploaded anything yet.")).toBeVisible();
});

test("the demo creator's sales, chart and CSV; another creator's content is refused", async ({ page, browser }) => {
  await page.goto("/auth?role=creator&mode=login");
  await page.getByLabel("Email").fill("creator@example.com");
  await page.getByLabel("Password", { exact: true }).fill("demo-creator-2025");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/creator$/);
  await expect(page.getByText("Welcome back, Rahul Verma")).toBeVisible();
  await expect(page.getByText("₹647").first()).toBeVisible();

  await page.getByRole("link", { name: "Sales" }).first().click();
  await expect(page.getByRole("heading", { name: "Sales & Revenue" })).toBeVisible();
  await expect(page.getByText("Total Revenue")).toBeVisible();
  await expect(page.getByText("Total Orders")).toBeVisible();
  for (const header of ["Title", "Orders", "Earnings"])
    await expect(page.getByRole("columnheader", { name: header })).toBeVisible();
  await expect(page.getByRole("row", { name: /Rolling Without Slipping \(Video Lesson\) 1 ₹299/ })).toBeVisible();
  await expect(
    page.getByRole("img", { name: /^Revenue per day: ₹448 in total over the last 30 days\.$/ }),
  ).toBeVisible();
  await page.getByRole("link", { name: "12 months" }).click();
  await expect(
    page.getByRole("img", { name: /^Revenue per month: ₹647 in total over the last 12 months\.$/ }),
  ).toBeVisible();
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export CSV" }).click();
  const csv = await (await download).path().then((p) => import("node:fs").then((fs) => fs.readFileSync(p!, "utf8")));
  expect(csv).toContain("Title,Orders,Earnings (INR)");
  expect(csv).toContain("Rotational Motion Formula Sheet,1,149.00");

  // The video's detail page plays its file through a signed link.
  await page.goto("/creator/contents");
  const detail = await page
    .getByRole("link", { name: "View Rolling Without Slipping (Video Lesson)" })
    .getAttribute("href");
  await page.goto(detail!);
  const duration = await page
    .locator("video")
    .evaluate(
      (v: HTMLVideoElement) =>
        new Promise<number>((resolve) =>
          v.readyState >= 1 ? resolve(v.duration) : (v.onloadedmetadata = () => resolve(v.duration)),
        ),
    );
  expect(duration).toBeGreaterThan(7);

  // Another creator asking for it gets the server's refusal.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await newCreator(otherPage);
  await otherPage.goto(detail!);
  await expect(otherPage.getByText("You can only view your own content.")).toBeVisible();
  await other.close();
});

test("without JavaScript the upload form still publishes (streamed through the page's action)", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await newCreator(page);
  await page.goto("/creator/upload");
  await page.getByLabel("Title").fill("No-JS notes");
  await page.getByLabel("Price (₹)").fill("25");
  await page
    .getByLabel("File")
    .setInputFiles({ name: "nojs.pdf", mimeType: "application/pdf", buffer: await pdfOf(64 * 1024) });
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page).toHaveURL(/\/creator\/contents$/);
  await expect(page.getByRole("row", { name: /No-JS notes/ }).getByText("₹25")).toBeVisible();
  await context.close();
});
