import { readFileSync } from "node:fs";
import { expect, test, type Page } from "./fixtures.ts";
import { pageTexts } from "../helpers/pdf.ts";

const port = Number(process.env.E2E_PORT);
const site = (name: "demo-t1" | "demo-t2") => `http://${name}.localhost:${port}`;
const t1 = site("demo-t1");
const t2 = site("demo-t2");
let n = 0;
const unique = () => `${Date.now().toString(36)}${++n}`;

/** The demo institutes' content (server/seed/demo.ts): Sunrise (t1) has three, Vidya (t2) one. */
const SUNRISE = {
  live: "JEE Main Physics: Rotational Motion (Live)",
  video: "Rolling Without Slipping (Video Lesson)",
  pdf: "Rotational Motion Formula Sheet",
};
const VIDYA = { live: "NEET Biology: Human Physiology Doubt Session" };

const card = (page: Page, title: string) =>
  page.locator("article").filter({ has: page.getByRole("heading", { name: title, exact: true }) });

/** Pays in the sandbox's Checkout, which shows the server's amount and says no real money moves. */
async function payInSandbox(page: Page, amount: string, brand: string, title: string) {
  const checkout = page.getByRole("dialog", { name: brand });
  await expect(checkout.getByText("Test mode — no real money")).toBeVisible();
  await expect(checkout.getByText(amount, { exact: true })).toBeVisible();
  await checkout.getByRole("button", { name: `Pay ${amount}` }).click();
  await expect(page.getByText("Payment successful").first()).toBeVisible();
  await expect(page.getByText(`You're enrolled in ${title}.`)).toBeVisible();
}

