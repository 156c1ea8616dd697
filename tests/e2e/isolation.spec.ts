import { expect, test, type Page } from "./fixtures.ts";

const port = Number(process.env.E2E_PORT);
const demoT1 = `http://demo-t1.localhost:${port}`;
let n = 0;
const address = (role: string) => `iso.${role}.${Date.now().toString(36)}.${++n}@example.com`;

async function registerAs(page: Page, role: "creator" | "business" | "student", base = "") {
  await page.goto(`${base}/auth?role=${role}&mode=register`);
  await page.getByLabel("Full name").fill(`Other ${role}`);
  await page.getByLabel("Email").fill(address(role));
  await page.getByLabel("Password", { exact: true }).fill("tangerine-kettle-42");
  await page.getByLabel("Confirm password").fill("tangerine-kettle-42");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(new RegExp(`/${role}$`));
}

async function signInAs(page: Page, email: string, password: string, role: string, base = "") {
  await page.goto(`${base}/auth?role=${role}&mode=login`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`/${role}$`));
}

test("another creator cannot open a creator's content page", async ({ page, browser }) => {
  // The demo creator's first content id, as the demo creator sees it.
  const owner = await browser.newPage();
  await signInAs(owner, "creator@example.com", "demo-creator-2025", "creator");
  const mine = await (await owner.request.get("/api/content/my")).json();
  const id = (mine.contents ?? mine.items)[0]._id as string;
  await owner.close();

  await registerAs(page, "creator");
  for (const path of [`/creator/contents/${id}`, `/dashboard/creator/content/${id}`]) {
    const response = await page.goto(path);
    expect([403, 404], path).toContain(response?.status());
    await expect(
      page.getByText("You can only view your own content.").or(page.getByText("Oops! Page not found")).first(),
    ).toBeVisible();
  }
});

test("another business cannot use an institute's business area on its domain", async ({ page }) => {
  await registerAs(page, "business");
  const email = await page
    .locator("aside")
    .getByText(/@example\.com$/)
    .first()
    .textContent();
  await signInAs(page, email!, "tangerine-kettle-42", "business", demoT1);
  for (const path of ["/business/leads", "/business/team", "/business/content"]) {
    const response = await page.goto(`${demoT1}${path}`);
    expect(response?.status(), path).toBe(403);
    await expect(page.getByText("This business area belongs to the institute's owner.")).toBeVisible();
  }
});

test("a creator not on an institute's team cannot offer it anything", async ({ page }) => {
  await registerAs(page, "creator");
  // The institute's id as its own site's catalog gives it (the browser reaches its domain).
  const { items } = await (await page.goto(`${demoT1}/api/contents`))!.json();
  const sunriseId = items[0].businessId as string;
  const origin = `http://localhost:${port}`;
  expect((await (await page.request.get("/api/businesses")).json()).businesses).toEqual([]);
  const title = `Free live class ${Date.now().toString(36)}`;
  const refused = await page.request.post("/api/content", {
    headers: { origin },
    multipart: { title, type: "live", price: "0", liveLink: "https://evil.example.com/login", businessId: sunriseId },
  });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).error).toBe(
    "You can only assign content to institutes whose team you are on. Ask the institute's owner to invite you.",
  );
  const created = await page.request.post("/api/content", {
    headers: { origin },
    multipart: { title, type: "live", price: "0", liveLink: "https://evil.example.com/login" },
  });
  const id = (await created.json()).content._id;
  const assign = await page.request.put(`/api/content/${id}/assign`, {
    headers: { origin },
    data: { businessId: sunriseId },
  });
  expect(assign.status()).toBe(403);
  await page.goto(`/creator/contents?q=${encodeURIComponent(title)}`);
  await expect(page.getByLabel(`Business for ${title}`).locator("option")).toHaveText(["Unassigned"]);
  await expect(page.getByText("Institutes appear here once their owner invites you to their team.")).toBeVisible();
  await page.goto(`${demoT1}/`);
  await expect(page.getByText(title)).toHaveCount(0);
});

test("a creator assigns content to an institute and its own site lists it at once", async ({ page, browser }) => {
  await signInAs(page, "creator@example.com", "demo-creator-2025", "creator");
  const title = `Isolation live ${Date.now().toString(36)}`;
  const created = await page.request.post("/api/content", {
    // A cookie-authenticated write from this site, as the upload page makes it.
    headers: { origin: `http://localhost:${port}` },
    multipart: { title, type: "live", price: "0", liveLink: "https://meet.example.com/isolation" },
  });
  expect(created.status()).toBe(201);
  await page.goto(`/creator/contents?q=${encodeURIComponent(title)}`);
  await page.getByLabel(`Business for ${title}`).selectOption({ label: "Sunrise Academy" });

  const visitor = await browser.newPage();
  await expect
    .poll(
      async () => {
        await visitor.goto(`${demoT1}/`);
        return visitor.getByText(title).count();
      },
      { timeout: 10_000 },
    )
    .toBeGreaterThan(0);
  // …and not on another institute's site.
  await visitor.goto(`http://demo-t2.localhost:${port}/`);
  await expect(visitor.getByText(title)).toHaveCount(0);
  await visitor.close();
});
