import { expect, test, type Page } from "./fixtures.ts";
import { E2E_ADMIN } from "./admin-account.ts";

async function signInAsAdmin(page: Page) {
  await page.goto("/dashboard");
  await page.getByLabel("Email").fill(E2E_ADMIN.email);
  await page.getByLabel("Password", { exact: true }).fill(E2E_ADMIN.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/dashboard\/overview$/);
}

const publicPlans = async (page: Page) =>
  (
    (await (await page.request.get("/api/pricing")).json()) as {
      plans: {
        name: string;
        pricing: { monthly: { price: number } };
        features: { name: string }[];
        isPopular: boolean;
      }[];
    }
  ).plans;

async function createPlan(page: Page, baseURL: string, name: string) {
  const res = await page.request.post("/api/pricing", {
    headers: { origin: baseURL },
    data: {
      name,
      description: "Made by the e2e suite",
      pricing: { monthly: { price: 4000 }, quarterly: { price: 11000 }, yearly: { price: 40000 } },
      features: [
        { name: "From Control", description: "Admissions in one place", included: true },
        { name: "Home Page", included: true },
      ],
      order: 50,
    },
  });
  expect(res.status()).toBe(201);
  return (await res.json()).plan as { _id: string };
}

test("Pricing Plans Management: inline edits are saved on the server", async ({ page, baseURL }) => {
  await signInAsAdmin(page);
  const name = `Inline ${Date.now().toString(36)}`;
  await createPlan(page, baseURL!, name);
  await page.getByRole("link", { name: "Price Management" }).click();
  await expect(page).toHaveURL(/\/dashboard\/settings\/pricing$/);
  await expect(page.getByRole("heading", { name: "Pricing Plans Management" })).toBeVisible();
  const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name }) });

  await page.getByRole("link", { name: `Edit ${name}` }).click();
  const form = page.getByRole("form", { name: `Edit ${name}` });
  await form.getByLabel("Price (₹ per month)").fill("4,500");
  await form.getByLabel("Description").fill("Now with doubt sessions.");
  await form.getByLabel("Features").fill("From Control\nHome Page\nDoubt Sessions");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Plan Updated")).toBeVisible();
  await expect(page.getByText("Pricing plan has been updated successfully.")).toBeVisible();
  await expect(card.getByText("₹4,500")).toBeVisible();
  await expect(card.getByText("Doubt Sessions", { exact: true })).toBeVisible();

  // Saved on the server: after a reload, and on the public pricing API, descriptions of kept features intact.
  await page.reload();
  await expect(card.getByText("₹4,500")).toBeVisible();
  const plan = (await publicPlans(page)).find((p) => p.name === name)!;
  expect(plan.pricing.monthly.price).toBe(4500);
  expect(plan.features).toEqual([
    { name: "From Control", description: "Admissions in one place", included: true },
    { name: "Home Page", included: true },
    { name: "Doubt Sessions", included: true },
  ]);

  // Cancel leaves the plan as it was.
  await page.getByRole("link", { name: `Edit ${name}` }).click();
  await page
    .getByRole("form", { name: `Edit ${name}` })
    .getByLabel("Price (₹ per month)")
    .fill("1");
  await page.getByRole("link", { name: "Cancel" }).click();
  await expect(card.getByText("₹4,500")).toBeVisible();

  // A refused save says 'Save failed' with the server's reason and keeps what was typed.
  await page.getByRole("link", { name: `Edit ${name}` }).click();
  const again = page.getByRole("form", { name: `Edit ${name}` });
  await again.getByLabel("Plan name").fill("3 Year Plan");
  await again.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Save failed")).toBeVisible();
  await expect(again.getByRole("alert")).toHaveText("A plan with this name already exists");
  await expect(again.getByLabel("Plan name")).toHaveValue("3 Year Plan");
  expect((await publicPlans(page)).filter((p) => p.name === "3 Year Plan")).toHaveLength(1);
});

