import { expect, test, type Page } from "./fixtures.ts";

const port = Number(process.env.E2E_PORT);
let n = 0;
const email = (role: string) => `e2e.${role}.${Date.now().toString(36)}.${++n}@example.com`;

async function register(page: Page, role: "student" | "creator" | "business", address: string, base = "") {
  await page.goto(`${base}/get-started`);
  await page.getByRole("link", { name: `Continue as ${role[0].toUpperCase()}${role.slice(1)}` }).click();
  await expect(page).toHaveURL(new RegExp(`/auth\\?role=${role}$`));
  await page.getByLabel("Full name").fill(`E2E ${role}`);
  await page.getByLabel("Email").fill(address);
  await page.getByLabel("Password", { exact: true }).fill("tangerine-kettle-42");
  await page.getByLabel("Confirm password").fill("tangerine-kettle-42");
  await page.getByRole("button", { name: "Create account" }).click();
}

const AREAS = { student: "/student", creator: "/creator", business: "/business" } as const;

for (const role of ["student", "creator", "business"] as const) {
  test(`a ${role} registers, lands in their area, stays signed in on reload, and logs out`, async ({ page }) => {
    const address = email(role);
    await register(page, role, address);
    await expect(page).toHaveURL(new RegExp(`${AREAS[role]}$`));
    await expect(page.getByText("Account created")).toBeVisible();
    await expect(page.getByText("Welcome! Your account has been created.")).toBeVisible();
    await expect(page.getByText(address)).toBeVisible();

    await page.reload();
    await expect(page).toHaveURL(new RegExp(`${AREAS[role]}$`));
    await expect(page.getByText(address)).toBeVisible();

    await page.getByRole("button", { name: "Logout" }).first().click();
    await expect(page).toHaveURL(new RegExp(`/auth\\?role=${role}$`));
    await page.goto(AREAS[role]);
    await expect(page).toHaveURL(new RegExp(`/auth\\?role=${role}&redirectTo=`));
  });
}

test("signing in with the wrong password shows 'Authentication failed' and the reason", async ({ page }) => {
  await page.goto("/auth?role=student&mode=login");
  await page.getByLabel("Email").fill("student@example.com");
  await page.getByLabel("Password", { exact: true }).fill("definitely-wrong");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Authentication failed")).toBeVisible();
  await expect(page.getByText("Invalid email or password").first()).toBeVisible();
});

test("mismatched passwords are caught with the spec's toast", async ({ page }) => {
  await page.goto("/auth?role=creator");
  await page.getByLabel("Full name").fill("Mismatch");
  await page.getByLabel("Email").fill(email("mismatch"));
  await page.getByLabel("Password", { exact: true }).fill("tangerine-kettle-42");
  await page.getByLabel("Confirm password").fill("tangerine-kettle-43");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("Passwords do not match")).toBeVisible();
  await expect(page.getByText("Please re-enter the same password in both fields.")).toBeVisible();
  await expect(page).toHaveURL(/\/auth\?role=creator$/);
});

test("switching mode clears the passwords but keeps the email", async ({ page }) => {
  await page.goto("/auth?role=student");
  await page.getByLabel("Email").fill("keep@example.com");
  await page.getByLabel("Password", { exact: true }).fill("secret-secret");
  await page.getByRole("tab", { name: "Login" }).click();
  await expect(page.getByLabel("Email")).toHaveValue("keep@example.com");
  await expect(page.getByLabel("Password", { exact: true })).toHaveValue("");
  await page.getByLabel("Password", { exact: true }).fill("secret-secret");
  await page.getByRole("button", { name: "Show password" }).click();
  await expect(page.getByLabel("Password", { exact: true })).toHaveAttribute("type", "text");
});

test("the guards send people to the right sign-in and back to where they were going", async ({ page }) => {
  await page.goto("/creator/upload");
  await expect(page).toHaveURL(/\/auth\?role=creator&redirectTo=%2Fcreator%2Fupload$/);
  await page.getByLabel("Email").fill("creator@example.com");
  await page.getByLabel("Password", { exact: true }).fill("demo-creator-2025");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/creator\/upload$/);
  await expect(page.getByText("Logged in")).toBeVisible();
  await expect(page.getByText("Welcome back!")).toBeVisible();

  // A creator in the student area goes to the creator sign-in (their own role), per the spec.
  await page.goto("/student");
  await expect(page).toHaveURL(/\/creator$/);
  // A creator in the business area is asked to sign in as a business.
  await page.goto("/business");
  await expect(page).toHaveURL(/\/auth\?role=business&redirectTo=%2Fbusiness$/);
  await expect(page.getByText("You are signed in as Rahul Verma (creator).")).toBeVisible();
  // Only admins manage the platform; others see the overview only.
  await page.goto("/dashboard/centers");
  await expect(page).toHaveURL(/\/dashboard\/overview$/);
});

