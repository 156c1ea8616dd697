import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "./fixtures.ts";
import { messagesTo, outboxMail, signIn, signInAsAdmin, unique } from "./journeys.ts";
import { EMAIL_CHANGE_TEXTS, RESET_TEXTS } from "../../common/validation/account-security.ts";
import { NUMBER_TEXTS } from "../../server/messages/reachable-numbers.ts";

/**
 * Messages (issue 30): a forgotten password ('Forgot password?' on the sign-in form, the link from
 * the sandbox outbox, a new password, signing in with it), the demo's outbox, and the admins' list.
 */

const SHOTS = process.env.SCREENSHOT_DIR ?? join("test-results", "messages-screens");
mkdirSync(SHOTS, { recursive: true });

test("a forgotten password is reset from the link in the sandbox outbox", async ({ page }) => {
  const email = `forgetful.${unique()}@example.com`;
  const registered = await page.request.post("/api/auth/register", {
    data: { name: "Forgetful Student", email, password: "first-secret-pass-1", role: "student" },
  });
  expect(registered.status()).toBe(201);

  await page.goto("/auth?role=student&mode=login");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("link", { name: RESET_TEXTS.forgotLink }).click();
  await expect(page).toHaveURL(/\/forgot-password\?email=/);
  await expect(page.getByLabel("Email")).toHaveValue(email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByRole("status")).toHaveText(RESET_TEXTS.sent);
  await page.screenshot({ path: join(SHOTS, "forgot-sent.png"), fullPage: true });

  // The message reaches the outbox once the worker has sent it.
  const mail = await outboxMail(page, email, "Reset your Pathshala password");
  // The welcome came first.
  await expect(page.getByRole("article", { name: `E-mail to ${email}` })).toHaveCount(2);
  await page.screenshot({ path: join(SHOTS, "outbox.png"), fullPage: true });
  await mail.getByText("Show the text part").click();
  await mail.getByRole("link", { name: /reset-password\?token=/ }).click();

  await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  await page.getByLabel("New password", { exact: true }).fill("second-secret-pass-2");
  await page.getByLabel("Confirm new password").fill("something-else-22");
  await page.getByRole("button", { name: "Save new password" }).click();
  await expect(page.getByRole("alert")).toHaveText("Please re-enter the same password in both fields.");
  await page.getByLabel("New password", { exact: true }).fill("second-secret-pass-2");
  await page.getByLabel("Confirm new password").fill("second-secret-pass-2");
  await page.screenshot({ path: join(SHOTS, "reset.png"), fullPage: true });
  const resetUrl = page.url();
  await page.getByRole("button", { name: "Save new password" }).click();
  await expect(page).toHaveURL(/\/auth\?role=student&mode=login$/);
  await expect(page.getByText(RESET_TEXTS.done)).toBeVisible();

  await signIn(page, email, "second-secret-pass-2", "student");

  // The link worked once.
  await page.context().clearCookies();
  await page.goto(resetUrl);
  await page.getByLabel("New password", { exact: true }).fill("third-secret-pass-3");
  await page.getByLabel("Confirm new password").fill("third-secret-pass-3");
  await page.getByRole("button", { name: "Save new password" }).click();
  await expect(page.getByRole("alert")).toHaveText(RESET_TEXTS.invalid);
  await expect(page.getByRole("link", { name: "Ask for a new link" })).toBeVisible();
});

