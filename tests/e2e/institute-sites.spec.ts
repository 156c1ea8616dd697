import { expect, test, type Page } from "./fixtures.ts";
import { buyPlanAsNewBusiness, chooseInstitute } from "./journeys";

const port = Number(process.env.E2E_PORT);
const site = (name: "demo-t1" | "demo-t2") => `http://${name}.localhost:${port}`;

async function signInAsBusiness(page: Page, base = "") {
  await page.goto(`${base}/auth?role=business&mode=login`);
  await page.getByLabel("Email").fill("business@example.com");
  await page.getByLabel("Password", { exact: true }).fill("demo-business-2025");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/business$/);
}

test("the owner applies templates and the institute's domain shows each at once", async ({ page, context }) => {
  await signInAsBusiness(page);
  // Work on Sunrise Academy (demo-t1) explicitly: the owner has two institutes.
  await page.goto("/business/templates");
  const switcher = page.getByLabel("Institute");
  await switcher.selectOption({ label: "Sunrise Academy" });
  await expect(page).toHaveURL(/\/business\/templates$/);
  await expect(page.getByText("Choose how Sunrise Academy's website looks.")).toBeVisible();

  const card = (n: number) => page.locator("li").filter({ hasText: `Template ${n} ·` });
  await card(3).getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText("Template applied")).toBeVisible();
  await expect(page.getByText("Your website is now using t3.")).toBeVisible();
  await expect(card(3).getByRole("button", { name: "Applied" })).toBeDisabled();

  const visitor = await context.browser()!.newPage();
  await visitor.goto(`${site("demo-t1")}/`);
  await expect(visitor.locator("html")).toHaveAttribute("data-template", "t3");
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText("Sunrise Academy");

  await card(2).getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText("Your website is now using t2.")).toBeVisible();
  await visitor.reload();
  await expect(visitor.locator("html")).toHaveAttribute("data-template", "t2");
  await visitor.close();
});

test("an institute buys a plan, applies t3, and its own domain serves t3; switching to t2 shows at once", async ({
  page,
  context,
}) => {
  const id = Date.now().toString(36);
  const domain = `bright-${id}.test`;
  await buyPlanAsNewBusiness(page, {
    institute: "Bright Minds Academy",
    domain,
    owner: "Rekha Pillai",
    email: `rekha.${id}@example.com`,
  });
  const card = (n: number) => page.locator("li").filter({ hasText: `Template ${n} ·` });
  await expect(card(1).getByRole("button", { name: "Applied" })).toBeDisabled();
  await card(3).getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText("Your website is now using t3.")).toBeVisible();

  const visitor = await context.browser()!.newPage();
  await visitor.goto(`http://${domain}:${port}/`);
  await expect(visitor.locator("html")).toHaveAttribute("data-template", "t3");
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText("Bright Minds Academy");
  await expect(visitor.getByText(`rekha.${id}@example.com`)).toBeVisible();

  await card(2).getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText("Your website is now using t2.")).toBeVisible();
  await visitor.reload();
  await expect(visitor.locator("html")).toHaveAttribute("data-template", "t2");
  await visitor.close();
});

