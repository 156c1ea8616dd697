import { expect, test, type Page } from "./fixtures.ts";
import { buyPlan, registerBusiness, signIn, signInAsAdmin, unique } from "./journeys.ts";

const port = Number(process.env.E2E_PORT);

const bell = (page: Page) => page.getByTestId("notifications-bell");
const badge = (page: Page) => page.getByTestId("notifications-badge");
const panel = (page: Page) => page.getByRole("dialog", { name: "Notifications" });

/** Opening the panel marks everything read (spec §4), which gives each test a clean start. */
async function openPanel(page: Page) {
  await bell(page).click();
  await expect(panel(page)).toBeVisible();
}
async function closePanel(page: Page) {
  await panel(page).getByRole("button", { name: "Close" }).click();
  await expect(panel(page)).toBeHidden();
}

test("notifications: a sandbox purchase and a template choice arrive unread within one poll; mark all read; clear all", async ({
  page,
  browser,
}) => {
  // The 45-second poll is driven by the page's own clock, fast-forwarded here.
  await page.clock.install();
  await signInAsAdmin(page);
  await openPanel(page);
  await closePanel(page);
  await expect(badge(page)).toHaveCount(0);

  // A business owner buys a plan in the sandbox (in their own browser).
  const id = unique();
  const institute = `Notify Academy ${id}`;
  const domain = `notify-${id}.test`;
  const owner = await browser.newContext();
  const ownerPage = await owner.newPage();
  await registerBusiness(ownerPage, "Farah Khan", `farah.${id}@example.com`);
  await buyPlan(ownerPage, { institute, domain, owner: "Farah Khan", email: `farah.${id}@example.com` });

  // The next route change polls: one unread purchase.
  await page.getByRole("link", { name: "Center List" }).click();
  await expect(page).toHaveURL(/\/dashboard\/centers$/);
  await expect(badge(page)).toHaveText("1");
  await expect(bell(page)).toHaveAccessibleName("Notifications, 1 unread");

  // The owner picks a template: the 45-second poll brings it in without any navigation.
  await ownerPage.goto("/business/templates");
  await ownerPage
    .getByRole("listitem")
    .filter({ hasText: "Template 2" })
    .getByRole("button", { name: "Apply" })
    .click();
  await expect(ownerPage.getByText("Template applied")).toBeVisible();
  await page.clock.fastForward(45_000);
  await expect(badge(page)).toHaveText("2");

  await openPanel(page);
  const items = panel(page).getByRole("list", { name: "Recent notifications" }).getByRole("listitem");
  await expect(items.nth(0)).toContainText(`${institute} applied template t2`);
  await expect(items.nth(1)).toContainText(`${institute} purchased 1 Year Plan`);
  await expect(items.nth(1)).toContainText(`₹5,000 · ${domain}`);
  await expect(items.nth(1)).toContainText(`Farah Khan (farah.${id}@example.com)`);
  await expect(panel(page).locator("li[data-unread]")).toHaveCount(2);
  // Opening the panel already stored the newest times: the badge is gone.
  await expect(badge(page)).toHaveCount(0);
  await panel(page).getByRole("button", { name: "Mark all read" }).click();
  await expect(panel(page).locator("li[data-unread]")).toHaveCount(0);
  await closePanel(page);

  // The read state lives on the server: a fresh page (another browser, even) agrees.
  await page.reload();
  await expect(bell(page)).toBeVisible();
  await expect(badge(page)).toHaveCount(0);

  await openPanel(page);
  await panel(page).getByRole("button", { name: "Clear all" }).click();
  await expect(panel(page).getByText("No recent notifications")).toBeVisible();
  await closePanel(page);
  await page.reload();
  await openPanel(page);
  await expect(panel(page).getByText("No recent notifications")).toBeVisible();
  await closePanel(page);

  // The overview's Recent Activity shows the same events.
  await page.getByRole("link", { name: "Overview" }).click();
  const activity = page.getByRole("list", { name: "Recent activity" });
  await expect(activity.getByText(`${institute} applied template t2`)).toBeVisible();
  await expect(activity.getByText(`${institute} bought 1 Year Plan`)).toBeVisible();
  // The purchase made the center: one event, not a second "New center" line.
  await expect(activity.getByText(`New center: ${institute}`)).toHaveCount(0);
  await owner.close();
});