test("signed-out visitors of the admin dashboard get its sign-in; /profile needs sign-in", async ({ page }) => {
  await page.goto("/dashboard/centers");
  await expect(page).toHaveURL(/\/dashboard\?redirectTo=%2Fdashboard%2Fcenters$/);
  await expect(page.getByRole("heading", { name: "Admin Dashboard" })).toBeVisible();
  await page.getByLabel("Email").fill("business@example.com");
  await page.getByLabel("Password", { exact: true }).fill("demo-business-2025");
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByText("Login Failed")).toBeVisible();

  await page.goto("/profile");
  await expect(page).toHaveURL(/\/auth\?role=student&redirectTo=%2Fprofile$/);
  for (const area of ["/student/live", "/my-courses", "/business/templates", "/creator"]) {
    await page.goto(area);
    await expect(page).toHaveURL(/\/auth\?role=/);
  }
});

test("the simple sign-in page alerts on empty fields and leads each role to its own area", async ({ page }) => {
  await page.goto("/login");
  const alerts: string[] = [];
  page.once("dialog", (dialog) => {
    alerts.push(dialog.message());
    void dialog.dismiss();
  });
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect.poll(() => alerts).toEqual(["Please enter both email and password"]);
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel("Email").fill("student@example.com");
  await page.getByLabel("Password", { exact: true }).fill("demo-student-2025");
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/student$/);
  await expect(page.getByText("Pathshala Admin")).toHaveCount(0);
  // Signed in, /login and /dashboard lead to the student's own area too.
  for (const path of ["/login", "/dashboard"]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/student$/);
  }
});

test("'Remember me' keeps the session across a browser restart; without it the cookie ends with the browser", async ({
  browser,
}) => {
  for (const remember of [true, false]) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto("/auth?role=student&mode=login");
    await page.getByLabel("Email").fill("student@example.com");
    await page.getByLabel("Password", { exact: true }).fill("demo-student-2025");
    if (remember) await page.getByLabel("Remember me").check();
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/student$/);
    const [cookie] = (await context.cookies()).filter((c) => c.name.endsWith("pathshala_session"));
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe("Lax");
    if (remember) expect(cookie.expires).toBeGreaterThan(Date.now() / 1000 + 20 * 24 * 3600);
    else expect(cookie.expires).toBe(-1);
    await context.close();
  }
});

test("the profile page uploads an avatar with a preview", async ({ page }) => {
  await page.goto("/auth?role=student&mode=login&redirectTo=/profile");
  await page.getByLabel("Email").fill("student@example.com");
  await page.getByLabel("Password", { exact: true }).fill("demo-student-2025");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByText("student@example.com")).toBeVisible();
  const png = Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
    "base64",
  );
  await page
    .getByLabel("Profile photo", { exact: true })
    .setInputFiles({ name: "me.png", mimeType: "image/png", buffer: png });
  await page.getByRole("button", { name: "Save photo" }).click();
  await expect(page.getByText("Profile photo updated")).toBeVisible();
  await page.reload();
  await expect(page.locator('img[src^="/media/avatars/"]').first()).toBeVisible();
});

test("a student signs up on an institute's domain; the session stays on that domain", async ({ page }) => {
  const base = `http://demo-t1.localhost:${port}`;
  await page.goto(`${base}/get-started`);
  await expect(page).toHaveURL(`${base}/auth?role=student`);
  await expect(page.getByText("Sunrise Academy").first()).toBeVisible();
  await page.getByLabel("Full name").fill("Tenant Student");
  const address = email("tenant");
  await page.getByLabel("Email").fill(address);
  await page.getByLabel("Password", { exact: true }).fill("tangerine-kettle-42");
  await page.getByLabel("Confirm password").fill("tangerine-kettle-42");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(`${base}/student`);
  await expect(page.getByText(address)).toBeVisible();
  // The platform does not know this browser session.
  await page.goto(`http://localhost:${port}/student`);
  await expect(page).toHaveURL(/\/auth\?role=student/);
});
