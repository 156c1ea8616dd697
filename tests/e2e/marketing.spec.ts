import { expect, test, type Page } from "./fixtures.ts";

const port = Number(process.env.E2E_PORT);

/** Records whether the page was dark when <body> first appeared, i.e. at first paint. */
async function recordFirstPaintTheme(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __darkAtFirstPaint?: boolean };
    new MutationObserver((_, observer) => {
      if (!document.body) return;
      w.__darkAtFirstPaint = document.documentElement.classList.contains("dark");
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  });
}
const darkAtFirstPaint = (page: Page) =>
  page.evaluate(() => (window as unknown as { __darkAtFirstPaint?: boolean }).__darkAtFirstPaint);

test.describe("landing page", () => {
  test("the typewriter cycles 'All Boards.', 'All Subjects.', 'All Students.'", async ({ page }) => {
    await page.goto("/");
    const typewriter = page.getByTestId("typewriter");
    await expect(typewriter).toHaveText("All Boards.");
    await expect(page.getByRole("heading", { level: 1 })).toHaveAccessibleName(
      /One platform\.\s*All Boards\. All Subjects\. All Students\./,
    );
    await expect(typewriter).toHaveText("All Subjects.", { timeout: 12_000 });
    await expect(typewriter).toHaveText("All Students.", { timeout: 12_000 });
  });

  test("the typewriter and the backgrounds hold still for visitors who prefer less motion", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    // The page's timers run on a clock the test moves: 4.5 s pass at once, in which the typewriter
    // (every 2.5 s) and the backgrounds would otherwise have changed.
    await page.clock.install();
    await page.goto("/");
    await expect(page.locator("html[data-hydrated]")).toBeAttached();
    await expect(page.getByTestId("typewriter")).toHaveText("All Boards.");
    await page.clock.runFor(4500);
    await expect(page.getByTestId("typewriter")).toHaveText("All Boards.");
    await expect(page.locator("section.relative img")).toHaveCount(1);
  });

  test("only the first hero image loads eagerly; the others join after load and rotate", async ({ page }) => {
    const html = await (await page.request.get("/")).text();
    expect(html.match(/<img[^>]*fetchpriority="high"/gi)).toHaveLength(1);
    expect(html.match(/<img[^>]*loading="eager"/gi)).toHaveLength(1);
    // The first background is announced in <head>, ahead of the scripts.
    expect(html.indexOf('rel="preload" as="image"')).toBeLessThan(html.indexOf('rel="modulepreload"'));
    expect(html).toMatch(/srcset="\/images\/hero\/hero-1-640\.avif 640w/i);
    expect(html).not.toContain("/images/hero/hero-2-");
    await page.goto("/");
    await expect(page.locator("[data-active]")).toHaveCount(5, { timeout: 5000 });
    await expect(page.locator('[data-active="true"] img')).toHaveAttribute("src", /hero-2-/, { timeout: 8000 });
  });

  test("has every section the spec lists", async ({ page }) => {
    await page.goto("/");
    await expect(
      page.getByRole("heading", { name: "Everything your institute needs to teach and grow online" }),
    ).toBeVisible();
    for (const feature of [
      "Course Management",
      "Student Management",
      "Marketing Tools",
      "Analytics",
      "Certificates",
      "Dashboard",
    ]) {
      await expect(page.locator("#features").getByRole("heading", { name: feature })).toBeVisible();
    }
    await expect(page.getByText("50,000+")).toBeVisible();
    await expect(page.getByRole("img", { name: "5 out of 5 stars" })).toHaveCount(3);
    await expect(page.locator("#about").getByRole("link", { name: /Learn more about us/ })).toHaveAttribute(
      "href",
      "/about",
    );
    await expect(page.locator("#contact").getByRole("link", { name: /Contact us/ })).toHaveAttribute(
      "href",
      "/contact",
    );
    for (const column of ["Product", "Company", "Legal"])
      await expect(page.getByRole("contentinfo").getByRole("heading", { name: column })).toBeVisible();
    const header = page.getByRole("banner");
    for (const [name, href] of [
      ["Creators", "/creator"],
      ["Businesses", "/business"],
      ["Students", "/student"],
      ["About", "/about"],
      ["Contact", "/contact"],
      ["Invest Now", "/invest"],
      ["Start Free Trial", "/pricing/setup?trial=1"],
    ]) {
      await expect(header.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
    }
  });

  test("the header changes style after 20 px of scroll", async ({ page }) => {
    await page.goto("/");
    const header = page.getByRole("banner");
    await expect(header).toHaveAttribute("data-scrolled", "false");
    await page.mouse.wheel(0, 400);
    await expect(header).toHaveAttribute("data-scrolled", "true");
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(header).toHaveAttribute("data-scrolled", "false");
  });

  test("the mobile menu adds the catalogue", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/");
    await expect(page.getByRole("banner").getByRole("link", { name: "Catalog", exact: true })).toBeHidden();
    await page.getByRole("button", { name: "Open menu" }).click();
    const menu = page.getByRole("navigation", { name: "Mobile" });
    await expect(menu.getByRole("link", { name: "Catalog" })).toHaveAttribute("href", "/catalog");
    await expect(menu.getByRole("link", { name: "Join Now" })).toHaveAttribute("href", "/invest");
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
  });

  test("the FAQ opens on hover, one item at a time, and by click and keyboard", async ({ page }) => {
    await page.goto("/");
    const faq = page.locator("#faq");
    const questions = faq.getByRole("button");
    await expect(questions).toHaveCount(6);
    await expect(faq.locator('[aria-expanded="true"]')).toHaveCount(0);

    await questions.nth(1).hover();
    await expect(questions.nth(1)).toHaveAttribute("aria-expanded", "true");
    await expect(faq.getByText("No. You fill in a short form")).toBeVisible();
    await questions.nth(3).hover();
    await expect(questions.nth(3)).toHaveAttribute("aria-expanded", "true");
    await expect(questions.nth(1)).toHaveAttribute("aria-expanded", "false");
    await expect(faq.getByText("No. You fill in a short form")).toBeHidden();
    await expect(faq.locator('[aria-expanded="true"]')).toHaveCount(1);

    // Clicking the question the pointer opened keeps it open; a second click closes it.
    await questions.nth(3).click();
    await expect(questions.nth(3)).toHaveAttribute("aria-expanded", "true");
    await questions.nth(3).click();
    await expect(questions.nth(3)).toHaveAttribute("aria-expanded", "false");

    await page.mouse.move(0, 0);
    await questions.nth(4).focus();
    await page.keyboard.press("Enter");
    await expect(questions.nth(4)).toHaveAttribute("aria-expanded", "true");
    await expect(faq.getByText("Every plan starts with a 14-day free trial")).toBeVisible();
    await page.keyboard.press("Space");
    await expect(questions.nth(4)).toHaveAttribute("aria-expanded", "false");
  });
});

