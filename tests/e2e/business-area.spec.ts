import { expect, test } from "./fixtures.ts";
import { buyPlan, chooseInstitute, proveDomain, registerBusiness, signIn, unique } from "./journeys.ts";
import { pageTexts } from "../helpers/pdf.ts";

const port = Number(process.env.E2E_PORT);
const shortDate = /^[A-Z][a-z]{2} \d{1,2}, \d{4}$/;

test("before any purchase: 'No active subscription found.' and the way to the plans", async ({ page }) => {
  const id = unique();
  await registerBusiness(page, "Nisha Verma", `nisha.${id}@example.com`);
  await expect(page.getByRole("heading", { name: "Welcome, Nisha" })).toBeVisible();
  await expect(page.getByText("No active subscription found.")).toBeVisible();
  await page.goto("/business/subscription-details");
  await expect(page.getByText("No active subscription found.")).toBeVisible();
  await expect(page.getByText("No payments yet.")).toBeVisible();
  await page.goto("/business/subscription-plan");
  await expect(page.getByText("No active subscription found.")).toBeVisible();
  await expect(page.getByRole("link", { name: "View Plans" })).toHaveAttribute("href", "/pricing");
  await page.goto("/business/account");
  await expect(page.getByText("No data yet. Invite your team to get started.")).toBeVisible();

  // Templates can be looked at, not applied, until a plan is bought.
  await page.goto("/business/templates");
  const apply = page.getByRole("button", { name: "Apply" });
  await expect(apply).toHaveCount(4);
  for (const button of await apply.all()) {
    await expect(button).toBeDisabled();
    await expect(button).toHaveAccessibleDescription(/Purchase a plan to apply this template/);
  }
  await page.locator("li").filter({ hasText: "Template 3 ·" }).locator("span[tabindex='0']").hover();
  await expect(page.getByRole("tooltip")).toHaveText("Purchase a plan to apply this template");
  await expect(page.getByRole("link", { name: "View Plans" }).first()).toHaveAttribute(
    "href",
    "/business/subscription-plan",
  );
  await page.getByRole("link", { name: "View Template" }).nth(1).click();
  await expect(page.locator("[data-template=t2]")).toBeVisible();
  await expect(page.getByText("Buy a plan to publish your website.")).toBeVisible();
});