test("on an institute's domain a student signs up, buys a video and a PDF in the sandbox, watches, seeks, downloads, and sees only that institute", async ({
  page,
}) => {
  const id = unique();
  const email = `learner.${id}@example.com`;
  const name = "Meera Iyer";

  // The institute's catalog: its own three contents in their sections, nothing of the other institute.
  await page.goto(`${t1}/catalog`);
  await expect(page.getByRole("link", { name: "Sunrise Academy home" })).toBeVisible();
  for (const [section, heading] of [
    ["live", "Live Classes"],
    ["courses", "Courses"],
    ["materials", "Materials"],
  ] as const) {
    await expect(page.locator(`section#${section}`).getByRole("heading", { name: heading, level: 2 })).toBeVisible();
  }
  await expect(page.locator("section#live").getByRole("heading", { name: SUNRISE.live })).toBeVisible();
  await expect(page.locator("section#courses").getByRole("heading", { name: SUNRISE.video })).toBeVisible();
  await expect(page.locator("section#materials").getByRole("heading", { name: SUNRISE.pdf })).toBeVisible();
  await expect(page.getByText(VIDYA.live)).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Back to Dashboard" })).toHaveAttribute("href", "/student");
  await expect(card(page, SUNRISE.live).getByRole("button", { name: "Join Now" })).toBeVisible();
  await expect(card(page, SUNRISE.pdf).getByRole("button", { name: "Get Materials" })).toBeVisible();

  // Buying needs an account: sign up on the institute's own domain and come back to this card.
  await card(page, SUNRISE.video).getByRole("button", { name: "Buy ₹299" }).click();
  await expect(page).toHaveURL(/\/auth\?role=student&redirectTo=/);
  await page.getByRole("tab", { name: "Register" }).click();
  await page.getByLabel("Full name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("tangerine-kettle-42");
  await page.getByLabel("Confirm password").fill("tangerine-kettle-42");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(new RegExp(`^${t1}/catalog#content-`));
  await expect(page.getByText("Account created")).toBeVisible();

  // The video: priced by the server, paid in the sandbox, then the card offers View.
  await card(page, SUNRISE.video).getByRole("button", { name: "Buy ₹299" }).click();
  await payInSandbox(page, "₹299.00", "Sunrise Academy", SUNRISE.video);
  await expect(card(page, SUNRISE.video).getByText("Enrolled")).toBeVisible();
  await expect(card(page, SUNRISE.video).getByRole("link", { name: "View" })).toBeVisible();

  // The PDF: paid the same way, then 'Get Materials' downloads the student's own stamped copy.
  await card(page, SUNRISE.pdf).getByRole("button", { name: "Get Materials" }).click();
  await payInSandbox(page, "₹149.00", "Sunrise Academy", SUNRISE.pdf);
  const getMaterials = card(page, SUNRISE.pdf).getByRole("link", { name: "Get Materials" });
  await expect(getMaterials).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent("download"), getMaterials.click()]);
  expect(download.suggestedFilename()).toBe("rotational-motion-formula-sheet.pdf");
  const pdf = new Uint8Array(readFileSync((await download.path())!));
  const texts = await pageTexts(pdf);
  expect(texts.length).toBeGreaterThanOrEqual(2);
  for (const text of texts) expect(text).toContain(`Licensed to ${name} (${email})`);

  // My Courses: the video plays inline and seeks at once (the server answers byte ranges).
  const ranges: number[] = [];
  page.on("response", (res) => {
    if (res.url().includes("/api/files/") && res.request().headers().range) ranges.push(res.status());
  });
  await card(page, SUNRISE.video).getByRole("link", { name: "View" }).click();
  await expect(page).toHaveURL(/\/student\/my-courses#enrollment-/);
  await expect(page.getByRole("heading", { name: "My Courses", level: 1 })).toBeVisible();
  const videoCard = page.locator("[id^=enrollment-]").filter({ hasText: SUNRISE.video });
  await expect(videoCard.getByTestId("content-type")).toHaveText("video");
  await expect(videoCard.getByTestId("content-type")).toHaveCSS("text-transform", "uppercase");
  const video = videoCard.locator("video");
  await expect(video).toBeVisible();
  const duration = await video.evaluate(async (el: HTMLVideoElement) => {
    el.muted = true;
    await el.play();
    return el.duration;
  });
  expect(duration).toBeGreaterThan(4);
  await expect.poll(() => video.evaluate((el: HTMLVideoElement) => el.currentTime)).toBeGreaterThan(0);
  const target = Math.floor(duration) - 2;
  const seeked = await video.evaluate(
    (el: HTMLVideoElement, to: number) =>
      new Promise<number>((resolve) => {
        el.addEventListener("seeked", () => resolve(el.currentTime), { once: true });
        el.currentTime = to;
      }),
    target,
  );
  expect(Math.abs(seeked - target)).toBeLessThan(1);
  expect(ranges).toContain(206);

  // A link that stops working (here: tampered, as an expired one would be refused) is renewed and playback resumes.
  await video.evaluate((el: HTMLVideoElement) => {
    el.src = el.currentSrc.replace(/([?&]e=)\d+/, "$11");
  });
  await expect
    .poll(() =>
      video.evaluate(
        (el: HTMLVideoElement) => el.currentSrc !== "" && !/[?&]e=1(&|$)/.test(el.currentSrc) && el.readyState >= 1,
      ),
    )
    .toBe(true);

  // The PDF is on My Courses too, with a Download link; no other institute's content anywhere.
  const pdfCard = page.locator("[id^=enrollment-]").filter({ hasText: SUNRISE.pdf });
  await expect(pdfCard.getByRole("link", { name: "Download" })).toHaveAttribute("href", /\/api\/files\//);
  for (const path of ["/student", "/student/live", "/student/courses", "/student/materials", "/my-courses"]) {
    await page.goto(`${t1}${path}`);
    await expect(page.getByText("Sunrise Academy · Student")).toBeVisible();
    await expect(page.getByText(VIDYA.live)).toHaveCount(0);
  }
  await page.goto(`${t1}/student/live`);
  await expect(card(page, SUNRISE.live)).toBeVisible();
  await expect(card(page, SUNRISE.live).getByText("Sunrise Academy")).toBeVisible();

  // Home: stats by type and the recent enrolments with their actions.
  await page.goto(`${t1}/student`);
  await expect(page.getByRole("heading", { name: `Welcome back, ${name}!` })).toBeVisible();
  for (const [stat, label, value] of [
    ["total", "Total Courses", "2"],
    ["live", "Live Classes", "0"],
    ["video", "Video Courses", "1"],
    ["pdf", "Study Materials", "1"],
  ]) {
    await expect(page.getByTestId(`stat-${stat}`)).toContainText(label);
    await expect(page.getByTestId(`stat-${stat}`)).toContainText(value);
  }
  await expect(page.getByRole("link", { name: "Continue Learning" })).toHaveAttribute("href", "/my-courses");
  await expect(page.getByRole("link", { name: "Browse Courses" })).toHaveAttribute("href", "/student/courses");
  await expect(page.getByRole("link", { name: "View all" })).toHaveAttribute("href", "/my-courses");
  await expect(page.getByRole("link", { name: "Open PDF" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Continue", exact: true })).toHaveAttribute(
    "href",
    /\/my-courses#enrollment-/,
  );
  await expect(page.getByRole("link", { name: "Manage Profile" })).toHaveAttribute("href", "/profile");

  // Each payment came with Sunrise Academy's GST invoice: on the account page, in the receipt, as a PDF.
  await page.goto(`${t1}/student/account`);
  const invoices = page.getByRole("table", { name: "Invoices" });
  await expect(invoices.getByRole("row")).toHaveCount(3);
  const videoInvoice = invoices.getByRole("row").filter({ hasText: SUNRISE.video });
  await expect(videoInvoice).toContainText("Tax Invoice");
  await expect(videoInvoice).toContainText("from Sunrise Academy Private Limited");
  await expect(videoInvoice).toContainText("₹299");
  const link = videoInvoice.getByRole("link", { name: /^Download Tax Invoice INV\/\d{2}-\d{2}\/\d{5}$/ });
  // Asked from the page: the browser resolves the institute's *.localhost name, Node does not.
  const invoicePdf = await page.evaluate(
    async (href) => {
      const res = await fetch(href);
      return { type: res.headers.get("content-type"), bytes: Array.from(new Uint8Array(await res.arrayBuffer())) };
    },
    (await link.getAttribute("href"))!,
  );
  expect(invoicePdf.type).toBe("application/pdf");
  const invoiceText = (await pageTexts(new Uint8Array(invoicePdf.bytes))).join(" ");
  // No state on record: supplied in the seller's state (West Bengal), so CGST and SGST.
  for (const printed of ["GSTIN 19AAKCS4321M1ZY", "CGST 9%", "SGST 9%", "Two Hundred Ninety Nine Rupees Only"])
    expect(invoiceText).toContain(printed);
  const outbox = (await page.evaluate(async () => (await fetch("/_sandbox/outbox.json")).json())) as {
    messages: { to: string; template: string; text: string; attachment?: string }[];
  };
  const receipt = outbox.messages.find(
    (m) => m.to === email && m.template === "payment-receipt" && m.text.includes(SUNRISE.video),
  );
  expect(receipt?.attachment).toBe(await link.getAttribute("href"));
  await page.getByLabel("Your state").selectOption({ label: "Maharashtra" });
  await page.getByRole("button", { name: "Save state" }).click();
  await expect(page.getByText("Your state is saved: it is the place of supply on your next invoices.")).toBeVisible();

  // The other institute's catalog shows none of this one's content.
  await page.goto(`${t2}/catalog`);
  await expect(page.getByRole("link", { name: "Vidya JEE & NEET Classes home" })).toBeVisible();
  await expect(page.getByRole("heading", { name: VIDYA.live })).toBeVisible();
  for (const title of Object.values(SUNRISE)) await expect(page.getByText(title)).toHaveCount(0);
  await expect(page.locator("section#courses")).toContainText("No courses available.");
  await expect(page.locator("section#materials")).toContainText("No materials available.");
});

test("free content enrols at once; a live class's card says Join Now; the dashboard and My Courses start empty", async ({
  page,
}) => {
  const email = `fresh.${unique()}@example.com`;
  await page.goto(`${t1}/auth?role=student`);
  await page.getByLabel("Full name").fill("Kabir Shah");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("tangerine-kettle-42");
  await page.getByLabel("Confirm password").fill("tangerine-kettle-42");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(`${t1}/student`);
  await expect(page.getByText("No courses yet. Enroll from the catalog.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Browse Catalog" })).toHaveAttribute("href", "/catalog");
  await page.goto(`${t1}/my-courses`);
  await expect(page.getByText("No enrolled courses yet.")).toBeVisible();

  // Sunrise's demo tests: the free chapter test can be started, the finished mock is closed.
  await page.goto(`${t1}/student/mock-tests`);
  await expect(page.getByText("coming soon")).toHaveCount(0);
  const chapter = page.getByRole("listitem").filter({ hasText: "Kinematics & Rotation Chapter Test" });
  await expect(chapter.getByRole("link", { name: "Start Test" })).toBeVisible();
  const finished = page.getByRole("listitem").filter({ hasText: "JEE Main Mock Test 1" });
  await expect(finished.getByRole("button", { name: "Closed" })).toBeDisabled();

  // The free live class two days away: enrolled at once; its link stays hidden until 15 minutes before.
  await page.goto(`${t1}/student/live`);
  const live = card(page, SUNRISE.live);
  await expect(live.getByText("Free")).toBeVisible();
  await live.getByRole("button", { name: "Join Now" }).click();
  await expect(page.getByText("Enrolled", { exact: true }).first()).toBeVisible();
  await expect(live.getByRole("button", { name: "Join Now" })).toBeDisabled();
  await expect(live.getByText(/^Opens at /)).toBeVisible();
  await page.goto(`${t1}/my-courses`);
  const item = page.locator("[id^=enrollment-]").filter({ hasText: SUNRISE.live });
  await expect(item.getByRole("button", { name: "Join Live Class" })).toBeDisabled();
  await expect(item.getByText(/link opens at/)).toBeVisible();
  await page.goto(`${t1}/student`);
  await expect(page.getByRole("link", { name: "Open", exact: true })).toBeVisible();
});

test("the platform's catalog lists every institute's content; signed out, buying leads to sign-in", async ({
  page,
}) => {
  await page.goto("/catalog");
  await expect(page.getByRole("heading", { name: "Catalog", level: 1 })).toBeVisible();
  for (const title of [...Object.values(SUNRISE), VIDYA.live])
    await expect(page.getByRole("heading", { name: title })).toBeVisible();
  await card(page, VIDYA.live).getByRole("button", { name: "Join Now" }).click();
  await expect(page).toHaveURL(/\/auth\?role=student&redirectTo=%2Fcatalog%23content-/);

  // The institutes' home pages link to cards of the catalog, which exist.
  await page.goto(`${t1}/`);
  const link = page.locator('a[href^="/catalog#content-"]').first();
  const href = await link.getAttribute("href");
  await page.goto(`${t1}${href}`);
  await expect(page.locator(href!.slice("/catalog".length))).toBeVisible();
});

test("without JavaScript, free content still enrols from the catalog and paid content says why it cannot", async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${t1}/auth?role=student`);
  await page.getByLabel("Full name").fill("Nisha Rao");
  await page.getByLabel("Email").fill(`nojs.${unique()}@example.com`);
  await page.getByLabel("Password", { exact: true }).fill("tangerine-kettle-42");
  await page.getByLabel("Confirm password").fill("tangerine-kettle-42");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(`${t1}/student`);

  await page.goto(`${t1}/catalog`);
  // (Playwright's text matching skips <noscript>; its contents are shown when scripts are off.)
  await expect(page.locator("noscript p")).toBeVisible();
  await expect(page.locator("noscript p")).toHaveText(
    /paying for a course opens Razorpay Checkout, which needs JavaScript turned on\.$/,
  );
  await card(page, SUNRISE.video).getByRole("button", { name: "Buy ₹299" }).click();
  await expect(page).toHaveURL(`${t1}/catalog`);
  await expect(card(page, SUNRISE.video).getByRole("button", { name: "Buy ₹299" })).toBeVisible();

  await card(page, SUNRISE.live).getByRole("button", { name: "Join Now" }).click();
  await expect(page).toHaveURL(/\/student\/my-courses#enrollment-/);
  await expect(page.locator("[id^=enrollment-]").filter({ hasText: SUNRISE.live })).toBeVisible();
  await context.close();
});