test("a visitor's enquiry reaches the owner's leads", async ({ page, context }) => {
  const visitor = await context.browser()!.newPage();
  await visitor.goto(`${site("demo-t2")}/`);
  await visitor.getByRole("link", { name: "Book Demo" }).first().click();
  const dialog = visitor.getByRole("dialog", { name: "Book Demo" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Your name").fill("Kavya Nair");
  await dialog.getByLabel("Phone").fill("98765 43210");
  await dialog.getByLabel("E-mail").fill("kavya@example.com");
  await dialog.getByLabel("Message (optional)").fill("Is there a weekend batch?");
  await dialog.getByRole("button", { name: "Send enquiry" }).click();
  await expect(dialog.getByText("Thank you! We have received your enquiry and will call you back soon.")).toBeVisible();
  await visitor.close();

  await signInAsBusiness(page);
  await page.goto("/business/leads");
  await chooseInstitute(page, "Vidya JEE & NEET Classes");
  await expect(page.getByText("Enquiries left on Vidya JEE & NEET Classes's website.")).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: "Kavya Nair" });
  await expect(row).toBeVisible();
  await expect(row.getByText("Book Demo")).toBeVisible();
  await expect(row.getByText("Is there a weekend batch?")).toBeVisible();
  await row.getByLabel("Lead status").selectOption("contacted");
  await page.getByRole("link", { name: /^Contacted \(/ }).click();
  await expect(page.getByRole("row").filter({ hasText: "Kavya Nair" })).toBeVisible();
});

test("an enquiry form rejects bad input in the product's words", async ({ page }) => {
  await page.goto(`${site("demo-t1")}/#contact`);
  const form = page.locator("#contact form");
  await form.getByLabel("Your name").fill("X");
  await form.getByLabel("Phone").fill("0000");
  await form.getByLabel("E-mail").fill("x@example.com");
  await form.getByRole("button", { name: "Send enquiry" }).click();
  await expect(form.getByText("Please enter a valid phone number")).toBeVisible();
});

test("the institute's admin path leads to its own sign-in and business area, on its domain", async ({ page }) => {
  await page.goto(`${site("demo-t1")}/admin`);
  await expect(page).toHaveURL(`${site("demo-t1")}/auth?role=business&mode=login&redirectTo=%2Fbusiness`);
  await expect(page.getByText("Sunrise Academy").first()).toBeVisible();
  await page.getByLabel("Email").fill("business@example.com");
  await page.getByLabel("Password", { exact: true }).fill("demo-business-2025");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`${site("demo-t1")}/business`);
  await page.goto(`${site("demo-t1")}/business/templates`);
  await expect(page.getByText("Choose how Sunrise Academy's website looks.")).toBeVisible();
});

test("the website preview renders the chosen template with the institute's name", async ({ page }) => {
  await signInAsBusiness(page);
  await page.goto("/business/website?template=t4");
  await expect(page.locator("[data-template=t4]")).toBeVisible();
  await expect(page.getByText("Previewing Template 4 · Calm")).toBeVisible();
});

test("an unknown domain answers 404", async ({ page }) => {
  const response = await page.goto(`http://no-such-institute.test:${port}/`);
  expect(response?.status()).toBe(404);
  await expect(page.getByText("This site is not configured")).toBeVisible();
});

test("the four templates are visibly different designs, shown side by side", async ({ page }, testInfo) => {
  await signInAsBusiness(page);
  await page.goto("/business/templates");
  await chooseInstitute(page, "Sunrise Academy");
  await expect(page.getByText("Choose how Sunrise Academy's website looks.")).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 900 });
  const looks: {
    headingFont: string;
    headingSize: string;
    headingAlign: string;
    buttonColour: string;
    buttonRadius: string;
    paper: string;
    headingAt: string;
  }[] = [];
  const shots: string[] = [];
  for (const id of ["t1", "t2", "t3", "t4"]) {
    await page.goto(`/business/website?template=${id}`);
    const root = page.locator(`[data-template=${id}]`);
    await expect(root.getByText("Sunrise Academy").first()).toBeVisible();
    // Typography, colour and layout: what a visitor tells the designs apart by.
    looks.push(
      await root.evaluate((site) => {
        const heading = getComputedStyle(site.querySelector("h1")!);
        const button = getComputedStyle(site.querySelector(".ps-btn-primary")!);
        const at = site.querySelector("h1")!.getBoundingClientRect();
        return {
          headingFont: heading.fontFamily,
          headingSize: heading.fontSize,
          headingAlign: heading.textAlign,
          buttonColour: button.backgroundColor,
          buttonRadius: button.borderRadius,
          paper: getComputedStyle(site).backgroundColor,
          headingAt: `${Math.round(at.left)},${Math.round(at.top)}`,
        };
      }),
    );
    shots.push((await page.screenshot()).toString("base64"));
  }
  expect(new Set(looks.map((look) => JSON.stringify(look))).size).toBe(4);
  expect(new Set(looks.map((look) => look.buttonColour)).size).toBe(4);

  const side = await page.context().newPage();
  await side.setViewportSize({ width: 1600, height: 200 });
  await side.setContent(
    `<body style="margin:0;display:grid;grid-template-columns:repeat(4,1fr);gap:8px;background:#ddd">${shots
      .map(
        (png, i) =>
          `<figure style="margin:0"><figcaption style="font:600 14px sans-serif;padding:4px">t${i + 1}</figcaption><img style="width:100%;display:block" src="data:image/png;base64,${png}"></figure>`,
      )
      .join("")}</body>`,
  );
  // Kept in test-results/ after the run, for whoever reviews the designs.
  const picture = testInfo.outputPath("templates-side-by-side.png");
  await side.screenshot({ path: picture, fullPage: true });
  await testInfo.attach("templates side by side", { path: picture, contentType: "image/png" });
  await side.close();
});