test.describe("cookie banner", () => {
  test("Reject hides it for this page view only", async ({ page }) => {
    await page.goto("/");
    const banner = page.getByRole("region", { name: "Cookie consent" });
    await expect(banner).toBeVisible();
    await banner.getByRole("button", { name: "Reject" }).click();
    await expect(banner).toBeHidden();
    await page.reload();
    await expect(banner).toBeVisible();
    await banner.getByRole("button", { name: "Reject" }).click();
    await page.getByRole("banner").getByRole("link", { name: "About", exact: true }).click();
    await expect(page).toHaveURL(/\/about$/);
    await expect(banner).toBeVisible();
  });

  test("Accept stores the consent: the banner never comes back", async ({ page, context }) => {
    await page.goto("/pricing");
    const banner = page.getByRole("region", { name: "Cookie consent" });
    await banner.getByRole("button", { name: "Accept" }).click();
    await expect(banner).toBeHidden();
    expect((await context.cookies()).find((c) => c.name === "pathshala_cookie_consent")?.value).toBe("accepted");
    await page.reload();
    await expect(page.getByRole("heading", { name: "Simple, transparent pricing" })).toBeVisible();
    await expect(banner).toHaveCount(0);
    await page.getByRole("banner").getByRole("link", { name: "Home", exact: true }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(banner).toHaveCount(0);
  });
});

test.describe("theme", () => {
  test("a chosen theme persists across reloads with no flash of the other one", async ({ page }) => {
    await recordFirstPaintTheme(page);
    await page.emulateMedia({ colorScheme: "light" });
    await page.goto("/");
    expect(await darkAtFirstPaint(page)).toBe(false);
    await page.getByRole("banner").getByRole("radio", { name: "Dark" }).click();
    await expect(page.locator("html")).toHaveClass(/\bdark\b/);

    await page.reload();
    expect(await darkAtFirstPaint(page)).toBe(true);
    await expect(page.getByRole("banner").getByRole("radio", { name: "Dark" })).toHaveAttribute("aria-checked", "true");
    // The server already renders the chosen theme.
    expect(await (await page.request.get("/pricing")).text()).toMatch(/<html[^>]*class="dark"/);

    // Light wins over a dark OS.
    await page.emulateMedia({ colorScheme: "dark" });
    await page.getByRole("banner").getByRole("radio", { name: "Light" }).click();
    await page.reload();
    expect(await darkAtFirstPaint(page)).toBe(false);
    await expect(page.locator("html")).not.toHaveClass(/\bdark\b/);
  });

  test("System follows the OS setting, from first paint and live", async ({ page }) => {
    await recordFirstPaintTheme(page);
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto("/about");
    await page.getByRole("banner").getByRole("radio", { name: "System" }).click();
    await page.reload();
    expect(await darkAtFirstPaint(page)).toBe(true);
    await page.emulateMedia({ colorScheme: "light" });
    await expect(page.locator("html")).not.toHaveClass(/\bdark\b/);
    await page.emulateMedia({ colorScheme: "dark" });
    await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  });

  test("the switcher is a radio group driven by arrow keys", async ({ page }) => {
    await page.goto("/contact");
    const group = page.getByRole("banner").getByRole("radiogroup", { name: "Theme" });
    await group.getByRole("radio", { checked: true }).focus();
    await page.keyboard.press("ArrowLeft");
    await expect(group.getByRole("radio", { name: "Dark" })).toHaveAttribute("aria-checked", "true");
    await expect(group.getByRole("radio", { name: "Dark" })).toBeFocused();
    await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  });
});

test.describe("pricing", () => {
  test("billing tabs change every price and the Get Started link", async ({ page }) => {
    await page.goto("/pricing");
    const header = page.getByRole("banner");
    for (const [name, href] of [
      ["Home", "/"],
      ["Features", "/#features"],
      ["About", "/#about"],
      ["Contact", "/#contact"],
      ["Sign In", "/auth"],
      ["Get Started", "/get-started"],
    ]) {
      await expect(header.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
    }
    const cards = page.getByRole("article");
    await expect(cards).toHaveCount(3);
    await expect(cards.nth(0).getByRole("heading")).toHaveText("1 Year Plan");
    await expect(cards.nth(1).getByText("Most Popular")).toBeVisible();
    await expect(cards.nth(0).getByText("Most Popular")).toHaveCount(0);
    await expect(page.getByRole("tab", { name: "Monthly" })).toHaveAttribute("aria-selected", "true");
    await expect(cards.nth(0).getByTestId("plan-price")).toHaveText("₹5,000");
    await expect(cards.nth(0).getByRole("listitem")).toHaveText(["From Control", "Home Page", "AI-Chatbot"]);

    await page.getByRole("tab", { name: "3 months" }).click();
    await expect(cards.nth(0).getByTestId("plan-price")).toHaveText("₹14,000");
    await expect(cards.nth(0).getByText("/3 months")).toBeVisible();
    await expect(cards.nth(1).getByTestId("plan-price")).toHaveText("₹20,000");
    await expect(cards.nth(0).getByRole("link", { name: /Get Started/ })).toHaveAttribute(
      "href",
      "/pricing/setup?plan=1%20Year%20Plan&price=14000&billing=quarterly",
    );

    // Arrow keys move along the tabs.
    await page.getByRole("tab", { name: "3 months" }).focus();
    await page.keyboard.press("ArrowRight");
    await expect(page.getByRole("tab", { name: "Yearly" })).toHaveAttribute("aria-selected", "true");
    await expect(cards.nth(2).getByTestId("plan-price")).toHaveText("₹1,00,000");
    await expect(cards.nth(2).getByText("/year")).toBeVisible();

    await cards
      .nth(1)
      .getByRole("link", { name: /Get Started/ })
      .click();
    await expect(page).toHaveURL(/\/pricing\/setup\?plan=3%20Year%20Plan&price=70000&billing=yearly$/);
  });

  test("links the free trial, sales and the FAQ", async ({ page }) => {
    await page.goto("/pricing");
    await expect(page.getByRole("link", { name: "Start Free Trial" })).toHaveAttribute(
      "href",
      "/pricing/setup?trial=1",
    );
    await expect(page.getByRole("link", { name: "Contact Sales" })).toHaveAttribute("href", "/contact");
    await page.getByRole("button", { name: "Is there a free trial?" }).click();
    await expect(page.getByText("Every plan includes a 14-day free trial")).toBeVisible();
  });
});

test.describe("static pages and SEO", () => {
  test("each public page has its own title, description, canonical URL and Open Graph tags", async ({ page }) => {
    for (const [path, title] of [
      ["/", "Pathshala: the all-in-one platform for coaching institutes"],
      ["/pricing", "Pricing | Pathshala"],
      ["/invest", "Invest in Pathshala"],
      ["/about", "About us | Pathshala"],
      ["/contact", "Contact us | Pathshala"],
    ]) {
      await page.goto(path);
      await expect(page).toHaveTitle(title);
      const url = `http://localhost:${port}${path}`;
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", url);
      await expect(page.locator('meta[property="og:url"]')).toHaveAttribute("content", url);
      await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", title);
      await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /.{50,}/);
      await expect(page.locator('meta[property="og:image"]')).toHaveAttribute(
        "content",
        `http://localhost:${port}/images/og.png`,
      );
      await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
    }
  });

  test("about and contact carry the spec's content", async ({ page }) => {
    await page.goto("/contact");
    await expect(page.getByText("We reply within 24 hours").first()).toBeVisible();
    await expect(page.getByText("Mon-Fri 9AM-6PM IST").first()).toBeVisible();
    await expect(page.getByText("Kolkata, India")).toBeVisible();
    await expect(page.getByRole("heading", { name: "When we're available" })).toBeVisible();
    // The demo's Platform Settings give no chat, so no chat card is made up
    // (tests/integration/platform-contacts.test.ts shows the contacts that are set, and only those).
    await expect(page.getByRole("heading", { name: "Live chat" })).toHaveCount(0);
    await page.goto("/about");
    for (const heading of [
      "From one classroom in Kolkata",
      "What we stand for",
      "The people behind Pathshala",
      "Our impact",
    ]) {
      await expect(page.getByRole("heading", { name: heading })).toBeVisible();
    }
  });

  test("robots.txt and sitemap.xml describe the platform, and an institute's own site on its domain", async ({
    page,
  }) => {
    const robots = await page.goto("/robots.txt");
    expect(robots?.headers()["content-type"]).toContain("text/plain");
    expect(await robots?.text()).toContain(`Sitemap: http://localhost:${port}/sitemap.xml`);
    const sitemap = await (await page.goto("/sitemap.xml"))?.text();
    for (const path of ["/", "/pricing", "/invest", "/about", "/contact"])
      expect(sitemap).toContain(`<loc>http://localhost:${port}${path}</loc>`);

    const tenantSitemap = await (await page.goto(`http://demo-t1.localhost:${port}/sitemap.xml`))?.text();
    expect(tenantSitemap).toContain(`<loc>http://demo-t1.localhost:${port}/</loc>`);
    expect(tenantSitemap).not.toContain("/pricing");
    const tenantRobots = await (await page.goto(`http://demo-t1.localhost:${port}/robots.txt`))?.text();
    expect(tenantRobots).toContain(`Sitemap: http://demo-t1.localhost:${port}/sitemap.xml`);
  });

  test("a keyboard user can skip to the content", async ({ page }) => {
    await page.goto("/about");
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to content" });
    await expect(skip).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.locator("#main")).toBeFocused();
  });
});
