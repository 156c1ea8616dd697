import { expect, test, type Page } from "./fixtures.ts";
import { buyPlan, fillWizard, payInSandbox, proveDomain, registerBusiness, signInAsAdmin, unique } from "./journeys.ts";

const port = Number(process.env.E2E_PORT);
// Each journey pays in the sandbox and walks several pages; on a busy two-core machine that takes a while.
test.describe.configure({ timeout: 150_000 });
/** Where the journeys' screenshots go when SHOTS_DIR is set (to look at them). */
const shots = process.env.SHOTS_DIR;
const shot = async (page: Page, name: string) => {
  if (shots) await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
};

test("a free trial from /pricing: no payment, the site works at once on its working address, Buy plan converts it", async ({
  page,
  context,
}) => {
  const id = unique();
  const email = `kavya.${id}@example.com`;
  const institute = `Trial Academy ${id}`;
  const domain = `trial-${id}.test`;
  await registerBusiness(page, "Kavya Rao", email);

  await page.goto("/pricing");
  await page.getByRole("link", { name: "Start a 14-day free trial of the 1 Year Plan" }).first().click();
  await expect(page).toHaveURL(/\/pricing\/setup\?.*trial=1/);
  await expect(page.getByRole("heading", { name: "Start your 14-day free trial" })).toBeVisible();
  await fillWizard(page, { institute, domain, owner: "Kavya Rao", email });
  await expect(page.getByText("14-day free trial included")).toBeVisible();
  await expect(page.getByTestId("summary-due")).toHaveText("₹0");
  await shot(page, "wizard-trial");
  await page.getByRole("button", { name: "Start 14-day free trial" }).click();
  await expect(page.getByText("Your 14-day free trial has started")).toBeVisible();
  await expect(page).toHaveURL(/\/business$/);

  // The business area: days left, Buy plan, the working address beside the domain, not proven yet.
  const banner = page.getByTestId("trial-banner");
  await expect(banner).toContainText("14 days left");
  await expect(banner.getByRole("link", { name: "Buy plan" })).toHaveAttribute("href", "/business/subscription-plan");
  const working = page.getByTestId("working-address");
  await expect(working).toContainText(/trial-academy-[a-z0-9-]+\.localhost/);
  await expect(page.getByTestId("custom-domain")).toContainText(domain);
  await expect(page.getByTestId("custom-domain")).toContainText("Not proven yet");
  const open = page.getByTestId("open-website");
  await expect(open).toHaveAttribute("href", new RegExp(`^http://trial-academy-[a-z0-9-]+\\.localhost:${port}/$`));
  await shot(page, "business-trial");

  // Open website opens the address that works.
  const [site] = await Promise.all([context.waitForEvent("page"), open.click()]);
  await site.waitForLoadState();
  await expect(site.getByText(institute).first()).toBeVisible();
  await site.close();

  const lookup = await (await page.request.get(`/api/centers/lookup?email=${encodeURIComponent(email)}`)).json();
  expect(lookup.status).toBe("trial");

  // The domain serves nothing until its owner proves it ("Prove it" leads to Setup Details).
  const visitor = await context.newPage();
  expect((await visitor.goto(`http://${domain}:${port}/`))?.status()).toBe(404);
  await page.getByTestId("custom-domain").getByRole("link", { name: "Prove it" }).click();
  await expect(page).toHaveURL(/\/business\/setup$/);
  await proveDomain(page, domain);
  await visitor.goto(`http://${domain}:${port}/`);
  await expect(visitor.getByText(institute).first()).toBeVisible();
  await visitor.close();
  await page.goto("/business");

  // Buy plan converts the trial: same institute, paid time after the trial's 14 days.
  await banner.getByRole("link", { name: "Buy plan" }).click();
  await expect(page).toHaveURL(/\/business\/subscription-plan/);
  await page.getByLabel("Plan", { exact: true }).selectOption("1 Year Plan");
  await page.getByLabel("Billing").selectOption("monthly");
  await shot(page, "buy-plan");
  await page.getByRole("button", { name: "Buy plan: 1 Year Plan · ₹5,000" }).click();
  await payInSandbox(page);
  await expect(page.getByText("Payment successful")).toBeVisible();
  await expect(page.getByText("44 days left")).toBeVisible();
  const after = await (await page.request.get(`/api/centers/lookup?email=${encodeURIComponent(email)}`)).json();
  expect(after).toMatchObject({ status: "active", trialEndsAt: null, instituteName: institute, domain });
  await page.goto("/business");
  await expect(page.getByTestId("trial-banner")).toHaveCount(0);
});

