import { mkdirSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { join } from "node:path";
import { expect, test, type Page } from "./fixtures.ts";
import { buyPlanAsNewBusiness, outboxMail, unique } from "./journeys.ts";
import { MESSAGE_LANGUAGE_TEXTS } from "../../common/validation/message-language.ts";
import { RESET_TEXTS } from "../../common/validation/account-security.ts";

/**
 * The language of messages (issue 38 §6): an owner chooses हिन्दी for the institute, and its new
 * student's welcome in the sandbox outbox is in Hindi; the student then chooses English on the
 * Account page, and their next message is in English.
 */

const SHOTS = process.env.SCREENSHOT_DIR ?? join("test-results", "message-language-screens");
mkdirSync(SHOTS, { recursive: true });
const port = Number(process.env.E2E_PORT);

/** What axe-core finds wrong in the part of the page `selector` names. */
async function axeViolations(page: Page, selector: string) {
  const { violations } = await new AxeBuilder({ page })
    .include(selector)
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .analyze();
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

test("an owner chooses हिन्दी for the institute's messages; a student chooses English on the Account page", async ({
  page,
  browser,
}) => {
  const id = unique();
  const institute = `Gyan Deep ${id}`;
  const domain = `gyandeep-${id}.test`;
  await buyPlanAsNewBusiness(page, {
    institute,
    domain,
    owner: "Sunita Mishra",
    email: `gyandeep.owner.${id}@example.com`,
  });

  // The owner's setting: English until chosen.
  await page.goto("/business/site");
  const card = page.locator("#language");
  await expect(card.getByRole("heading", { name: MESSAGE_LANGUAGE_TEXTS.title })).toBeVisible();
  await expect(card.getByRole("radio", { name: "English" })).toBeChecked();
  await card.getByRole("radio", { name: "हिन्दी" }).check();
  await card.getByRole("button", { name: MESSAGE_LANGUAGE_TEXTS.save }).click();
  await expect(page.getByText("Messages from your institute will now be in हिन्दी")).toBeVisible();
  await page.reload();
  await expect(card.getByRole("radio", { name: "हिन्दी" })).toBeChecked();
  await card.scrollIntoViewIfNeeded();
  await card.screenshot({ path: join(SHOTS, "institute-setting.png") });
  expect(await axeViolations(page, "#language")).toEqual([]);

  // A student signs up on the institute's site: the welcome is in Hindi.
  const site = `http://${domain}:${port}`;
  // The student is another visitor, from an address of their own (tests/e2e/fixtures.ts).
  const student = await (
    await browser.newContext({ extraHTTPHeaders: { "x-forwarded-for": "10.251.38.6" } })
  ).newPage();
  const email = `gyandeep.student.${id}@example.com`;
  await student.goto(`${site}/auth?role=student&mode=register`);
  await student.getByLabel("Full name").fill("Pooja Yadav");
  await student.getByLabel("Email").fill(email);
  await student.getByLabel("Password", { exact: true }).fill("tangerine-kettle-42");
  await student.getByLabel("Confirm password").fill("tangerine-kettle-42");
  await student.getByRole("button", { name: "Create account" }).click();
  await expect(student).toHaveURL(new RegExp(`^${site}/student$`));

  const outbox = await browser.newPage();
  const welcome = await outboxMail(outbox, email, `${institute} में आपका स्वागत है`, site);
  await expect(welcome).toContainText(`नमस्ते Pooja Yadav,`);
  await expect(welcome).toContainText(`${institute} पर आपका खाता बन गया है। यहाँ से शुरू करें:`);
  await welcome.screenshot({ path: join(SHOTS, "hindi-welcome-in-outbox.png") });

  // The student's own choice: Institute's choice until changed; English wins over the institute's हिन्दी.
  await student.goto(`${site}/student/account`);
  const language = student.getByRole("group", { name: MESSAGE_LANGUAGE_TEXTS.title });
  await expect(language.getByRole("radio", { name: MESSAGE_LANGUAGE_TEXTS.instituteChoice })).toBeChecked();
  await language.getByRole("radio", { name: "English" }).check();
  await student.getByRole("button", { name: MESSAGE_LANGUAGE_TEXTS.save }).click();
  await expect(student.getByText("Your messages will now be in English")).toBeVisible();
  await student.reload();
  await expect(language.getByRole("radio", { name: "English" })).toBeChecked();
  await language.scrollIntoViewIfNeeded();
  await student.screenshot({ path: join(SHOTS, "account-setting.png") });
  expect(await axeViolations(student, "#message-language")).toEqual([]);

  // Their next message, a reset link asked for on the institute's site, is in English.
  await student.context().clearCookies();
  await student.goto(`${site}/forgot-password?email=${encodeURIComponent(email)}`);
  await student.getByRole("button", { name: "Send reset link" }).click();
  await expect(student.getByRole("status")).toHaveText(RESET_TEXTS.sent);
  const reset = await outboxMail(outbox, email, `Reset your ${institute} password`, site);
  await expect(reset).toContainText("Hello Pooja Yadav,");
  await outbox.screenshot({ path: join(SHOTS, "outbox.png"), fullPage: true });
});
