import { expect, test } from "./fixtures.ts";

/**
 * Issue 40 §3, 'Connect with Razorpay': on the platform's Website Details, the demo owner presses
 * the button, allows access on the sandbox's authorize page (it names the test account to be
 * connected), comes back to Website Details and sees that account connected by OAuth.
 */

const port = Number(process.env.E2E_PORT);
const platform = `http://localhost:${port}`;

test("the owner connects the institute's Razorpay account with 'Connect with Razorpay' in the sandbox", async ({
  page,
}) => {
  await page.context().clearCookies();
  await page.goto(`${platform}/auth?role=business&mode=login`);
  await page.getByLabel("Email").fill("business@example.com");
  await page.getByLabel("Password", { exact: true }).fill("demo-business-2025");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/business$/);
  await page.goto(`${platform}/business/site`);
  const payments = page.locator("#payments");
  await expect(payments.getByRole("heading", { name: "Payments" })).toBeVisible();
  // The demo's institute starts connected by keys: the button is offered once it is disconnected.
  if (await payments.getByRole("button", { name: "Disconnect" }).isVisible()) {
    await expect(payments.getByRole("button", { name: "Connect with Razorpay" })).toHaveCount(0);
    await payments.getByRole("button", { name: "Disconnect" }).click();
    await expect(page.getByText("Razorpay account disconnected").first()).toBeVisible();
  }
  // Beside the keys form.
  await expect(payments.getByLabel("Key id")).toBeVisible();
  await payments.getByRole("button", { name: "Connect with Razorpay" }).click();

  // The sandbox's authorize page names the test account that will be connected.
  await expect(page).toHaveURL(/\/_sandbox\/razorpay\/oauth\/authorize\?/);
  await expect(page.getByRole("heading", { name: "Allow Pathshala to use your Razorpay account" })).toBeVisible();
  const account = await page.getByLabel("Sandbox account to connect").inputValue();
  expect(account).toMatch(/^acc_[A-Za-z0-9]{14}$/);
  await page.getByRole("button", { name: "Allow" }).click();

  // Back on Website Details: connected to that account, by Razorpay.
  await expect(page).toHaveURL(`${platform}/business/site#payments`);
  await expect(page.getByText("Razorpay account connected").first()).toBeVisible();
  await expect(payments.getByText(`Connected with Razorpay to the account ${account}.`)).toBeVisible();
  await expect(payments.getByText(/Razorpay sends this account's payment events to Pathshala itself/)).toBeVisible();
  await expect(payments.getByRole("button", { name: "Connect with Razorpay" })).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath("connected-with-razorpay.png"), fullPage: true });
});