test("a student of an institute resets a forgotten password on the institute's own domain", async ({ page }) => {
  const t1 = `http://demo-t1.localhost:${process.env.E2E_PORT}`;
  const email = `sunrise.forgetful.${unique()}@example.com`;
  await page.goto(`${t1}/auth?role=student&mode=login`);
  // Registered from the page: the browser resolves the institute's *.localhost name, Node does not.
  const registered = await page.evaluate(async (address) => {
    const res = await fetch("/api/auth/register", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        name: "Sunrise Student",
        email: address,
        password: "first-secret-pass-1",
        role: "student",
      }),
    });
    return res.status;
  }, email);
  expect(registered).toBe(201);
  await page.reload();
  await page.getByLabel("Email").fill(email);
  await page.getByRole("link", { name: RESET_TEXTS.forgotLink }).click();
  await expect(page).toHaveURL(new RegExp(`^${t1}/forgot-password\\?email=`));
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByRole("status")).toHaveText(RESET_TEXTS.sent);

  // The e-mail is the institute's, and its link leads back to the institute's domain.
  const mail = await outboxMail(page, email, "Reset your Sunrise Academy password", t1);
  await mail.getByText("Show the text part").click();
  await mail.getByRole("link", { name: /reset-password\?token=/ }).click();
  await expect(page).toHaveURL(new RegExp(`^${t1}/reset-password\\?token=`));
  await page.getByLabel("New password", { exact: true }).fill("second-secret-pass-2");
  await page.getByLabel("Confirm new password").fill("second-secret-pass-2");
  await page.getByRole("button", { name: "Save new password" }).click();
  await expect(page).toHaveURL(new RegExp(`^${t1}/auth\\?role=student&mode=login$`));
  await expect(page.getByText(RESET_TEXTS.done)).toBeVisible();
});

test("the demo's outbox holds its welcomes and a lead's messages; admins see every message", async ({ page }) => {
  await page.goto("/_sandbox/outbox");
  await expect(page.getByRole("heading", { name: "Sandbox outbox" })).toBeVisible();
  await expect(
    page
      .getByRole("article", { name: "E-mail to student@example.com" })
      .filter({ hasText: "Welcome to Pathshala" })
      .first(),
  ).toBeVisible();
  await expect(
    page
      .getByRole("article", { name: "E-mail to business@example.com" })
      .filter({ hasText: "New Book Demo enquiry from Ravi Kumar" })
      .first(),
  ).toBeVisible();
  // Other tests leave enquiries with the same number: the demo's is Sunrise Academy's.
  await expect(
    page
      .getByRole("article", { name: "WhatsApp to +919876543210" })
      .filter({ hasText: "Sunrise Academy has received it" })
      .first(),
  ).toBeVisible();

  await signInAsAdmin(page);
  await page.getByRole("link", { name: "Messages" }).click();
  await expect(page).toHaveURL(/\/dashboard\/messages$/);
  await expect(page.getByText("No failed messages.")).toBeVisible();
  await page.getByRole("link", { name: "All recent" }).click();
  // The latest hundred, whatever else the suite has sent by now: sent ones among them.
  await expect(page.getByRole("table", { name: /Recent messages/ })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: "sent" }).first()).toBeVisible();
  await page.screenshot({ path: join(SHOTS, "admin-messages.png"), fullPage: true });
  // The demo's lead from Dubai: its WhatsApp thanks were held back, and say why.
  await page.getByRole("link", { name: "Held back" }).click();
  await expect(page).toHaveURL(/\/dashboard\/messages\?show=held$/);
  const held = page
    .getByRole("table", { name: /Messages held back/ })
    .getByRole("row")
    .filter({ hasText: "+971501234567" });
  await expect(held.getByText(NUMBER_TEXTS.outsideIndiaForInstitute)).toBeVisible();
  await expect(held.getByText("never sent")).toBeVisible();
  await page.screenshot({ path: join(SHOTS, "admin-messages-held.png"), fullPage: true });
});

test("a signed-in student changes their password on the account page", async ({ page }) => {
  const email = `changer.${unique()}@example.com`;
  const registered = await page.request.post("/api/auth/register", {
    data: { name: "Careful Student", email, password: "first-secret-pass-1", role: "student" },
  });
  expect(registered.status()).toBe(201);
  await page.context().clearCookies();
  await signIn(page, email, "first-secret-pass-1", "student");
  await page.goto("/student/account");
  const form = page.locator("form", { has: page.getByRole("button", { name: "Change password" }) });
  await form.getByLabel("Current password").fill("not-the-password");
  await form.getByLabel("New password", { exact: true }).fill("second-secret-pass-2");
  await form.getByLabel("Confirm new password").fill("second-secret-pass-2");
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(form.getByRole("alert")).toHaveText(RESET_TEXTS.wrongCurrent);
  await form.getByLabel("Current password").fill("first-secret-pass-1");
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText(RESET_TEXTS.changed)).toBeVisible();
  await page.screenshot({ path: join(SHOTS, "change-password.png"), fullPage: true });
  // Still signed in here; the new password signs in elsewhere.
  await page.reload();
  await expect(page).toHaveURL(/\/student\/account$/);
  await page.context().clearCookies();
  await signIn(page, email, "second-secret-pass-2", "student");
});

