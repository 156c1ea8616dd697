import { mkdirSync } from "node:fs";
import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "./fixtures.ts";
import { signInAsAdmin } from "./journeys.ts";
import { PHONE_TEXTS } from "../../common/validation/phone-code.ts";
import { E2E_ADMIN } from "./admin-account.ts";

/**
 * The browser walk's findings (issue 38 §6), each seen: the sign-in greeting, the sign-in code
 * step, pages that hydrate without React's error 418, the overview on a phone, and axe's
 * serious findings (contrast of toasts and badges, scroll areas a keyboard cannot reach).
 */

const SHOTS = process.env.SCREENSHOT_DIR ?? join("test-results", "walk-findings");
mkdirSync(SHOTS, { recursive: true });

/** Console errors and page errors while `run` runs (React reports a failed hydration there). */
async function errorsDuring(page: Page, run: () => Promise<void>): Promise<string[]> {
  const errors: string[] = [];
  const onConsole = (m: { type(): string; text(): string }) => {
    if (m.type() === "error") errors.push(m.text());
  };
  const onError = (e: Error) => errors.push(e.message);
  page.on("console", onConsole);
  page.on("pageerror", onError);
  try {
    await run();
  } finally {
    page.off("console", onConsole);
    page.off("pageerror", onError);
  }
  return errors;
}

async function serious(page: Page, rules: string[]) {
  const { violations } = await new AxeBuilder({ page }).withRules(rules).analyze();
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(" ")} ${n.any[0]?.message ?? ""}`).join(", ")}`);
}

test("/login greets each role by the platform's name, never 'the product'", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel("Email").fill("student@example.com");
  await page.getByLabel("Password", { exact: true }).fill("demo-student-2025");
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/student$/);
  const toast = page.locator("[data-sonner-toast]").filter({ hasText: "Success!" });
  await expect(toast).toContainText("Welcome to the Pathshala Dashboard");
  await expect(page.getByText("Welcome to the product Dashboard")).toHaveCount(0);
  // The success toast's text meets 4.5:1 (axe found 4.25:1).
  expect(await serious(page, ["color-contrast"])).toEqual([]);
  await page.screenshot({ path: join(SHOTS, "login-greeting.png") });
});

test("a mistyped sign-in code keeps the student on the code step, with the number and the error", async ({ page }) => {
  const number = `+91 98${String(Date.now()).slice(-8)}`;
  await page.goto("/login-code");
  await page.getByLabel("Mobile number").fill(number);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page.getByRole("status")).toContainText("If an account has verified this number");
  await page.getByLabel("Code").fill("000000");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByText(PHONE_TEXTS.wrongCode)).toBeVisible();
  // Still the code step: the code field, the number kept, and a way to ask for a new code.
  await expect(page.getByLabel("Code")).toBeVisible();
  await expect(page.getByLabel("Mobile number")).toHaveValue(number);
  await expect(page.getByRole("button", { name: "Send a new code" })).toBeVisible();
  await page.screenshot({ path: join(SHOTS, "sign-in-code-wrong.png") });
});

test("pages with times hydrate without error (no React 418): India time on server and browser", async ({ page }) => {
  await signInAsAdmin(page);
  for (const path of ["/dashboard/overview", "/dashboard/settings/platform", "/dashboard/bookings"]) {
    const errors = await errorsDuring(page, async () => {
      await page.goto(path);
      await page.waitForLoadState("networkidle");
    });
    expect(
      errors.filter((e) => /418|hydrat/i.test(e)),
      path,
    ).toEqual([]);
  }
});

test("the admin overview fits a phone, its scroll areas take the keyboard, its badges read at 4.5:1", async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.goto("/dashboard");
  await page.getByLabel("Email").fill(E2E_ADMIN.email);
  await page.getByLabel("Password", { exact: true }).fill(E2E_ADMIN.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/dashboard\/overview$/);
  await page.waitForLoadState("networkidle");
  // A phone zooms out to a page wider than its screen, so the width is compared with the screen's.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: join(SHOTS, "overview-390.png"), fullPage: true });
  expect(await serious(page, ["color-contrast", "scrollable-region-focusable"])).toEqual([]);

  // The notifications' TRIAL and REFUND tags.
  await page.getByTestId("notifications-bell").click();
  await expect(page.getByRole("dialog", { name: "Notifications" })).toBeVisible();
  expect(await serious(page, ["color-contrast"])).toEqual([]);
  await page.screenshot({ path: join(SHOTS, "notifications-390.png") });

  for (const path of ["/dashboard/bookings", "/dashboard/messages", "/dashboard/centers"]) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    expect(await serious(page, ["scrollable-region-focusable"]), path).toEqual([]);
  }
  await context.close();
});