test("the owner edits the website's details and logo, and the site shows them; bad input changes nothing", async ({
  page,
  context,
}) => {
  const id = Date.now().toString(36);
  const domain = `olympiad-${id}.test`;
  await buyPlanAsNewBusiness(page, {
    institute: "Olympiad Point",
    domain,
    owner: "Kavya Menon",
    email: `kavya.${id}@example.com`,
  });
  const visitor = await context.browser()!.newPage();
  await visitor.goto(`http://${domain}:${port}/`);
  await expect(visitor.getByText(`kavya.${id}@example.com`).first()).toBeVisible();
  await expect(visitor.getByRole("heading", { name: "NEET UG" })).toBeVisible();

  await page.goto("/business/site");
  await expect(
    page.getByText(
      "What Olympiad Point's website says. Blank contact details are hidden; until you list your own, programs show our samples (testimonials only once you add or confirm them).",
    ),
  ).toBeVisible();
  await page.getByLabel("Tagline").fill("Where olympiad toppers are made");
  await page.getByLabel("Phone").fill("+91 90000 11111");
  await page.getByLabel("Contact e-mail").fill("admissions@olympiadpoint.in");
  await page.getByLabel("Use my brand colour instead of the template's").check();
  await page.getByLabel("Brand colour", { exact: true }).fill("#be123c");
  await page.getByLabel("Program name").first().fill("Olympiad Foundation");
  await page.getByLabel("Description").first().fill("Maths and Science olympiads for classes VI to X.");
  await page.getByRole("button", { name: "Save website details" }).click();
  await expect(page.getByText("Website details saved")).toBeVisible();

  // The institute as the seller on its invoices: a GSTIN names its state, and the two must agree.
  const invoiceDetails = page.locator("#invoices");
  await invoiceDetails.getByLabel("Legal name").fill("Olympiad Point Education LLP");
  await invoiceDetails.getByLabel("GSTIN").fill("19aakcs4321m1zy");
  await invoiceDetails.getByLabel("State").selectOption({ label: "Maharashtra" });
  await invoiceDetails.getByRole("button", { name: "Save invoice details" }).click();
  await expect(page.getByText("This GSTIN is registered in West Bengal (code 19): choose that state")).toBeVisible();
  await invoiceDetails.getByLabel("State").selectOption({ label: "West Bengal" });
  await invoiceDetails.getByRole("button", { name: "Save invoice details" }).click();
  await expect(page.getByText("Billing details saved")).toBeVisible();
  await page.reload();
  await expect(page.locator("#invoices").getByLabel("GSTIN")).toHaveValue("19AAKCS4321M1ZY");

  await visitor.reload();
  await expect(visitor.getByText("Where olympiad toppers are made").first()).toBeVisible();
  await expect(visitor.getByText("+91 90000 11111").first()).toBeVisible();
  await expect(visitor.getByText("admissions@olympiadpoint.in").first()).toBeVisible();
  await expect(visitor.getByRole("heading", { name: "Olympiad Foundation" })).toBeVisible();
  await expect(visitor.getByRole("heading", { name: "NEET UG" })).toHaveCount(0);
  // The hero line follows the programs too.
  await expect(visitor.getByText("Olympiad", { exact: true })).toBeVisible();
  expect(
    await visitor.locator(".ps-site").evaluate((site) => getComputedStyle(site).getPropertyValue("--brand").trim()),
  ).toBe("#be123c");

  // A wrong phone number is named, and the site keeps what it showed.
  await page.getByLabel("Phone").fill("12");
  await page.getByRole("button", { name: "Save website details" }).click();
  await expect(page.getByText("Please enter a valid phone number")).toBeVisible();
  await visitor.reload();
  await expect(visitor.getByText("+91 90000 11111").first()).toBeVisible();

  // The logo replaces the initials in the site's header.
  await page.reload();
  const logo = await visitor.screenshot({ clip: { x: 0, y: 0, width: 64, height: 64 } });
  await page.getByLabel("Logo image").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: logo });
  await page.getByRole("button", { name: "Upload logo" }).click();
  await expect(page.getByText("Logo updated")).toBeVisible();
  await expect(page.getByAltText("Your logo")).toBeVisible();
  await visitor.reload();
  const mark = visitor.locator(".ps-site header img").first();
  await expect(mark).toBeVisible();
  expect(await mark.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(64);
  await visitor.close();
});