test("after paying: subscription details and billing history; renewing extends the same institute through the same Checkout", async ({
  page,
}) => {
  const id = unique();
  const email = `omkar.${id}@example.com`;
  const institute = `Renewal Academy ${id}`;
  const domain = `renewal-${id}.test`;
  await registerBusiness(page, "Omkar Joshi", email);
  await buyPlan(page, { institute, domain, owner: "Omkar Joshi", email });
  await proveDomain(page, domain);

  // No team yet: the Profile's 'Team & Analytics' card says so in the spec's words, and leads to the Team page.
  await page.goto("/business/account");
  await expect(page.getByText("No data yet. Invite your team to get started.")).toBeVisible();
  await page.getByRole("link", { name: "Invite a creator" }).click();
  await expect(page).toHaveURL(/\/business\/team$/);
  await expect(page.getByText("No data yet. Invite your team to get started.")).toBeVisible();

  await page.goto("/business/subscription-details");
  await expect(page.getByRole("heading", { name: "Subscription Details" })).toBeVisible();
  await expect(page.getByTestId("subscription-plan")).toContainText("1 Year Plan");
  await expect(page.getByTestId("subscription-plan")).toContainText("Monthly");
  await expect(page.getByTestId("subscription-status")).toHaveText("Active");
  await expect(page.getByTestId("subscription-start")).toHaveText(shortDate);
  await expect(page.getByTestId("subscription-next")).toContainText("30 days left");
  const history = page.getByRole("table", { name: "Billing history" });
  await expect(history.getByRole("row")).toHaveCount(2);
  const paid = history.getByRole("row").nth(1);
  await expect(paid).toContainText("1 Year Plan");
  await expect(paid).toContainText("₹5,000");
  await expect(paid).toContainText("Paid");
  // The payment's GST document (a tax invoice, or a bill of supply while the platform has no GSTIN), as a PDF.
  const invoice = paid.getByRole("link", {
    name: /^Download (Tax Invoice|Bill of Supply) (INV|BOS)\/\d{2}-\d{2}\/\d{5}$/,
  });
  await expect(invoice).toBeVisible();
  const pdf = await page.request.get((await invoice.getAttribute("href"))!);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()["content-type"]).toBe("application/pdf");
  const text = (await pageTexts(new Uint8Array(await pdf.body()))).join(" ");
  expect(text).toContain(`1 Year Plan, billed monthly, for ${domain}`);
  expect(text).toContain(institute);
  expect(text).toContain("Amount in words: Five Thousand Rupees Only");
  const nextBilling = await page.getByTestId("subscription-next").innerText();

  // Renew with another billing period, through the same Checkout.
  await page.getByRole("link", { name: "Subscription Plan" }).click();
  await expect(page.getByTestId("current-plan")).toHaveText("1 Year Plan");
  await page.getByLabel("Billing").selectOption("quarterly");
  await expect(page.getByTestId("summary-total")).toHaveText("₹14,000");
  await page.getByRole("button", { name: "Renew 1 Year Plan · ₹14,000" }).click();
  const checkout = page.getByRole("dialog", { name: "Pathshala" });
  await expect(checkout.getByText("₹14,000.00", { exact: true })).toBeVisible();
  await checkout.getByRole("button", { name: /^Pay / }).click();
  await expect(page.getByText("Payment successful")).toBeVisible();
  // The same institute runs 90 days longer (30 + 90).
  await expect(page.getByText("120 days left")).toBeVisible();
  await expect(page.locator("dl").getByText("3 months")).toBeVisible();

  // Subscription details reload when the page is entered again, and show both payments.
  await page.getByRole("link", { name: "Subscription Details" }).click();
  await expect(history.getByRole("row")).toHaveCount(3);
  await expect(history.getByRole("row").nth(1)).toContainText("₹14,000");
  await expect(page.getByTestId("subscription-next")).toContainText("120 days left");
  expect(await page.getByTestId("subscription-next").innerText()).not.toBe(nextBilling);
  const purchases = (await (await page.request.get("/api/payment/purchases/my")).json()).purchases as {
    centerId: string;
    status: string;
  }[];
  expect(purchases.filter((p) => p.status === "paid")).toHaveLength(2);
  expect(new Set(purchases.map((p) => p.centerId)).size).toBe(1);

  // A failed load says so; Refresh (and the window regaining focus) loads again.
  await page.route("**/api/payment/purchases/my", (route) => route.abort());
  await page.getByRole("button", { name: "Refresh" }).click();
  await expect(page.getByText("Could not load billing history.")).toBeVisible();
  await page.unroute("**/api/payment/purchases/my");
  await page.evaluate(() => window.dispatchEvent(new Event("focus")));
  await expect(history.getByRole("row")).toHaveCount(3);

  // The dashboard counts the institute's days left.
  await page.getByRole("link", { name: "Dashboard" }).click();
  await expect(page.getByTestId("figure-Days left in plan")).toHaveText("120");
  await expect(page.getByText(`${institute} at a glance.`)).toBeVisible();

  // The business area on the institute's own domain, through its admin path.
  await page.goto(`http://${domain}:${port}/admin`);
  await expect(page).toHaveURL(new RegExp(`^http://${domain}:${port}/auth\\?role=business`));
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("tangerine-kettle-42");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`^http://${domain}:${port}/business$`));
  await expect(page.getByTestId("figure-Days left in plan")).toHaveText("120");
});

test("the demo institute's dashboard shows its real figures; Help & Contact has the contact details", async ({
  page,
}) => {
  await signIn(page, "business@example.com", "demo-business-2025");
  await page.goto("/business");
  // The demo owner has two institutes; Sunrise Academy has the demo student's purchases.
  await chooseInstitute(page, "Sunrise Academy");
  await expect(page.getByText("Sunrise Academy at a glance.")).toBeVisible();
  await expect(page.getByTestId("figure-Students enrolled")).toHaveText("1");
  await expect(page.getByTestId("figure-Revenue")).toHaveText("₹448");
  await expect(page.getByText("from 2 paid orders of your content")).toBeVisible();
  await expect(page.getByTestId("figure-Enquiries")).toHaveText(/^\d+$/);

  await page.getByRole("link", { name: "Help & Contact" }).click();
  await expect(page.getByRole("heading", { name: "Help & Contact" })).toBeVisible();
  // Every card has its address or number (Platform Settings; on a default install the first
  // admin's e-mail): a card without one is not shown (decision 0023).
  for (const text of ["We reply within 24 hours.", "Kolkata, India"]) await expect(page.getByText(text)).toBeVisible();
  await expect(page.getByRole("group", { name: "Email support" }).getByRole("link", { name: /@/ })).toBeVisible();
  for (const [card, text] of [
    ["Phone", "Mon-Fri 9AM-6PM IST"],
    ["Live chat", "Available 24/7"],
  ] as const) {
    const group = page.getByRole("group", { name: card });
    if (await group.count()) {
      await expect(group.getByText(text)).toBeVisible();
      await expect(group.getByRole("link")).toBeVisible();
    }
  }
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/auth\?role=business$/);
});
