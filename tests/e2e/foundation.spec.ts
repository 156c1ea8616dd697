import { expect, test } from "./fixtures.ts";

const port = Number(process.env.E2E_PORT);

test("the home page renders", async ({ page }) => {
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle(/Pathshala/);
});

test("an institute's domain renders the institute's name", async ({ page }) => {
  const response = await page.goto(`http://demo-t1.localhost:${port}/`);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sunrise Academy");
});

test("a host no institute uses gets 404 'This site is not configured'", async ({ page }) => {
  const response = await page.goto(`http://nobody-uses-this.test:${port}/`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("This site is not configured");
});

test("an unknown path shows 'Oops! Page not found' with a link home", async ({ page }) => {
  const response = await page.goto("/no-such-page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
  await page.getByRole("link", { name: "Return to Home" }).click();
  await expect(page).toHaveURL(/\/$/);
});

test("platform pages answer 404 on an institute's domain", async ({ page }) => {
  const response = await page.goto(`http://demo-t1.localhost:${port}/pricing`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
});

test("the browser's scripts come as the build's brotli copies, cached for a year", async ({ page, request }) => {
  const scripts: string[] = [];
  page.on("response", (response) => {
    if (new URL(response.url()).pathname.startsWith("/assets/") && response.url().endsWith(".js"))
      scripts.push(response.url());
  });
  await page.goto("/");
  await page.waitForLoadState("networkidle");
  expect(scripts.length).toBeGreaterThan(0);
  const entry = scripts.find((url) => /entry\.client-/.test(url)) ?? scripts[0];
  const brotli = await request.get(entry, { headers: { "Accept-Encoding": "br, gzip" } });
  expect(brotli.headers()["content-encoding"]).toBe("br");
  expect(brotli.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  expect(brotli.headers()["vary"]).toContain("Accept-Encoding");
  const gzip = await request.get(entry, { headers: { "Accept-Encoding": "gzip" } });
  expect(gzip.headers()["content-encoding"]).toBe("gzip");
  const plain = await request.get(entry, { headers: { "Accept-Encoding": "identity" } });
  expect(plain.headers()["content-encoding"]).toBeUndefined();
  // The three are the same script.
  expect(await brotli.text()).toBe(await plain.text());
  expect(await gzip.text()).toBe(await plain.text());
});
