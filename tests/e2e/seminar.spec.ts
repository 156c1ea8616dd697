import { expect, ownMobile, test, type Page } from "./fixtures.ts";

let n = 0;
const email = () => `e2e.investor.${Date.now().toString(36)}.${++n}@example.com`;

async function openDialog(page: Page) {
  await page.goto("/invest");
  await page.getByRole("button", { name: "Join Our Online Investment Seminar" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Register for Investment Seminar" });
  await expect(dialog).toBeVisible();
  await expect(
    dialog.getByText("Fill out the form below to secure your spot in our exclusive investment seminar."),
  ).toBeVisible();
  return dialog;
}

async function fill(
  page: Page,
  values: Partial<Record<"name" | "email" | "phone" | "city" | "country", string>> = {},
  withDateAndTime = true,
) {
  await page.getByLabel("Full Name").fill(values.name ?? "Asha Rao");
  await page.getByLabel("Email").fill(values.email ?? email());
  await page.getByLabel("Phone Number").fill(values.phone ?? ownMobile());
  await page.getByLabel("City").fill(values.city ?? "Kolkata");
  await page.getByLabel("Country").fill(values.country ?? "India");
  if (withDateAndTime) {
    await pickFirstOpenDay(page);
    await page.getByLabel("Select Time").selectOption("06:30 PM");
  }
}

/** The first day the calendar lets you choose (today in India, or 13 September if that is later). */
async function pickFirstOpenDay(page: Page) {
  await page.getByLabel("Select Date").click();
  const grid = page.getByRole("grid");
  await grid.locator("td:not([data-disabled]) button").first().click();
  await expect(grid).toBeHidden();
}

async function expectToast(page: Page, title: string, description: string) {
  // Earlier toasts may still be on screen: find the one with both texts.
  const toast = page.locator("[data-sonner-toast]").filter({ hasText: title }).filter({ hasText: description }).first();
  await expect(toast).toBeVisible();
}

test("a visitor registers for the seminar: 'Registration Successful', the dialog closes and clears", async ({
  page,
}) => {
  const dialog = await openDialog(page);
  await expect(page.getByLabel("Select Time").locator("option")).toHaveCount(23);
  await expect(page.getByLabel("Select Time").locator("option").nth(1)).toHaveText("10:00 AM");
  await expect(page.getByLabel("Select Time").locator("option").last()).toHaveText("08:30 PM");

  await fill(page, { email: `  ${email().toUpperCase()} ` });
  await expect(page.getByLabel("Select Date")).not.toHaveText("Pick a date");
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/book", async (route) => {
    await held;
    await route.continue();
  });
  await dialog.getByRole("button", { name: "Confirm Registration" }).click();
  await expect(dialog.getByRole("button", { name: "Registering..." })).toBeDisabled();
  release();
  await expectToast(
    page,
    "Registration Successful",
    "You will receive a WhatsApp confirmation shortly. We look forward to seeing you at the seminar!",
  );
  await expect(dialog).toBeHidden();

  await page.getByRole("button", { name: /Online seminar · 13th September onwards/ }).click();
  await expect(page.getByLabel("Full Name")).toHaveValue("");
  await expect(page.getByLabel("Select Date")).toHaveText("Pick a date");
});

test("past days cannot be picked", async ({ page }) => {
  await openDialog(page);
  await page.getByLabel("Select Date").click();
  const grid = page.getByRole("grid");
  await expect(page.getByRole("button", { name: "Go to the Previous Month" })).toHaveAttribute("aria-disabled", "true");
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Kolkata" }).format(new Date());
  const day = Number(today.slice(8, 10));
  if (day > 1)
    await expect(
      grid.locator(`td[data-day="${today.slice(0, 8)}${String(day - 1).padStart(2, "0")}"]`),
    ).toHaveAttribute("data-disabled", "true");
  await expect(grid.locator(`td[data-day="${today}"]`)).not.toHaveAttribute("data-disabled", "true");
});