test("a student adds a mobile number with the code sent to it, then signs in with a code", async ({ page }) => {
  const email = `mobile.${unique()}@example.com`;
  const digits = `9${String(Date.now()).slice(-9)}`;
  const registered = await page.request.post("/api/auth/register", {
    data: { name: "Mobile Student", email, password: "first-secret-pass-1", role: "student" },
  });
  expect(registered.status()).toBe(201);
  await page.context().clearCookies();
  await signIn(page, email, "first-secret-pass-1", "student");
  /** The newest code the outbox holds for the number, once it is not `previous` (the outbox shows what was sent). */
  const codeFor = async (previous = "") => {
    let code = "";
    await expect
      .poll(async () => {
        const [sent] = await messagesTo(page.request, `+91${digits}`);
        code = /code is (\d{6})/.exec(sent?.text ?? "")?.[1] ?? "";
        return code && code !== previous ? code : "";
      })
      .toMatch(/^\d{6}$/);
    return code;
  };

  await page.goto("/student/account");
  const section = page.locator("form", { has: page.getByRole("button", { name: "Send code" }) });
  await section.getByLabel("Mobile number").fill(digits);
  await section.getByRole("button", { name: "Send code" }).click();
  await expect(page.getByRole("status").filter({ hasText: `+91${digits}` })).toBeVisible();
  const code = await codeFor();
  await page.getByLabel("Code").fill(code);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByText(`+91${digits}`, { exact: true })).toBeVisible();
  await page.screenshot({ path: join(SHOTS, "mobile-number.png"), fullPage: true });

  await page.context().clearCookies();
  await page.goto("/auth?role=student&mode=login");
  await page.getByRole("link", { name: "Sign in with a code instead" }).click();
  await page.getByLabel("Mobile number").fill(`+91 ${digits}`);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page.getByRole("status")).toContainText("If an account has verified this number");
  const signInCode = await codeFor(code);
  await page.getByLabel("Code").fill(signInCode);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/student$/);
});

test("a creator changes their e-mail: the link sent to the new address makes the change", async ({ page }) => {
  const email = `before.${unique()}@example.com`;
  const moved = `after.${unique()}@example.com`;
  const registered = await page.request.post("/api/auth/register", {
    data: { name: "Moving Creator", email, password: "first-secret-pass-1", role: "creator" },
  });
  expect(registered.status()).toBe(201);
  await page.context().clearCookies();
  await signIn(page, email, "first-secret-pass-1", "creator");
  await page.goto("/creator/account");
  const form = page.locator("form", { has: page.getByRole("button", { name: "Send confirmation link" }) });
  await form.getByLabel("New e-mail").fill(moved);
  await form.getByLabel("Current password").fill("first-secret-pass-1");
  await form.getByRole("button", { name: "Send confirmation link" }).click();
  await expect(page.getByRole("status").filter({ hasText: moved })).toHaveText(EMAIL_CHANGE_TEXTS.sent(moved));

  const mail = await outboxMail(page, moved, "");
  await mail.getByText("Show the text part").click();
  await mail.getByRole("link", { name: /confirm-email\?token=/ }).click();
  await page.getByRole("button", { name: "Confirm new e-mail" }).click();
  await expect(page.getByRole("status")).toHaveText(EMAIL_CHANGE_TEXTS.done(moved));

  await page.context().clearCookies();
  await signIn(page, moved, "first-secret-pass-1", "creator");
});
