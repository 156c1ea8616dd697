import { expect, test } from "./fixtures.ts";
import { fillWizard, proveDomain, signIn } from "./journeys";

const port = Number(process.env.E2E_PORT);
let n = 0;
const unique = () => `${Date.now().toString(36)}${++n}`;

test("a visitor buys a plan: wizard, inline business sign-up, sandbox payment, Launching Soon, templates", async ({
  page,
}) => {
  const id = unique();
  const domain = `academy-${id}.test`;
  const email = `owner.${id}@example.com`;
  // The pricing page's Get Started link leads here; the price in the link is not trusted.
  await page.goto("/pricing/setup?plan=1%20Year%20Plan&price=1&billing=monthly");
  await expect(page.getByRole("heading", { name: "Set up your institute" })).toBeVisible();
  await expect(page.getByText("Step 1 of 3: Institute Details")).toBeVisible();
  await expect(page.getByText("33% complete")).toBeVisible();
  await expect(page.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "33");
  await expect(page.getByRole("button", { name: "Back" })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Next" })).toBeDisabled();
  await expect(page.getByTestId("summary-subtotal")).toHaveText("₹5,000");
  await expect(page.getByTestId("summary-total")).toHaveText("₹5,000");
  await expect(page.getByText("Free", { exact: true })).toBeVisible();
  await expect(page.getByText("14-day free trial included")).toBeVisible();

  // Required fields are trimmed; the domain must be a host name, and one no other institute has.
  await page.getByLabel("Institute/Brand Name *").fill("   ");
  await page.getByLabel("Preferred Domain Name *").fill("not a domain");
  await page.getByLabel("Preferred Domain Name *").blur();
  await expect(page.getByText("Please enter a valid domain (e.g., yourinstitute.com)")).toBeVisible();
  await expect(page.getByRole("button", { name: "Next" })).toBeDisabled();
  await page.getByLabel("Preferred Domain Name *").fill("demo-t1.localhost");
  await expect(
    page.getByText("This address belongs to Pathshala. Please enter your institute's own domain."),
  ).toBeVisible();
  await page.getByLabel("Institute/Brand Name *").fill("  Bright Future Academy ");
  await page.getByLabel("Preferred Domain Name *").fill(`https://${domain.toUpperCase()}/`);
  await expect(page.getByText(`${domain} is available`)).toBeVisible();
  await page.getByRole("button", { name: "Next" }).click();

  await expect(page.getByText("Step 2 of 3: Owner Information")).toBeVisible();
  await expect(page.getByText("67% complete")).toBeVisible();
  await expect(page.getByRole("button", { name: "Back" })).toBeEnabled();
  await page.getByLabel("Owner/Director Full Name *").fill("Meera Iyer");
  await page.getByLabel("Email Address *").fill("meera@");
  await page.getByLabel("Email Address *").blur();
  await expect(page.getByText("Please enter a valid email address")).toBeVisible();
  await expect(page.getByRole("button", { name: "Next" })).toBeDisabled();
  await page.getByLabel("Email Address *").fill(email);
  await page.getByRole("button", { name: "Next" }).click();

  await expect(page.getByText("Step 3 of 3: Review & Payment")).toBeVisible();
  await expect(page.getByText("100% complete")).toBeVisible();
  const review = page.locator("dl").first();
  for (const text of ["Bright Future Academy", domain, "Meera Iyer", email, "1 Year Plan", "Monthly", "₹5,000"])
    await expect(review.getByText(text, { exact: true })).toBeVisible();
  // Billing labels follow the spec: Monthly, 3 months, Yearly.
  await expect(page.getByLabel("Billing").locator("option")).toHaveText(["Monthly", "3 months", "Yearly"]);

  // Not signed in as a business: sign up right here, with the owner's name and email filled in.
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  const dialog = page.getByRole("dialog", { name: "Continue with a business account" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel("Full name")).toHaveValue("Meera Iyer");
  await expect(dialog.getByLabel("Email")).toHaveValue(email);
  await dialog.getByLabel("Password", { exact: true }).fill("tangerine-kettle-42");
  await dialog.getByLabel("Confirm password").fill("tangerine-kettle-42");
  await dialog.getByRole("button", { name: "Create account and continue" }).click();
  await expect(page.getByText("Account created")).toBeVisible();

  // The sandbox's Checkout opens with the server's amount, clearly marked as a test.
  const checkout = page.getByRole("dialog", { name: "Pathshala" });
  await expect(checkout.getByText("Test mode — no real money")).toBeVisible();
  await expect(checkout.getByText("₹5,000.00", { exact: true })).toBeVisible();
  await checkout.getByRole("button", { name: "Pay ₹5,000.00" }).click();

  await expect(page.getByText("Payment successful")).toBeVisible();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole("heading", { name: "Launching Soon" })).toBeVisible();
  await expect(page.getByText(/^Redirect in (10|9|8)s$/)).toBeVisible();
  await expect(page.getByText("Redirect in 5s")).toBeVisible({ timeout: 8000 });
  await expect(page).toHaveURL(/\/business\/templates$/, { timeout: 12_000 });
  // The countdown replaced /admin in history.
  await page.goBack();
  await expect(page).not.toHaveURL(/\/admin$/);

  // The purchase belongs to the new account, and the institute's domain serves its site once proven.
  const purchases = await (await page.request.get("/api/payment/purchases/my")).json();
  expect(purchases.purchases[0]).toMatchObject({
    status: "paid",
    plan: "1 Year Plan",
    amount: 500_000,
    domain,
    instituteName: "Bright Future Academy",
  });
  const unproven = await page.goto(`http://${domain}:${port}/`);
  expect(unproven?.status()).toBe(404);
  await proveDomain(page, domain);
  await page.goto(`http://${domain}:${port}/`);
  await expect(page.getByText("Bright Future Academy").first()).toBeVisible();
});

test("failure paths: a failed payment, a dismissed Checkout, a refused or unreachable verification, a failed order", async ({
  page,
}) => {
  await signIn(page, "business@example.com", "demo-business-2025");
  const id = unique();
  await page.goto("/pricing/setup?plan=3%20Year%20Plan&price=7000&billing=yearly");
  await fillWizard(page, {
    institute: "Retry Academy",
    domain: `retry-${id}.test`,
    owner: "Ravi Kumar",
    email: `ravi.${id}@example.com`,
  });
  await expect(page.getByTestId("summary-total")).toHaveText("₹70,000");

  // Already a business: no sign-in dialog. The sandbox is asked to fail the payment.
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  const checkout = page.getByRole("dialog", { name: "Pathshala" });
  await expect(checkout.getByText("Test mode — no real money")).toBeVisible();
  await checkout.getByRole("button", { name: "Fail payment" }).click();
  await expect(page.getByText("Payment failed", { exact: true })).toBeVisible();
  await expect(checkout).toBeHidden();
  await expect(page).toHaveURL(/\/pricing\/setup/);

  // Closing Checkout lets the person try again.
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await checkout.getByRole("button", { name: "Close" }).click();
  await expect(checkout).toBeHidden();
  await expect(page.getByRole("button", { name: "Proceed to Payment" })).toBeEnabled();

  // A verification the server refuses.
  await page.route("**/api/payment/verify", (route) =>
    route.fulfill({
      status: 422,
      contentType: "application/json",
      body: JSON.stringify({
        success: false,
        error: "The payment signature is not valid.",
        message: "The payment signature is not valid.",
      }),
    }),
  );
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await checkout.getByRole("button", { name: /^Pay / }).click();
  await expect(page.getByText("Payment Verification Failed")).toBeVisible();
  await expect(page.getByText("The payment signature is not valid.")).toBeVisible();
  await expect(page).toHaveURL(/\/pricing\/setup/);
  await page.unroute("**/api/payment/verify");

  // A verification that never reaches the server.
  const alerts: string[] = [];
  page.on("dialog", (d) => {
    alerts.push(d.message());
    void d.dismiss();
  });
  await page.route("**/api/payment/verify", (route) => route.abort());
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await checkout.getByRole("button", { name: /^Pay / }).click();
  await expect.poll(() => alerts).toEqual(["Payment verification failed. Please contact support."]);
  await page.unroute("**/api/payment/verify");
  // The money was taken, so the purchase is not lost: the gateway's webhook completes it.
  const paid = async () =>
    (
      (await (await page.request.get("/api/payment/purchases/my")).json()).purchases as {
        domain: string;
        status: string;
      }[]
    ).some((p) => p.domain === `retry-${id}.test` && p.status === "paid");
  await expect.poll(paid, { timeout: 10_000 }).toBe(true);

  // An order the server cannot create (no message of its own).
  await page.route("**/api/payment/create-order", (route) =>
    route.fulfill({ status: 502, contentType: "text/plain", body: "Bad gateway" }),
  );
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await expect(page.getByText("Failed to create order")).toBeVisible();
  await page.unroute("**/api/payment/create-order");
});

test("Checkout that cannot be loaded gives the spec's alert", async ({ page }) => {
  await signIn(page, "business@example.com", "demo-business-2025");
  const id = unique();
  await page.route("**/_sandbox/razorpay/checkout.js", (route) => route.abort());
  await page.goto("/pricing/setup?plan=5%20Year%20Plan&billing=quarterly");
  await fillWizard(page, {
    institute: "Offline Academy",
    domain: `offline-${id}.test`,
    owner: "Asha",
    email: `asha.${id}@example.com`,
  });
  const alerts: string[] = [];
  page.on("dialog", (d) => {
    alerts.push(d.message());
    void d.dismiss();
  });
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await expect.poll(() => alerts).toEqual(["Failed to initiate payment. Please try again."]);
  await expect(page.getByRole("button", { name: "Proceed to Payment" })).toBeEnabled();
});

test("an unknown plan in the link is replaced by a choice; the amount always comes from the stored plan", async ({
  page,
}) => {
  await page.goto("/pricing/setup?plan=Professional&price=79&billing=monthly");
  const id = unique();
  await fillWizard(page, {
    institute: "Choice Academy",
    domain: `choice-${id}.test`,
    owner: "Dev",
    email: `dev.${id}@example.com`,
  });
  await expect(
    page.getByText("The plan “Professional” is not available. Please choose a plan in the order summary."),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: "Proceed to Payment" })).toBeDisabled();
  await page.getByLabel("Plan", { exact: true }).selectOption("5 Year Plan");
  await page.getByLabel("Billing").selectOption("yearly");
  await expect(page.getByTestId("summary-total")).toHaveText("₹1,00,000");
  await expect(page.getByRole("button", { name: "Proceed to Payment" })).toBeEnabled();
});

