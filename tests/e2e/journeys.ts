import { expect, type Browser, type Page } from "@playwright/test";
import { E2E_ADMIN } from "./admin-account.ts";

/** Steps shared by the dashboard and business-area journeys. */

let n = 0;
export const unique = () => `${Date.now().toString(36)}${++n}`;

export async function signInAsAdmin(page: Page) {
  await page.goto("/dashboard");
  await page.getByLabel("Email").fill(E2E_ADMIN.email);
  await page.getByLabel("Password", { exact: true }).fill(E2E_ADMIN.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/dashboard\/overview$/);
}

export async function signIn(
  page: Page,
  email: string,
  password: string,
  role: "business" | "student" | "creator" = "business",
) {
  await page.goto(`/auth?role=${role}&mode=login`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`/${role}$`));
}

export async function registerBusiness(page: Page, name: string, email: string, password = "tangerine-kettle-42") {
  await page.goto("/auth?role=business&mode=register");
  await page.getByLabel("Full name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByLabel("Confirm password").fill(password);
  await page.getByRole("button", { name: /create account/i }).click();
  await expect(page).toHaveURL(/\/business$/);
}

/** Steps 1 and 2 of the wizard, leaving it on step 3. */
export async function fillWizard(page: Page, d: { institute: string; domain: string; owner: string; email: string }) {
  await page.getByLabel("Institute/Brand Name *").fill(d.institute);
  await page.getByLabel("Preferred Domain Name *").fill(d.domain);
  await expect(page.getByText(`${d.domain} is available`)).toBeVisible();
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByLabel("Owner/Director Full Name *").fill(d.owner);
  await page.getByLabel("Email Address *").fill(d.email);
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByText("Step 3 of 3: Review & Payment")).toBeVisible();
}

/** Pays in the sandbox's Checkout, which is open. */
export async function payInSandbox(page: Page) {
  const checkout = page.getByRole("dialog", { name: "Pathshala" });
  await expect(checkout.getByText("Test mode — no real money")).toBeVisible();
  await checkout.getByRole("button", { name: /^Pay / }).click();
}

/**
 * A signed-in business buys a plan through the setup wizard and the sandbox's Checkout, and
 * lands on Launching Soon.
 */
export async function buyPlan(
  page: Page,
  d: { institute: string; domain: string; owner: string; email: string; plan?: string; billing?: string },
) {
  await page.goto(
    `/pricing/setup?plan=${encodeURIComponent(d.plan ?? "1 Year Plan")}&billing=${d.billing ?? "monthly"}`,
  );
  await fillWizard(page, d);
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await payInSandbox(page);
  await expect(page.getByText("Payment successful")).toBeVisible();
  await expect(page).toHaveURL(/\/admin$/);
}

/**
 * The owner proves their institute's domain in Setup Details: Check now finds it leading here
 * (the server reaches a *.test name on itself, as the browser does). It then serves the site.
 */
export async function proveDomain(page: Page, domain: string) {
  await page.goto("/business/setup");
  const waiting = page.getByRole("region", { name: "Domain waiting for proof" });
  await expect(waiting).toContainText(domain);
  await expect(waiting).toContainText("Waiting for proof");
  await waiting.getByRole("button", { name: "Check now" }).click();
  await expect(page.getByText(`${domain} is proven: it now opens your website.`).first()).toBeVisible();
  await expect(page.getByRole("region", { name: "Proven domain" })).toContainText(domain);
}

/**
 * A visitor buys the cheapest plan, signing up as a business inside the wizard, and proves the
 * domain; ends on /business/templates.
 */
export async function buyPlanAsNewBusiness(
  page: Page,
  d: { institute: string; domain: string; owner: string; email: string },
) {
  await page.goto("/pricing/setup?plan=1%20Year%20Plan&price=5000&billing=monthly");
  await fillWizard(page, d);
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  const dialog = page.getByRole("dialog", { name: "Continue with a business account" });
  await dialog.getByLabel("Password", { exact: true }).fill("tangerine-kettle-42");
  await dialog.getByLabel("Confirm password").fill("tangerine-kettle-42");
  await dialog.getByRole("button", { name: "Create account and continue" }).click();
  await payInSandbox(page);
  await expect(page).toHaveURL(/\/business\/templates$/, { timeout: 20_000 });
  await proveDomain(page, d.domain);
  await page.goto("/business/templates");
}

/**
 * The demo owner invites `email` to one of their institutes' teams (through the API, as the Team
 * page's form does) and returns the invitation link.
 */
export async function inviteToTeam(browser: Browser, email: string, institute = "Sunrise Academy"): Promise<string> {
  const owner = await browser.newPage();
  try {
    await signIn(owner, "business@example.com", "demo-business-2025", "business");
    const { businesses } = await (await owner.request.get("/api/businesses")).json();
    const center = (businesses as { _id: string; name: string }[]).find((b) => b.name === institute)!;
    const origin = new URL(owner.url()).origin;
    const res = await owner.request.post(`/api/team/invitations?centerId=${center._id}`, {
      headers: { origin },
      data: { email },
    });
    expect(res.status()).toBe(201);
    return (await res.json()).link as string;
  } finally {
    await owner.close();
  }
}
