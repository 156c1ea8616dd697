import type { Locator, Page } from "@playwright/test";
import sharp from "sharp";
import { expect, test } from "./fixtures.ts";
import { publishTestAsCreator, signIn, signUpFromTest, unique } from "./journeys.ts";

/**
 * Issue 38 §1: a creator adds a figure to a question in the editor (upload, Markdown inserted,
 * preview), the bank shows it, and a student on the institute's domain sees it on the exam screen,
 * fitted to a phone's width, and opens it larger with a tap.
 */

const port = Number(process.env.E2E_PORT);
const platform = `http://localhost:${port}`;

const shot = (page: Page, name: string) =>
  page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: false });

/** Whether the image has loaded (served, of an allowed source, and decoded). */
const loaded = (image: Locator) => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);

async function diagram(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="420">
    <rect width="900" height="420" fill="#fff"/>
    <line x1="40" y1="380" x2="860" y2="380" stroke="#222" stroke-width="6"/>
    <line x1="450" y1="380" x2="180" y2="80" stroke="#d33" stroke-width="6"/>
    <line x1="450" y1="380" x2="720" y2="80" stroke="#d33" stroke-width="6" stroke-dasharray="18 10"/>
    <line x1="450" y1="380" x2="450" y2="60" stroke="#36c" stroke-width="3" stroke-dasharray="8 8"/>
    <text x="300" y="250" font-size="36" font-family="sans-serif">i</text>
    <text x="580" y="250" font-size="36" font-family="sans-serif">r</text>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

test("a creator adds a figure in the editor; the bank and a student's exam screen show it, and it opens larger", async ({
  page,
  playwright,
}) => {
  test.setTimeout(150_000);
  const words = `Reflection ${unique()}`;

  await signIn(page, "creator@example.com", "demo-creator-2025", "creator");
  await page.goto("/creator/tests/questions/new");
  await page.getByLabel("Question bank").selectOption({ label: "Sunrise Academy" });
  await page
    .getByLabel("Question", { exact: true })
    .fill(`${words}: the ray meets the mirror as shown. The angle $r$ is`);

  // The image button: a file is chosen, uploaded, and its Markdown lands in the question.
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Add an image to the question" }).click();
  await (await chooser).setFiles({ name: "ray.png", mimeType: "image/png", buffer: await diagram() });
  await expect(page.getByLabel("Question", { exact: true })).toHaveValue(
    /\n\n!\[Figure\]\(\/media\/question-images\/[0-9a-f-]{36}\/[0-9a-f-]{36}\.webp\)$/,
  );
  const preview = page.getByTestId("question-preview");
  await expect(preview.getByRole("img", { name: "Figure" })).toBeVisible();
  await expect.poll(() => loaded(preview.getByRole("img", { name: "Figure" }))).toBe(true);

  // A file that is not an image is refused with the product's words.
  const second = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Add an image to the solution" }).click();
  await (await second).setFiles({ name: "notes.png", mimeType: "image/png", buffer: Buffer.from("not an image") });
  await expect(
    page.getByRole("alert").filter({ hasText: "Please upload a PNG, JPEG, WebP or SVG image." }),
  ).toBeVisible();

  await page.getByLabel("Option A", { exact: true }).fill("equal to $i$");
  await page.getByLabel("Option B", { exact: true }).fill("twice $i$");
  await page.getByLabel("Option A is correct").check();
  await page.getByLabel("Subject").fill("Physics");
  await shot(page, "1-editor-with-figure");
  await page.getByRole("button", { name: "Add question" }).click();
  await expect(page.getByText("Question added to the bank")).toBeVisible();

  // The bank lists the question with its figure.
  await page.goto(`/creator/tests/questions?q=${encodeURIComponent(words)}`);
  const listed = page.getByRole("img", { name: "Figure" }).first();
  await expect(listed).toBeVisible();
  await expect.poll(() => loaded(listed)).toBe(true);

  const { questions } = await page.evaluate(
    async (q) => (await fetch(`/api/questions?q=${encodeURIComponent(q)}`)).json(),
    words,
  );
  const question = questions[0] as { _id: string };
  const api = await playwright.request.newContext({
    baseURL: platform,
    extraHTTPHeaders: { "x-forwarded-for": `10.252.${Date.now() & 255}.${(Date.now() >> 8) & 255}` },
  });
  const title = `Figures mock ${unique()}`;
  // The demo creator builds and publishes a test of Sunrise Academy from the question, through the API.
  const { id: testId } = await publishTestAsCreator(api, {
    title,
    pattern: "custom",
    durationMinutes: 20,
    price: 0,
    questions: [question._id],
  });

  // A student on the institute's domain, on a phone.
  await page.context().clearCookies();
  await page.setViewportSize({ width: 390, height: 844 });
  await signUpFromTest(page, testId, "Meera Shah");
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByRole("checkbox", { name: /I have read and understood the instructions/ }).check();
  await page.getByRole("button", { name: "I am ready to begin" }).click();
  await expect(page.getByText("Question No. 1")).toBeVisible();

  // The figure is served on the institute's domain within its policy, and fits the phone.
  const figure = page.getByRole("img", { name: "Figure" }).first();
  await expect(figure).toBeVisible();
  await expect.poll(() => loaded(figure)).toBe(true);
  const box = (await figure.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, "2-exam-phone-figure");

  // A tap opens it larger.
  await figure.click();
  const dialog = page.getByRole("dialog", { name: "Figure" });
  await expect(dialog).toBeVisible();
  const large = dialog.getByRole("img", { name: "Figure" });
  await expect.poll(() => loaded(large)).toBe(true);
  expect((await large.boundingBox())!.width).toBeGreaterThan(box.width);
  await shot(page, "3-exam-figure-opened");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
});