test("signing in inline with an account that is not a business is refused", async ({ page }) => {
  const id = unique();
  await page.goto("/pricing/setup?plan=1%20Year%20Plan&billing=monthly");
  await fillWizard(page, {
    institute: "Student Academy",
    domain: `student-${id}.test`,
    owner: "Riya",
    email: "student@example.com",
  });
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  const dialog = page.getByRole("dialog", { name: "Continue with a business account" });
  await dialog.getByRole("tab", { name: "Sign in" }).click();
  await expect(dialog.getByLabel("Email")).toHaveValue("student@example.com");
  await dialog.getByLabel("Password", { exact: true }).fill("demo-student-2025");
  await dialog.getByRole("button", { name: "Sign in and continue" }).click();
  await expect(
    dialog.getByText("This account is not a business account. Sign in with a business account, or create one."),
  ).toBeVisible();
  // Switching to the demo business account continues straight to Checkout, nothing retyped.
  await dialog.getByLabel("Email").fill("business@example.com");
  await dialog.getByLabel("Password", { exact: true }).fill("demo-business-2025");
  await dialog.getByRole("button", { name: "Sign in and continue" }).click();
  await expect(page.getByText("Logged in")).toBeVisible();
  await expect(page.getByText("Test mode — no real money")).toBeVisible();
  await expect(
    page.getByRole("dialog", { name: "Pathshala" }).getByText("Paying as student@example.com"),
  ).toBeVisible();
});

test("Launching Soon without a purchase offers the plans; signed-out visitors are asked to sign in", async ({
  page,
}) => {
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/auth\?role=student&redirectTo=%2Fadmin$/);
  await signIn(page, "creator@example.com", "demo-creator-2025", "creator");
  await page.goto("/admin");
  await expect(page.getByRole("heading", { name: "Launching Soon" })).toBeVisible();
  await expect(page.getByRole("link", { name: "See plans" })).toBeVisible();
  await expect(page.getByText(/Redirect in/)).toHaveCount(0);
});