test("an admin refunds a purchase from the center's row: the center ends, the owner is told, billing shows it", async ({
  page,
  browser,
}) => {
  const id = unique();
  const email = `rohan.${id}@example.com`;
  const institute = `Refund Academy ${id}`;
  const domain = `refund-${id}.test`;
  await registerBusiness(page, "Rohan Das", email);
  await buyPlan(page, { institute, domain, owner: "Rohan Das", email });
  await proveDomain(page, domain);

  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signInAsAdmin(admin);
  await admin.goto(`/dashboard/centers?q=${encodeURIComponent(domain)}`);
  const row = admin.getByRole("row").filter({ hasText: institute });
  await expect(row).toContainText(/refundable until/);
  await row.getByRole("button", { name: `More actions for ${institute}` }).click();
  await admin.getByRole("menuitem", { name: "Refund ₹5,000" }).click();
  await expect(admin.getByRole("alertdialog")).toContainText("30-day money-back guarantee");
  await shot(admin, "admin-refund-confirm");
  await admin.getByRole("button", { name: "Refund", exact: true }).click();
  await expect(admin.getByText("Refund issued")).toBeVisible();
  await expect(row.getByText("Refunded", { exact: true })).toBeVisible();
  await expect(row).toContainText("₹5,000 refunded");
  await shot(admin, "admin-centers-refunded");
  await adminContext.close();

  // The site is unavailable, the owner sees the notice and the refund in the billing history.
  const siteRes = await page.goto(`http://${domain}:${port}/`);
  expect(siteRes?.status()).toBe(503);
  await page.goto("/business");
  await expect(page.getByText("Your payment has been refunded")).toBeVisible();
  await page.goto("/business/subscription-details");
  const history = page.getByRole("table", { name: "Billing history" });
  await expect(history.getByRole("row").nth(1)).toContainText("Refunded");
  await expect(history.getByRole("row").nth(1)).toContainText("₹5,000 back on");
  // The refund's credit note sits beside the invoice it reverses.
  await expect(
    history
      .getByRole("row")
      .nth(1)
      .getByRole("link", { name: /^Download Credit Note CN\/\d{2}-\d{2}\/\d{5}$/ }),
  ).toBeVisible();
  // The plan ended because it was refunded, and says so.
  await expect(page.getByTestId("subscription-status")).toHaveText("Refunded");
  await shot(page, "billing-refunded");
});

test("admins edit platform settings; Setup Details and Help & Contact show them", async ({ page, browser }) => {
  await signInAsAdmin(page);
  await page.getByRole("link", { name: "Platform Settings" }).click();
  await expect(page).toHaveURL(/\/dashboard\/settings\/platform$/);
  // The defaults on a default install are real: the platform's own domain and address.
  await expect(page.getByTestId("default-dnsTargetHost")).toHaveText("Default: localhost.");
  await expect(page.getByTestId("default-dnsTargetIp")).toHaveText("Default: 127.0.0.1.");
  await page.getByLabel("Support phone").fill("call me maybe");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Please enter a valid phone number")).toBeVisible();
  await page.getByLabel("A record target").fill("203.0.113.10");
  await page.getByLabel("CNAME target").fill("sites.pathshala.example");
  await page.getByLabel("Support email").fill("care@pathshala.example");
  await page.getByLabel("Support phone").fill("+91 33 4000 1234");
  await page.getByLabel("Live chat link").fill("https://chat.pathshala.example/");
  await page.getByLabel("Legal name").fill("Pathshala Learning Pvt Ltd");
  await page.getByLabel("GSTIN").fill("19AABCP1234C1ZX");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Settings saved")).toBeVisible();
  await shot(page, "admin-settings");

  const id = unique();
  const owner = await browser.newContext();
  const business = await owner.newPage();
  await registerBusiness(business, "Sana Khan", `sana.${id}@example.com`);
  await buyPlan(business, {
    institute: `Settings Academy ${id}`,
    domain: `settings-${id}.test`,
    owner: "Sana Khan",
    email: `sana.${id}@example.com`,
  });
  await business.goto("/business/setup");
  const records = business.getByRole("table", { name: "The records that point your domain here" });
  await expect(records).toContainText("203.0.113.10");
  await expect(records).toContainText("sites.pathshala.example");
  await shot(business, "setup-details");
  await business.goto("/business/contact");
  await expect(business.getByRole("link", { name: "care@pathshala.example" })).toHaveAttribute(
    "href",
    "mailto:care@pathshala.example",
  );
  await expect(business.getByRole("link", { name: "+91 33 4000 1234" })).toBeVisible();
  await expect(business.getByRole("link", { name: "Start a chat" })).toHaveAttribute(
    "href",
    "https://chat.pathshala.example/",
  );
  await shot(business, "help-contact");
  await owner.close();
});