test("overview: real figures for admins, Quick Actions and the pricing plans", async ({ page }) => {
  await signInAsAdmin(page);
  const stats = (await (await page.request.get("/api/admin/role-stats")).json()).collections as {
    businesses: number;
    students: number;
    creators: number;
  };
  const fmt = (n: number) => new Intl.NumberFormat("en-IN").format(n);
  await expect(page.getByTestId("stat-Total Business")).toHaveText(fmt(stats.businesses));
  await expect(page.getByTestId("stat-Total Students")).toHaveText(fmt(stats.students));
  await expect(page.getByTestId("stat-Total Creators")).toHaveText(fmt(stats.creators));
  await expect(page.getByTestId("stat-Growth")).toHaveText(/^[+-]?\d+%?$/);
  await expect(page.getByText("Admin only")).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "Pricing Plans" })).toBeVisible();
  await expect(page.getByText("1 Year Plan").first()).toBeVisible();
  await page.getByRole("link", { name: "Manage Plans" }).click();
  await expect(page).toHaveURL(/\/dashboard\/settings\/pricing$/);
  await page.goBack();
  await page.getByRole("link", { name: "View All Centers" }).click();
  await expect(page).toHaveURL(/\/dashboard\/centers$/);
  await page.goBack();
  await page.getByRole("main").getByRole("link", { name: "Create Sub Center" }).click();
  await expect(page).toHaveURL(/\/dashboard\/centers\/create$/);
});

test("others see zeros and 'Admin only', no bell, and no other dashboard page", async ({ page }) => {
  await page.goto("/dashboard/centers");
  await expect(page).toHaveURL(/\/dashboard\?redirectTo=%2Fdashboard%2Fcenters$/);
  await signIn(page, "student@example.com", "demo-student-2025", "student");
  await page.goto("/dashboard/overview");
  for (const label of ["Total Business", "Total Students", "Total Creators"])
    await expect(page.getByTestId(`stat-${label}`)).toHaveText("0");
  // The three account figures, growth, the three center figures and the three test figures.
  await expect(page.getByText("Admin only")).toHaveCount(10);
  await expect(page.getByText("No recent activity to display")).toBeVisible();
  await expect(bell(page)).toHaveCount(0);
  await page.goto("/dashboard/centers/create");
  await expect(page).toHaveURL(/\/dashboard\/overview$/);
  const denied = await page.request.get("/api/admin/recent-purchases?limit=10");
  expect(denied.status()).toBe(403);
  expect((await denied.json()).error).toBe("Access denied. Admins only.");
});

