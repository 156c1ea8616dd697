import { expect, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { E2E_ADMIN } from "./admin-account.ts";

/** Steps shared by the e2e journeys: signing in, buying a plan, and the demo institute's tests and students. */

/**
 * The sandbox outbox's e-mail to `to` that says `text`, once the worker has sent it: the outbox
 * opened for that address alone (`?to=`), so that other tests' messages neither slow nor hide it.
 */
export async function outboxMail(page: Page, to: string, text: string, origin = "") {
  const mail = page.getByRole("article", { name: `E-mail to ${to}` }).filter({ hasText: text });
  await expect(async () => {
    await page.goto(`${origin}/_sandbox/outbox?to=${encodeURIComponent(to)}`);
    await expect(mail).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  return mail;
}

/** The sandbox's messages to `to` (e-mail address or phone number), newest first. */
export async function messagesTo(request: APIRequestContext, to: string) {
  const res = await request.get(`/_sandbox/outbox.json?to=${encodeURIComponent(to)}`);
  return (await res.json()).messages as { channel: string; to: string; subject?: string; text: string }[];
}

let n = 0;
export const unique = () => `${Date.now().toString(36)}${++n}`;

export async function signInAsAdmin(page: Page) {
  await page.goto("/dashboard");
  await page.getByLabel("Email").fill(E2E_ADMIN.email);
  await page.getByLabel("Password", { exact: true }).fill(E2E_ADMIN.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/dashboard\/overview$/);
}

export async function signIn(
  page: Page,
  email: string,
  password: string,
  role: "business" | "student" | "creator" = "business",
) {
  await page.goto(`/auth?role=${role}&mode=login`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`/${role}$`));
}

export async function registerBusiness(page: Page, name: string, email: string, password = "tangerine-kettle-42") {
  await page.goto("/auth?role=business&mode=register");
  await page.getByLabel("Full name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByLabel("Confirm password").fill(password);
  await page.getByRole("button", { name: /create account/i }).click();
  await expect(page).toHaveURL(/\/business$/);
}

/** Steps 1 and 2 of the wizard, leaving it on step 3. */
export async function fillWizard(page: Page, d: { institute: string; domain: string; owner: string; email: string }) {
  await page.getByLabel("Institute/Brand Name *").fill(d.institute);
  await page.getByLabel("Preferred Domain Name *").fill(d.domain);
  await expect(page.getByText(`${d.domain} is available`)).toBeVisible();
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByLabel("Owner/Director Full Name *").fill(d.owner);
  await page.getByLabel("Email Address *").fill(d.email);
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByText("Step 3 of 3: Review & Payment")).toBeVisible();
}

/** Pays in the sandbox's Checkout, which is open. */
export async function payInSandbox(page: Page) {
  const checkout = page.getByRole("dialog", { name: "Pathshala" });
  await expect(checkout.getByText("Test mode — no real money")).toBeVisible();
  await checkout.getByRole("button", { name: /^Pay / }).click();
}

/**
 * A signed-in business buys a plan through the setup wizard and the sandbox's Checkout, and
 * lands on Launching Soon.
 */
export async function buyPlan(
  page: Page,
  d: { institute: string; domain: string; owner: string; email: string; plan?: string; billing?: string },
) {
  await page.goto(
    `/pricing/setup?plan=${encodeURIComponent(d.plan ?? "1 Year Plan")}&billing=${d.billing ?? "monthly"}`,
  );
  await fillWizard(page, d);
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await payInSandbox(page);
  await expect(page.getByText("Payment successful")).toBeVisible();
  await expect(page).toHaveURL(/\/admin$/);
}

/**
 * The owner proves their institute's domain in Setup Details: Check now finds it leading here
 * (the server reaches a *.test name on itself, as the browser does). It then serves the site.
 */
export async function proveDomain(page: Page, domain: string) {
  await page.goto("/business/setup");
  const waiting = page.getByRole("region", { name: "Domain waiting for proof" });
  await expect(waiting).toContainText(domain);
  await expect(waiting).toContainText("Waiting for proof");
  await waiting.getByRole("button", { name: "Check now" }).click();
  await expect(page.getByText(`${domain} is proven: it now opens your website.`).first()).toBeVisible();
  await expect(page.getByRole("region", { name: "Proven domain" })).toContainText(domain);
}

/**
 * A visitor buys the cheapest plan, signing up as a business inside the wizard, and proves the
 * domain; ends on /business/templates.
 */
export async function buyPlanAsNewBusiness(
  page: Page,
  d: { institute: string; domain: string; owner: string; email: string },
) {
  await page.goto("/pricing/setup?plan=1%20Year%20Plan&price=5000&billing=monthly");
  await fillWizard(page, d);
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  const dialog = page.getByRole("dialog", { name: "Continue with a business account" });
  await dialog.getByLabel("Password", { exact: true }).fill("tangerine-kettle-42");
  await dialog.getByLabel("Confirm password").fill("tangerine-kettle-42");
  await dialog.getByRole("button", { name: "Create account and continue" }).click();
  await payInSandbox(page);
  // Launching Soon; its countdown is plan-purchase.spec.ts's to check, not every journey's to wait out.
  await expect(page.getByText("Payment successful")).toBeVisible();
  await expect(page).toHaveURL(/\/admin$/);
  await proveDomain(page, d.domain);
  await page.goto("/business/templates");
}

/**
 * The demo owner invites `email` to one of their institutes' teams (through the API, as the Team
 * page's form does) and returns the invitation link.
 */
export async function inviteToTeam(browser: Browser, email: string, institute = "Sunrise Academy"): Promise<string> {
  const owner = await browser.newPage();
  try {
    await signIn(owner, "business@example.com", "demo-business-2025", "business");
    const { businesses } = await (await owner.request.get("/api/businesses")).json();
    const center = (businesses as { _id: string; name: string }[]).find((b) => b.name === institute)!;
    const origin = new URL(owner.url()).origin;
    const res = await owner.request.post(`/api/team/invitations?centerId=${center._id}`, {
      headers: { origin },
      data: { email },
    });
    expect(res.status()).toBe(201);
    return (await res.json()).link as string;
  } finally {
    await owner.close();
  }
}

/** The demo institute's site, where its students sign up and sit its tests. */
const site = () => `http://demo-t1.localhost:${process.env.E2E_PORT}`;

/** The demo creator signed in through `request`: their bearer header, and their institute's id. */
export interface Creator {
  request: APIRequestContext;
  headers: { authorization: string };
  businessId: string;
}

/**
 * The demo creator (creator@example.com, on Sunrise Academy's team) signs in through the API;
 * `request` is a page's own (page.request) or a context of its own address.
 */
export async function asDemoCreator(request: APIRequestContext): Promise<Creator> {
  const login = await request.post("/api/auth/login", {
    data: { email: "creator@example.com", password: "demo-creator-2025" },
  });
  expect(login.status()).toBe(200);
  const headers = { authorization: `Bearer ${(await login.json()).access_token}` };
  const { businesses } = await (await request.get("/api/businesses", { headers })).json();
  const businessId = (businesses as { _id: string; name: string }[]).find((b) => b.name === "Sunrise Academy")!._id;
  return { request, headers, businessId };
}

/** Writes questions (bodies as POST /api/questions takes them) into the institute's bank; their ids, in order. */
export async function writeQuestions(creator: Creator, questions: object[]): Promise<string[]> {
  const ids: string[] = [];
  for (const question of questions) {
    const res = await creator.request.post(`/api/questions?bank=${creator.businessId}`, {
      headers: creator.headers,
      data: question,
    });
    expect(res.status()).toBe(201);
    ids.push((await res.json()).questions[0]._id as string);
  }
  return ids;
}

/**
 * What a test is made of: its `sections`, or one section (named `section`, "Physics" unless said)
 * of `questions`; every other setting (price, durationMinutes, pattern, practice…) is sent as
 * given, so what a caller leaves out takes the server's default.
 */
export interface TestSpec {
  title: string;
  sections?: { name: string; questions: string[] }[];
  questions?: string[];
  section?: string;
  closesAt?: Date;
  [setting: string]: unknown;
}

/** Creates a test of the creator's institute and publishes it; returns its id. */
export async function publishTest(creator: Creator, spec: TestSpec): Promise<string> {
  const { questions, section, closesAt, ...settings } = spec;
  const data = {
    businessId: creator.businessId,
    ...settings,
    ...(questions ? { sections: [{ name: section ?? "Physics", questions }] } : {}),
    ...(closesAt ? { closesAt: closesAt.toISOString() } : {}),
  };
  const created = await creator.request.post("/api/tests", { headers: creator.headers, data });
  expect(created.status(), await created.text()).toBe(201);
  const id = (await created.json()).test._id as string;
  expect((await creator.request.post(`/api/tests/${id}/publish`, { headers: creator.headers })).status()).toBe(200);
  return id;
}

/** A single-correct question for {@link publishTestAsCreator}: its text, options and the index of the right one. */
export interface SingleCorrect {
  text: string;
  options: string[];
  answer: number;
  tags?: { subject?: string; chapter?: string; difficulty?: string };
}

/**
 * The demo creator, through the API, writes single-correct questions (or takes ones already in
 * the bank, by id) and publishes one test of Sunrise Academy from them. Returns the test's id
 * and the creator's bearer header (for further calls as them, e.g. granting extra time).
 */
export async function publishTestAsCreator(
  request: APIRequestContext,
  test: {
    title: string;
    questions: (SingleCorrect | string)[];
    section?: string;
    closesAt?: Date;
    [setting: string]: unknown;
  },
): Promise<{ id: string; headers: Creator["headers"] }> {
  const creator = await asDemoCreator(request);
  const questionIds: string[] = [];
  for (const q of test.questions)
    questionIds.push(typeof q === "string" ? q : (await writeQuestions(creator, [{ type: "single", ...q }]))[0]);
  const id = await publishTest(creator, { ...test, questions: questionIds });
  return { id, headers: creator.headers };
}

/** Fills the student sign-up form open on the page and sends it; the e-mail is made from the name. */
export async function fillStudentSignUp(page: Page, name: string) {
  await page.getByLabel("Full name").fill(name);
  await page.getByLabel("Email").fill(`${name.split(" ")[0].toLowerCase()}.${unique()}@example.com`);
  await page.getByLabel("Password", { exact: true }).fill("tangerine-kettle-42");
  await page.getByLabel("Confirm password").fill("tangerine-kettle-42");
  await page.getByRole("button", { name: "Create account" }).click();
}

/**
 * A visitor (the page's cookies cleared) signs up as a student on Sunrise Academy's own site
 * (demo-t1.localhost) and lands on their dashboard there.
 */
export async function signUpStudentOnSite(page: Page, name: string) {
  await page.context().clearCookies();
  await page.goto(`${site()}/auth?role=student&mode=register`);
  await fillStudentSignUp(page, name);
  await expect(page).toHaveURL(`${site()}/student`);
}

/**
 * A signed-out visitor opens a test on Sunrise Academy's site, is sent to sign in, registers as
 * its student and lands back on the test. With `institute`, the sign-up page must name it.
 */
export async function signUpFromTest(page: Page, testId: string, name: string, options: { institute?: string } = {}) {
  await page.goto(`${site()}/student/mock-tests/${testId}`);
  await expect(page).toHaveURL(/\/auth\?role=student&redirectTo=/);
  if (options.institute) await expect(page.getByText(options.institute).first()).toBeVisible();
  await page.getByRole("tab", { name: "Register" }).click();
  await fillStudentSignUp(page, name);
  await expect(page).toHaveURL(`${site()}/student/mock-tests/${testId}`);
}

/**
 * Chooses the institute the business area shows (the header's switcher) and waits for the switch
 * itself, its `?center=` request: the page's address may already be the one it lands on.
 */
export async function chooseInstitute(page: Page, institute: string) {
  const select = page.getByLabel("Institute");
  const current = await select.evaluate((el) => {
    const s = el as HTMLSelectElement;
    return s.options[s.selectedIndex]?.label ?? "";
  });
  if (current === institute) return;
  const switched = page.waitForResponse((response) => response.url().includes("center="));
  await select.selectOption({ label: institute });
  await switched;
}

/** A day `days` from now, as the fee API takes it. */
export const daysFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * Sunrise Academy's fees as its demo owner works them through the API (the owner's own sign-in on
 * `request`): `assignPlan` makes a plan of `instalments` (one "Tuition" head of their total) and
 * assigns it to the student, answering the account's id.
 */
export async function sunriseFees(request: APIRequestContext) {
  const login = await request.post("/api/auth/login", {
    data: { email: "business@example.com", password: "demo-business-2025" },
  });
  const headers = { authorization: `Bearer ${(await login.json()).access_token}` };
  const { businesses } = await (await request.get("/api/businesses", { headers })).json();
  const centerId = (businesses as { _id: string; name: string }[]).find((b) => b.name === "Sunrise Academy")!._id;
  return {
    async assignPlan(
      studentId: string,
      name: string,
      instalments: { label: string; amount: number; dueOn: string }[],
    ): Promise<string> {
      const total = instalments.reduce((sum, i) => sum + i.amount, 0);
      const made = await request.post("/api/fee-plans", {
        headers,
        data: { centerId, name, heads: [{ name: "Tuition", amount: total }], instalments },
      });
      expect(made.status(), await made.text()).toBe(201);
      const assigned = await request.post("/api/fee-accounts", {
        headers,
        data: { centerId, studentId, feePlanId: (await made.json()).feePlan._id },
      });
      expect(assigned.status(), await assigned.text()).toBe(201);
      return (await assigned.json()).account._id as string;
    },
  };
}