test("Price management cards: create with the tabbed editor, edit, delete with confirmation", async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto("/dashboard/settings");
  await expect(page.getByRole("heading", { name: "Price Management" })).toBeVisible();
  await expect(page.locator("[aria-label='3 Year Plan']")).toBeVisible();

  const name = `E2E Plan ${Date.now().toString(36)}`;
  await page.getByRole("button", { name: "Add Plan" }).click();
  const editor = page.getByRole("dialog", { name: "Add plan" });
  await editor.getByLabel("Plan name").fill(name);
  await editor.getByLabel("Description").fill("Made by the e2e suite");
  await expect(editor.getByRole("tab", { name: "Pricing" })).toHaveAttribute("aria-selected", "true");
  await editor.getByLabel("Monthly price (₹)").fill("1200");
  await editor.getByLabel("Quarterly price (₹)").fill("3,300");
  await editor.getByLabel("Yearly price (₹)").fill("abc");
  await editor.getByRole("tab", { name: "Features" }).click();
  await editor.getByRole("button", { name: "Add feature" }).click();
  await editor.getByRole("button", { name: "Create plan" }).click();
  // A price that is not whole rupees is refused, never saved as ₹0 (decision 0021).
  await expect(editor.getByText("Yearly price must be a whole number of rupees")).toBeVisible();
  await expect(page.getByText("Plan Created")).toHaveCount(0);
  await editor.getByLabel("Yearly price (₹)").fill("0");
  await editor.getByRole("button", { name: "Create plan" }).click();
  // Feature names must not be empty after trimming.
  await expect(editor.getByText("Feature name is required")).toBeVisible();
  await editor.getByLabel("Name of feature 1").fill("Doubt sessions");
  await editor.getByRole("tab", { name: "Settings" }).click();
  await editor.getByLabel("Popular (highlighted on the pricing page)").check();
  await editor.getByLabel("Display order").fill("7");
  await editor.getByRole("button", { name: "Create plan" }).click();
  await expect(page.getByText("Plan Created")).toBeVisible();
  await expect(editor).toBeHidden();

  const card = page.locator(`[aria-label="${name}"]`);
  await expect(card.getByText("₹1,200")).toHaveCount(2);
  await expect(card.getByText("₹3,300")).toBeVisible();
  // 0 typed as 0 is a price of ₹0 (a plan not sold yearly).
  await expect(card.getByText("₹0")).toBeVisible();
  await expect(card.getByText("Popular")).toBeVisible();
  const created = (await publicPlans(page)).find((p) => p.name === name)!;
  expect(created).toMatchObject({ isPopular: true, features: [{ name: "Doubt sessions" }] });

  // Edit: durations must be at least 1 (the server says so), then a good save.
  await card.getByRole("button", { name: `Edit ${name}` }).click();
  const edit = page.getByRole("dialog", { name: `Edit ${name}` });
  await edit.getByLabel("Quarterly months").fill("0");
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Save failed")).toBeVisible();
  await expect(edit.getByRole("alert")).toHaveText("Quarterly months must be at least 1");
  await edit.getByLabel("Quarterly months").fill("3");
  await edit.getByLabel("Monthly price (₹)").fill("1500");
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Plan Updated")).toBeVisible();
  await expect(page.getByText("Pricing plan has been updated successfully.")).toBeVisible();
  await expect(card.getByText("₹1,500").first()).toBeVisible();

  // Delete asks first; Cancel keeps the plan.
  await card.getByRole("button", { name: `Delete ${name}` }).click();
  const confirm = page.getByRole("alertdialog", { name: "Are you sure you want to delete this plan?" });
  await expect(confirm).toBeVisible();
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(card).toBeVisible();
  await card.getByRole("button", { name: `Delete ${name}` }).click();
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("Plan Deleted")).toBeVisible();
  await expect(card).toHaveCount(0);
  expect((await publicPlans(page)).some((p) => p.name === name)).toBe(false);
});

test("a delete that fails says 'Delete failed' / 'Unable to delete plan.'", async ({ page, baseURL }) => {
  await signInAsAdmin(page);
  const name = `Doomed ${Date.now().toString(36)}`;
  const res = await page.request.post("/api/pricing", {
    headers: { origin: baseURL! },
    data: { name, pricing: { monthly: { price: 100 }, quarterly: { price: 300 }, yearly: { price: 1000 } } },
  });
  expect(res.status()).toBe(201);
  const { plan } = await res.json();
  await page.goto("/dashboard/settings");
  const card = page.locator(`[aria-label="${name}"]`);
  await expect(card).toBeVisible();
  // Someone else deletes it first.
  expect((await page.request.delete(`/api/pricing/${plan._id}`, { headers: { origin: baseURL! } })).status()).toBe(200);
  await card.getByRole("button", { name: `Delete ${name}` }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("Delete failed")).toBeVisible();
  await expect(page.getByText("Unable to delete plan.")).toBeVisible();
});

test("plan pages are for admins only", async ({ page }) => {
  await page.goto("/auth?role=business&mode=login");
  await page.getByLabel("Email").fill("business@example.com");
  await page.getByLabel("Password", { exact: true }).fill("demo-business-2025");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/business$/);
  for (const path of ["/dashboard/settings", "/dashboard/settings/pricing"]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/dashboard\/overview$/);
  }
});