test("Add Sub Center: the spec's messages in the browser, 409 for a taken domain, the form resets; the center is served at once and Go opens it", async ({
  page,
}) => {
  await signInAsAdmin(page);
  const nav = page.getByRole("complementary", { name: "Admin Dashboard navigation" });
  await nav.getByRole("link", { name: "Create Sub Center" }).click();
  await expect(page.getByRole("heading", { name: "Add Sub Center" })).toBeVisible();
  await expect(page.getByLabel("Super Admin Path")).toHaveValue("/admin");

  await page.getByRole("button", { name: "Create Sub Center" }).click();
  await expect(page.getByText("Sub center name is required")).toBeVisible();
  await expect(page.getByText("Domain name is required")).toBeVisible();
  await expect(page.getByText("Website is required")).toBeVisible();
  await page.getByLabel("Sub Center Name").fill("A");
  await page.getByLabel("Domain Name").fill("not a domain");
  await page.getByLabel("Website").fill("nope");
  await page.getByLabel("Super Admin Path").fill("");
  await page.getByRole("button", { name: "Create Sub Center" }).click();
  await expect(page.getByText("Sub center name must be at least 2 characters")).toBeVisible();
  await expect(page.getByText("Please enter a valid domain (e.g., yourinstitute.com)")).toBeVisible();
  await expect(page.getByText("Please enter a valid URL")).toBeVisible();
  await expect(page.getByText("Super Admin Path is required")).toBeVisible();
  await page.getByLabel("Super Admin Path").fill("admin");
  await page.getByLabel("Super Admin Path").blur();
  await expect(page.getByText("Path must start with /")).toBeVisible();

  const id = unique();
  const name = `Howrah Branch ${id}`;
  const domain = `howrah-${id}.test`;
  await page.getByLabel("Sub Center Name").fill(name);
  await page.getByLabel("Domain Name").fill(domain);
  await page.getByLabel("Website").fill(`http://${domain}:${port}`);
  await page.getByLabel("Super Admin Path").fill("/admin");
  await page.getByRole("button", { name: "Create Sub Center" }).click();
  await expect(page.getByText("Sub center created successfully.").first()).toBeVisible();
  // The form is empty again, ready for the next one.
  await expect(page.getByLabel("Sub Center Name")).toHaveValue("");
  await expect(page.getByLabel("Domain Name")).toHaveValue("");
  await expect(page.getByLabel("Super Admin Path")).toHaveValue("/admin");

  // The same domain again: refused by the server (409), what was typed is kept.
  await page.getByLabel("Sub Center Name").fill("Duplicate Branch");
  await page.getByLabel("Domain Name").fill(domain.toUpperCase());
  await page.getByLabel("Website").fill(`http://${domain}:${port}`);
  await page.getByRole("button", { name: "Create Sub Center" }).click();
  await expect(page.getByText("Error", { exact: true })).toBeVisible();
  await expect(
    page.getByRole("alert").filter({ hasText: "This domain is already used by another center." }),
  ).toBeVisible();
  await expect(page.getByLabel("Sub Center Name")).toHaveValue("Duplicate Branch");

  // Served on its domain at once.
  const site = await page.context().newPage();
  await site.goto(`http://${domain}:${port}/`);
  await expect(site.getByText(name).first()).toBeVisible();
  await site.close();

  // In the list: dates in en-US short form, no expiry yet, active; Go opens website + admin path in a new tab.
  await nav.getByRole("link", { name: "Center List" }).click();
  await page.getByRole("searchbox").fill(id);
  await page.getByRole("button", { name: "Search" }).click();
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toBeVisible();
  await expect(row.getByRole("cell").nth(1)).toHaveText(domain);
  await expect(row.getByRole("cell").nth(3)).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
  await expect(row.getByRole("cell").nth(4)).toHaveText("No expiry");
  await expect(row.getByText("Active")).toBeVisible();
  const [tab] = await Promise.all([
    page.waitForEvent("popup"),
    row.getByRole("link", { name: "Go", exact: true }).click(),
  ]);
  await expect(tab).toHaveURL(new RegExp(`^http://${domain}:${port}/auth\\?role=business`));
  await expect(tab).toHaveTitle(`Business sign in | ${name}`);
  await tab.close();

  // Beyond the spec: extend, deactivate / activate, edit.
  await row.getByRole("button", { name: `More actions for ${name}` }).click();
  await page.getByRole("menuitem", { name: "Extend expiry" }).click();
  const extend = page.getByRole("dialog", { name: `Extend ${name}` });
  await extend.getByLabel("Extend by").selectOption("30");
  await extend.getByRole("button", { name: "Extend" }).click();
  await expect(page.getByText("Expiry extended")).toBeVisible();
  await expect(row.getByRole("cell").nth(4)).toContainText("30 days left");

  await row.getByRole("button", { name: `More actions for ${name}` }).click();
  await page.getByRole("menuitem", { name: "Deactivate" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Deactivate" }).click();
  await expect(row.getByText("Inactive")).toBeVisible();
  const visit = () => page.request.get(`http://127.0.0.1:${port}/`, { headers: { host: `${domain}:${port}` } });
  const off = await visit();
  expect(off.status()).toBe(503);
  expect(await off.text()).toContain("This site is temporarily unavailable");
  await row.getByRole("button", { name: `More actions for ${name}` }).click();
  await page.getByRole("menuitem", { name: "Activate" }).click();
  await expect(row.getByText("Active", { exact: true })).toBeVisible();
  expect((await visit()).status()).toBe(200);

  await row.getByRole("button", { name: `More actions for ${name}` }).click();
  await page.getByRole("menuitem", { name: "Edit" }).click();
  const edit = page.getByRole("dialog", { name: `Edit ${name}` });
  await edit.getByLabel("Sub Center Name").fill(`${name} (Main)`);
  await edit.getByLabel("Website").fill("ftp://nope");
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(edit.getByText("Please enter a valid URL")).toBeVisible();
  await edit.getByLabel("Website").fill(`http://${domain}:${port}`);
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Center updated")).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: `${name} (Main)` })).toBeVisible();
});

test("Add Sub Center without JavaScript: the server gives the same messages and keeps what was typed", async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signInAsAdmin(page);
  await page.goto("/dashboard/centers/create");
  await page.getByLabel("Sub Center Name").fill("Z");
  await page.getByLabel("Domain Name").fill("no-dot");
  await page.getByLabel("Website").fill("https://ok.example.com");
  await page.getByLabel("Super Admin Path").fill("/business");
  await page.getByRole("button", { name: "Create Sub Center" }).click();
  await expect(page.getByText("Sub center name must be at least 2 characters")).toBeVisible();
  await expect(page.getByText("Please enter a valid domain (e.g., yourinstitute.com)")).toBeVisible();
  await expect(
    page.getByText("This path is already used by the institute's website. Please choose another, e.g. /admin."),
  ).toBeVisible();
  await expect(page.getByLabel("Website")).toHaveValue("https://ok.example.com");
  await context.close();
});

test("the shell: ctrl+B collapses the sidebar and the server remembers it for 7 days; overlay on phones; header Logout goes to /dashboard", async ({
  page,
  context,
}) => {
  await signInAsAdmin(page);
  const sidebar = page.getByRole("complementary", { name: "Admin Dashboard navigation" });
  await expect(sidebar).toHaveAttribute("data-state", "expanded");
  await page.keyboard.press("ControlOrMeta+b");
  await expect(sidebar).toHaveAttribute("data-state", "collapsed");
  const cookie = (await context.cookies()).find((c) => c.name === "sidebar_state");
  expect(cookie?.value).toBe("false");
  const days = (cookie!.expires - Date.now() / 1000) / 86_400;
  expect(days).toBeGreaterThan(6.9);
  expect(days).toBeLessThanOrEqual(7);
  // Rendered collapsed by the server, before any script runs.
  const html = await (await page.request.get("/dashboard/overview")).text();
  expect(html).toContain('data-state="collapsed"');
  await page.keyboard.press("ControlOrMeta+b");
  await expect(sidebar).toHaveAttribute("data-state", "expanded");

  await page.setViewportSize({ width: 390, height: 800 });
  await expect(sidebar).toBeHidden();
  await page.getByRole("button", { name: "Toggle sidebar" }).click();
  const overlay = page.getByRole("complementary", { name: "Admin Dashboard navigation" }).last();
  await expect(overlay).toBeVisible();
  expect((await overlay.boundingBox())!.width).toBe(288);
  await overlay.getByRole("link", { name: "Center List" }).click();
  await expect(page).toHaveURL(/\/dashboard\/centers$/);
  await expect(page.getByRole("button", { name: "Close menu" })).toHaveCount(0);

  await page.getByRole("banner").getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/dashboard/overview");
  await expect(page).toHaveURL(/\/dashboard\?redirectTo=/);
});
