import { expect, test, type Page } from "@playwright/test";
import { buyPlanAsNewBusiness } from "./journeys";

const port = Number(process.env.E2E_PORT);
const site = (name: "demo-t1" | "demo-t2") => `http://${name}.localhost:${port}`;

async function signInAsBusiness(page: Page, base = "") {
  await page.goto(`${base}/auth?role=business&mode=login`);
  await page.getByLabel("Email").fill("business@example.com");
  await page.getByLabel("Password", { exact: true }).fill("demo-business-2025");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/business$/);
}

test("the owner applies templates and the institute's domain shows each at once", async ({ page, context }) => {
  await signInAsBusiness(page);
  // Work on Sunrise Academy (demo-t1) explicitly: the owner has two institutes.
  await page.goto("/business/templates");
  const switcher = page.getByLabel("Institute");
  await switcher.selectOption({ label: "Sunrise Academy" });
  await expect(page).toHaveURL(/\/business\/templates$/);
  await expect(page.getByText("Choose how Sunrise Academy's website looks.")).toBeVisible();

  const card = (n: number) => page.locator("li").filter({ hasText: `Template ${n} ·` });
  await card(3).getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText("Template applied")).toBeVisible();
  await expect(page.getByText("Your website is now using t3.")).toBeVisible();
  await expect(card(3).getByRole("button", { name: "Applied" })).toBeDisabled();

  const visitor = await context.browser()!.newPage();
  await visitor.goto(`${site("demo-t1")}/`);
  await expect(visitor.locator("html")).toHaveAttribute("data-template", "t3");
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText("Sunrise Academy");

  await card(2).getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText("Your website is now using t2.")).toBeVisible();
  await visitor.reload();
  await expect(visitor.locator("html")).toHaveAttribute("data-template", "t2");
  await visitor.close();
});

test("an institute buys a plan, applies t3, and its own domain serves t3; switching to t2 shows at once", async ({ page, context }) => {
  const id = Date.now().toString(36);
  const domain = `bright-${id}.test`;
  await buyPlanAsNewBusiness(page, { institute: "Bright Minds Academy", domain, owner: "Rekha Pillai", email: `rekha.${id}@example.com` });
  const card = (n: number) => page.locator("li").filter({ hasText: `Template ${n} ·` });
  await expect(card(1).getByRole("button", { name: "Applied" })).toBeDisabled();
  await card(3).getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText("Your website is now using t3.")).toBeVisible();

  const visitor = await context.browser()!.newPage();
  await visitor.goto(`http://${domain}:${port}/`);
  await expect(visitor.locator("html")).toHaveAttribute("data-template", "t3");
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText("Bright Minds Academy");
  await expect(visitor.getByText(`info@${domain}`)).toBeVisible();

  await card(2).getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText("Your website is now using t2.")).toBeVisible();
  await visitor.reload();
  await expect(visitor.locator("html")).toHaveAttribute("data-template", "t2");
  await visitor.close();
});

test("a visitor's enquiry reaches the owner's leads", async ({ page, context }) => {
  const visitor = await context.browser()!.newPage();
  await visitor.goto(`${site("demo-t2")}/`);
  await visitor.getByRole("link", { name: "Book Demo" }).first().click();
  const dialog = visitor.getByRole("dialog", { name: "Book Demo" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Your name").fill("Kavya Nair");
  await dialog.getByLabel("Phone").fill("98765 43210");
  await dialog.getByLabel("E-mail").fill("kavya@example.com");
  await dialog.getByLabel("Message (optional)").fill("Is there a weekend batch?");
  await dialog.getByRole("button", { name: "Send enquiry" }).click();
  await expect(dialog.getByText("Thank you! We have received your enquiry and will call you back soon.")).toBeVisible();
  await visitor.close();

  await signInAsBusiness(page);
  await page.goto("/business/leads");
  await page.getByLabel("Institute").selectOption({ label: "Vidya JEE & NEET Classes" });
  await expect(page.getByText("Enquiries left on Vidya JEE & NEET Classes's website.")).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: "Kavya Nair" });
  await expect(row).toBeVisible();
  await expect(row.getByText("Book Demo")).toBeVisible();
  await expect(row.getByText("Is there a weekend batch?")).toBeVisible();
  await row.getByLabel("Lead status").selectOption("contacted");
  await page.getByRole("link", { name: /^Contacted \(/ }).click();
  await expect(page.getByRole("row").filter({ hasText: "Kavya Nair" })).toBeVisible();
});

test("an enquiry form rejects bad input in the product's words", async ({ page }) => {
  await page.goto(`${site("demo-t1")}/#contact`);
  const form = page.locator("#contact form");
  await form.getByLabel("Your name").fill("X");
  await form.getByLabel("Phone").fill("0000");
  await form.getByLabel("E-mail").fill("x@example.com");
  await form.getByRole("button", { name: "Send enquiry" }).click();
  await expect(form.getByText("Please enter a valid phone number")).toBeVisible();
});

test("the institute's admin path leads to its own sign-in and business area, on its domain", async ({ page }) => {
  await page.goto(`${site("demo-t1")}/admin`);
  await expect(page).toHaveURL(`${site("demo-t1")}/auth?role=business&mode=login&redirectTo=%2Fbusiness`);
  await expect(page.getByText("Sunrise Academy").first()).toBeVisible();
  await page.getByLabel("Email").fill("business@example.com");
  await page.getByLabel("Password", { exact: true }).fill("demo-business-2025");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`${site("demo-t1")}/business`);
  await page.goto(`${site("demo-t1")}/business/templates`);
  await expect(page.getByText("Choose how Sunrise Academy's website looks.")).toBeVisible();
});

test("the website preview renders the chosen template with the institute's name", async ({ page }) => {
  await signInAsBusiness(page);
  await page.goto("/business/website?template=t4");
  await expect(page.locator("[data-template=t4]")).toBeVisible();
  await expect(page.getByText("Previewing Template 4 · Calm")).toBeVisible();
});

test("an unknown domain answers 404", async ({ page }) => {
  const response = await page.goto(`http://no-such-institute.test:${port}/`);
  expect(response?.status()).toBe(404);
  await expect(page.getByText("This site is not configured")).toBeVisible();
});