test("missing fields, a bad email and a bad phone get the spec's toasts and keep the dialog open", async ({ page }) => {
  const dialog = await openDialog(page);
  await dialog.getByRole("button", { name: "Confirm Registration" }).click();
  await expectToast(page, "Validation Error", "Please fill in all fields");

  await fill(page, { email: "asha@example" });
  await dialog.getByRole("button", { name: "Confirm Registration" }).click();
  await expectToast(page, "Invalid Email", "Please enter a valid email address");

  await page.getByLabel("Email").fill("asha@example.in");
  await page.getByLabel("Phone Number").fill("0123");
  await dialog.getByRole("button", { name: "Confirm Registration" }).click();
  await expectToast(page, "Invalid Phone Number", "Please enter a valid phone number");

  // Only spaces count as empty (values are trimmed).
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Validation Error" })).toHaveCount(0, {
    timeout: 8000,
  });
  await page.getByLabel("Phone Number").fill(ownMobile());
  await page.getByLabel("City").fill("   ");
  await dialog.getByRole("button", { name: "Confirm Registration" }).click();
  await expectToast(page, "Validation Error", "Please fill in all fields");
  await expect(dialog).toBeVisible();
  await expect(page.getByLabel("Full Name")).toHaveValue("Asha Rao");
});

test("registering the same email for the same date again says so", async ({ page }) => {
  const address = email();
  const dialog = await openDialog(page);
  await fill(page, { email: address });
  await dialog.getByRole("button", { name: "Confirm Registration" }).click();
  await expectToast(page, "Registration Successful", "We look forward to seeing you at the seminar!");

  await page.getByRole("button", { name: "Join Our Online Investment Seminar" }).first().click();
  await fill(page, { email: address.toUpperCase(), name: "Asha Again" });
  await dialog.getByRole("button", { name: "Confirm Registration" }).click();
  await expectToast(
    page,
    "Registration Failed",
    "You have already registered for this seminar. Please check your WhatsApp for confirmation.",
  );
  await expect(dialog).toBeVisible();
  await expect(page.getByLabel("Full Name")).toHaveValue("Asha Again");
});

test("a network failure and a server refusal show their texts, and nothing typed is lost", async ({ page }) => {
  const dialog = await openDialog(page);
  await fill(page, { name: "Network Tester" });

  await page.route("**/api/book", (route) => route.abort("internetdisconnected"));
  await dialog.getByRole("button", { name: "Confirm Registration" }).click();
  await expectToast(page, "Registration Failed", "Network error. Please check your internet connection and try again.");
  await expect(dialog).toBeVisible();
  await expect(page.getByLabel("Full Name")).toHaveValue("Network Tester");
  await expect(dialog.getByRole("button", { name: "Confirm Registration" })).toBeEnabled();

  await page.unroute("**/api/book");
  await page.route("**/api/book", (route) =>
    route.fulfill({
      status: 429,
      contentType: "application/json",
      body: JSON.stringify({
        success: false,
        error: "Too many attempts. Please try again in 42 minutes.",
        message: "Too many attempts. Please try again in 42 minutes.",
      }),
    }),
  );
  await dialog.getByRole("button", { name: "Confirm Registration" }).click();
  await expectToast(page, "Registration Failed", "Too many attempts. Please try again in 42 minutes.");

  await page.unroute("**/api/book");
  await page.route("**/api/book", (route) =>
    route.fulfill({ status: 502, contentType: "text/html", body: "<h1>Bad gateway</h1>" }),
  );
  await dialog.getByRole("button", { name: "Confirm Registration" }).click();
  await expectToast(page, "Registration Failed", "Failed to submit booking");
  await expect(page.getByLabel("Full Name")).toHaveValue("Network Tester");
});

test("the dialog traps focus and Escape closes it", async ({ page }) => {
  const dialog = await openDialog(page);
  await expect(page.getByLabel("Full Name")).toBeFocused();
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press("Tab");
    expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("button", { name: "Join Our Online Investment Seminar" }).first()).toBeFocused();
});

test("the investor page shows its ticks, tagline and date line", async ({ page }) => {
  await page.goto("/invest");
  for (const tick of ["100% Complete Development", "Proven Market Outreach", "Seeking Investment Partners"])
    await expect(page.getByText(tick)).toBeVisible();
  await expect(page.getByText("Showcasing Platform & Insights")).toBeVisible();
  await expect(page.getByRole("contentinfo")).toContainText(`© ${new Date().getFullYear()} Pathshala`);
  await page.getByRole("button", { name: /Online seminar · 13th September onwards/ }).click();
  await expect(page.getByRole("dialog", { name: "Register for Investment Seminar" })).toBeVisible();
});
