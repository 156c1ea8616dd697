import { expect, test, type Page } from "./fixtures.ts";
import { signIn } from "./journeys.ts";

/**
 * The platform's public pages, kept as bytes for visitors who are not signed in (decision 0018),
 * run in the browser exactly as rendered ones do: every inline script allowed (by its hash), none
 * refused, the page hydrated; a signed-in visitor's pages are rendered for them, with a nonce.
 */
const PAGES = ["/", "/about", "/contact", "/invest", "/legal", "/get-started", "/pricing"];

/** Records every Content-Security-Policy violation and script error of the page. */
async function watchForViolations(page: Page): Promise<string[]> {
  const problems: string[] = [];
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      (window as unknown as { __violations: string[] }).__violations ??= [];
      (window as unknown as { __violations: string[] }).__violations.push(
        `${event.violatedDirective} ${event.blockedURI}`,
      );
    });
  });
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  return problems;
}

const violations = (page: Page) =>
  page.evaluate(() => (window as unknown as { __violations?: string[] }).__violations ?? []);

test("every public page runs its scripts under its policy, kept or rendered, and hydrates", async ({ page }) => {
  const problems = await watchForViolations(page);
  for (const path of PAGES) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    const headers = response!.headers();
    // Kept: a policy naming hashes, no nonce anywhere.
    expect(headers["content-security-policy"], path).toMatch(/script-src 'self'( 'sha256-[^']+')+;/);
    expect(headers.etag, path).toBeTruthy();
    // Hydrated: React Router's client is running the page.
    await expect
      .poll(
        () =>
          page.evaluate(() =>
            Boolean((window as unknown as { __reactRouterRouteModules?: object }).__reactRouterRouteModules),
          ),
        { message: path },
      )
      .toBe(true);
    expect(await violations(page), path).toEqual([]);
  }
  expect(problems).toEqual([]);
});

test("a kept page navigates in the browser and answers its controls", async ({ page }) => {
  const problems = await watchForViolations(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/");
  // A client-side navigation: the document stays, the next page's data is fetched.
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Pricing" }).click();
  await expect(page).toHaveURL(/\/pricing$/);
  await expect(page.getByRole("heading", { level: 1, name: "Simple, transparent pricing" })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  // The billing tabs work only once hydrated.
  await page.getByRole("tab", { name: "Yearly" }).click();
  await expect(page.getByRole("tab", { name: "Yearly" })).toHaveAttribute("aria-selected", "true");
  expect(await violations(page)).toEqual([]);
  expect(problems).toEqual([]);
});

test("a signed-in visitor's public pages are rendered for them, with a nonce, and run as well", async ({ page }) => {
  const problems = await watchForViolations(page);
  await signIn(page, "student@example.com", "demo-student-2025", "student");
  await expect(page.getByText("Welcome back, Priya Das!")).toBeVisible();
  for (const path of ["/", "/pricing"]) {
    const response = await page.goto(path);
    const headers = response!.headers();
    expect(headers["content-security-policy"], path).toMatch(/script-src 'self' 'nonce-[^']+';/);
    expect(headers.etag, path).toBeUndefined();
    await expect
      .poll(
        () =>
          page.evaluate(() =>
            Boolean((window as unknown as { __reactRouterRouteModules?: object }).__reactRouterRouteModules),
          ),
        { message: path },
      )
      .toBe(true);
    expect(await violations(page), path).toEqual([]);
  }
  // Still signed in: their dashboard greets them.
  await page.goto("/student");
  await expect(page.getByText("Welcome back, Priya Das!")).toBeVisible();
  expect(problems).toEqual([]);
});
