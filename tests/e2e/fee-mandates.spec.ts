import { expect, test } from "./fixtures.ts";
import { chooseInstitute, signIn, signUpStudentOnSite, unique } from "./journeys.ts";

/**
 * Issue 42 §7, the payment method follows the amount: a student of Sunrise Academy on a monthly
 * plan of ₹2,500 dues sets up UPI Autopay on the institute's site in the sandbox's Checkout (₹1 to
 * authorise, given back), sees it active on their Fees page; the owner sees it on the account's
 * detail with who set it up; the student cancels it and the page says so.
 */

const port = Number(process.env.E2E_PORT);
const sunrise = `http://demo-t1.localhost:${port}`;

test("a student sets up UPI Autopay for a monthly plan, the owner sees it, the student cancels it", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const plan = `Monthly fees ${unique()}`;
  await signUpStudentOnSite(page, "Ishaan Verma");
  const me = await page.evaluate(async () => {
    const res = await fetch("/api/auth/profile");
    return ((await res.json()) as { user: { _id: string } }).user;
  });

  const owner = await browser.newContext();
  const desk = await owner.newPage();
  const login = await desk.request.post("/api/auth/login", {
    data: { email: "business@example.com", password: "demo-business-2025" },
  });
  const headers = { authorization: `Bearer ${(await login.json()).access_token}` };
  const { businesses } = await (await desk.request.get("/api/businesses", { headers })).json();
  const centerId = (businesses as { _id: string; name: string }[]).find((b) => b.name === "Sunrise Academy")!._id;
  const soon = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  const made = await desk.request.post("/api/fee-plans", {
    headers,
    data: {
      centerId,
      name: plan,
      heads: [{ name: "Tuition", amount: 10_000 }],
      instalments: [0, 1, 2, 3].map((m) => ({ label: `Month ${m + 1}`, amount: 2_500, dueOn: soon(10 + 30 * m) })),
    },
  });
  expect(made.status(), await made.text()).toBe(201);
  const assigned = await desk.request.post("/api/fee-accounts", {
    headers,
    data: { centerId, studentId: me._id, feePlanId: (await made.json()).feePlan._id },
  });
  expect(assigned.status(), await assigned.text()).toBe(201);
  const accountId = (await assigned.json()).account._id as string;

  await page.goto(`${sunrise}/student/fees`);
  const card = page.getByRole("region", { name: plan });
  const instruction = card.getByRole("region", { name: "Standing instruction" });
  await expect(instruction).toContainText(
    "Monthly dues of at most ₹2,500: UPI Autopay can collect them each month without asking you again",
  );
  await instruction.getByRole("button", { name: "Set up UPI Autopay" }).click();
  const checkout = page.getByRole("dialog", { name: "Sunrise Academy" });
  await expect(checkout.getByText(/^Authorise UPI Autopay: up to ₹15,000 a month until /)).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("mandate-checkout.png"), fullPage: true });
  await checkout.getByRole("button", { name: "Authorise and pay ₹1.00" }).click();
  await expect(page.getByText("UPI Autopay is set up").first()).toBeVisible();
  await expect(instruction.getByText("Active", { exact: true })).toBeVisible();
  await expect(instruction).toContainText("UPI Autopay collects each due a couple of days before its last date");
  await page.screenshot({ path: test.info().outputPath("mandate-student.png"), fullPage: true });

  // The owner sees it on the account's detail, with who set it up.
  await signIn(desk, "business@example.com", "demo-business-2025");
  await desk.goto(`/business/fees?account=${accountId}`);
  await chooseInstitute(desk, "Sunrise Academy");
  await desk.goto(`/business/fees?account=${accountId}`);
  const deskView = desk.getByRole("region", { name: "Standing instruction" });
  await expect(deskView.getByText("Active", { exact: true })).toBeVisible();
  await expect(deskView).toContainText("Set up by Ishaan Verma.");
  await desk.screenshot({ path: test.info().outputPath("mandate-owner.png"), fullPage: true });

  // The student ends it.
  await instruction.getByRole("button", { name: "Cancel UPI Autopay" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Cancel UPI Autopay" }).click();
  await expect(page.getByText("UPI Autopay is cancelled").first()).toBeVisible();
  await expect(instruction.getByText("Cancelled", { exact: true })).toBeVisible();
  await expect(instruction.getByRole("button", { name: "Set up UPI Autopay" })).toBeVisible();
  await owner.close();
});
