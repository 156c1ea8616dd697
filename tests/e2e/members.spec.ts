import { expect, test, type Page } from "./fixtures.ts";
import { chooseInstitute, messagesTo, signIn, unique } from "./journeys.ts";

/**
 * People with roles in institutes (issue 40): an owner invites a teacher by e-mail from the Team
 * page; the teacher accepts from the link in the sandbox outbox with a new account; invited to a
 * second institute as a creator, they switch between the two in the header. An invitation to a
 * mobile number goes out on WhatsApp and by SMS.
 */

const SHOTS = process.env.E2E_SCREENSHOTS;
async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** The invitation link the outbox holds for `email` to `institute`, once the worker has sent it. */
async function linkFromOutbox(page: Page, email: string, institute: string): Promise<string> {
  let link = "";
  await expect
    .poll(async () => {
      const mail = (await messagesTo(page.request, email)).find(
        (m) => m.subject === `Join ${institute}'s team on Pathshala`,
      );
      link = /(http\S+\/invite\/[a-z2-7]{32})/.exec(mail?.text ?? "")?.[1] ?? "";
      return link;
    })
    .toMatch(/\/invite\//);
  return new URL(link).pathname;
}

async function inviteFromTeamPage(owner: Page, institute: string, role: string, email: string) {
  await owner.goto("/business/team");
  await chooseInstitute(owner, institute);
  await expect(owner).toHaveURL(/\/business\/team$/);
  await owner.getByLabel("Role").selectOption({ label: role });
  await owner.getByLabel("E-mail address").fill(email);
  await owner.getByRole("button", { name: "Create invitation link" }).click();
  await expect(owner.getByText("Invitation link ready")).toBeVisible();
}

test("an owner invites a teacher, who accepts from the e-mail and switches between institutes in the header", async ({
  browser,
}) => {
  const email = `teacher.${unique()}@example.com`;
  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  await signIn(owner, "business@example.com", "demo-business-2025", "business");
  await inviteFromTeamPage(owner, "Sunrise Academy", "Teacher", email);
  const people = owner.locator("section", { has: owner.getByRole("heading", { name: /^Staff and teachers/ }) });
  const row = people.getByRole("row", { name: new RegExp(email.replace(/\./g, "\\.")) });
  await expect(row).toContainText("Teacher");
  await expect(row).toContainText("Invited, valid until");
  await shot(owner, "members-team-page");

  // The teacher opens the e-mailed link, makes a creator account with that address and accepts.
  const teacher = await (await browser.newContext()).newPage();
  await teacher.goto(await linkFromOutbox(teacher, email, "Sunrise Academy"));
  await expect(teacher.getByRole("heading", { name: "Join Sunrise Academy's team" })).toBeVisible();
  await expect(
    teacher.getByText(`to teach with Sunrise Academy as a teacher: its tests, question bank and results.`),
  ).toBeVisible();
  await teacher.getByRole("link", { name: "Create a creator account" }).click();
  await teacher.getByLabel("Full name").fill("Kavya Teacher");
  await teacher.getByLabel("Email").fill(email);
  await teacher.getByLabel("Password", { exact: true }).fill("tangerine-kettle-42");
  await teacher.getByLabel("Confirm password").fill("tangerine-kettle-42");
  await teacher.getByRole("button", { name: "Create account" }).click();
  await teacher.getByRole("button", { name: "Accept invitation" }).click();
  await expect(teacher.getByText("You joined Sunrise Academy as a teacher")).toBeVisible();
  await expect(teacher).toHaveURL(/\/creator\/tests$/);

  // The owner sees them joined.
  await owner.reload();
  await expect(row).toContainText("Joined");

  // A second institute invites the same address as a creator; accepting gives them two roles.
  await inviteFromTeamPage(owner, "Vidya JEE & NEET Classes", "Creator", email);
  await teacher.goto(await linkFromOutbox(teacher, email, "Vidya JEE & NEET Classes"));
  await teacher.getByRole("button", { name: "Accept invitation" }).click();
  await expect(teacher.getByText("You joined Vidya JEE & NEET Classes's team")).toBeVisible();

  // The header's switcher lists both (and their own work, a creator account's) and remembers the choice.
  const switcher = teacher.getByLabel("Your role");
  await expect(switcher.locator("option")).toHaveText([
    "My own work · Creator",
    "Sunrise Academy · Teacher",
    "Vidya JEE & NEET Classes · Creator",
  ]);
  await switcher.selectOption({ label: "Vidya JEE & NEET Classes · Creator" });
  await expect(teacher).toHaveURL(/\/creator$/);
  await expect(teacher.getByLabel("Your role")).toHaveValue(/:creator$/);
  await shot(teacher, "members-header-switcher");
  // Already on /creator, so the address says nothing: the switch is done when its answer (which
  // sets the choice's cookie) has come back.
  const switched = teacher.waitForResponse(
    (res) => res.request().method() === "POST" && new URL(res.url()).pathname.startsWith("/switch-role"),
  );
  await teacher.getByLabel("Your role").selectOption({ label: "Sunrise Academy · Teacher" });
  await switched;
  await expect(teacher).toHaveURL(/\/creator$/);
  await expect(teacher.getByLabel("Your role")).toHaveValue(/:teacher$/);
  // As Sunrise's teacher: its tests, not content (the policy: tests.write, no content.write).
  const nav = teacher.getByRole("navigation").first();
  await expect(nav.getByRole("link", { name: "Tests" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Contents" })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: "Upload" })).toHaveCount(0);
  const refused = await teacher.goto("/creator/contents");
  expect(refused?.status()).toBe(403);
  await expect(teacher.getByText("Your role in this institute does not allow this (content.write).")).toBeVisible();
  await teacher.goto("/creator/tests");
  await expect(teacher.getByLabel("Your role")).toHaveValue(/:teacher$/);
});

test("an owner invites a teacher by mobile number: the link goes out on WhatsApp and by SMS", async ({ page }) => {
  // A number of this test's own (the recipient policy counts per number and day).
  const digits = `98${String(Date.now()).slice(-8)}`;
  const number = `+91${digits}`;
  await signIn(page, "business@example.com", "demo-business-2025", "business");
  await page.goto("/business/team");
  const form = page.locator("form", { has: page.getByRole("button", { name: "Create invitation link" }) });
  // Both an address and a number: refused in the product's words, nothing made.
  await form.getByLabel("Role").selectOption("teacher");
  await form.getByLabel("E-mail address").fill(`both.${unique()}@example.com`);
  await form.getByLabel("or mobile number").fill(digits);
  await form.getByRole("button", { name: "Create invitation link" }).click();
  await expect(form.getByText("Give an e-mail address or a mobile number, not both.")).toBeVisible();
  await form.getByLabel("E-mail address").fill("");
  await form.getByRole("button", { name: "Create invitation link" }).click();
  const issued = page.getByRole("status").filter({ hasText: `Invitation link for ${number}` });
  await expect(issued).toContainText("they accept with the account that has verified that number.");
  await expect(page.getByRole("row", { name: new RegExp(`${number.replace("+", "\\+")} Teacher`) })).toBeVisible();
  await shot(page, "team-invited-by-mobile");
  const link = await issued.getByRole("textbox").inputValue();
  await expect
    .poll(async () => (await messagesTo(page.request, number)).map((m) => m.channel).sort())
    .toEqual(["sms", "whatsapp"]);
  for (const message of await messagesTo(page.request, number)) expect(message.text).toContain(link);
  // The link names the number and says how to accept.
  await page.context().clearCookies();
  await page.goto(new URL(link).pathname);
  await expect(page.getByText(`Sign in with the creator account that has verified ${number} to accept.`)).toBeVisible();
});

test("staff land in the business area and see only what their role allows", async ({ browser }) => {
  const email = `desk.${unique()}@example.com`;
  const owner = await (await browser.newContext()).newPage();
  await signIn(owner, "business@example.com", "demo-business-2025", "business");
  await inviteFromTeamPage(owner, "Sunrise Academy", "Staff", email);

  // Staff may use any account: a creator account made from the invitation's page.
  const desk = await (await browser.newContext()).newPage();
  await desk.goto(await linkFromOutbox(desk, email, "Sunrise Academy"));
  await desk.getByRole("link", { name: "Create a creator account" }).click();
  await desk.getByLabel("Full name").fill("Farah Desk");
  await desk.getByLabel("Email").fill(email);
  await desk.getByLabel("Password", { exact: true }).fill("tangerine-kettle-42");
  await desk.getByLabel("Confirm password").fill("tangerine-kettle-42");
  await desk.getByRole("button", { name: "Create account" }).click();
  await desk.getByRole("button", { name: "Accept invitation" }).click();
  await expect(desk.getByText("You joined Sunrise Academy as staff")).toBeVisible();
  await expect(desk).toHaveURL(/\/business$/);
  await expect(desk.getByText("Sunrise Academy at a glance.")).toBeVisible();
  const nav = desk.locator("aside nav");
  for (const shown of ["Dashboard", "Profile", "Team", "Leads", "Help & Contact"])
    await expect(nav.getByRole("link", { name: shown, exact: true })).toBeVisible();
  for (const hidden of [
    "Subscription Plan",
    "Setup Details",
    "Template",
    "Website Details",
    "Website Content",
    "Tests",
  ])
    await expect(nav.getByRole("link", { name: hidden, exact: true })).toHaveCount(0);
  await shot(desk, "members-staff-business-area");

  // Opened directly, a page their role does not allow answers 403 in the policy's words.
  for (const [path, action] of [
    ["/business/site", "site.edit"],
    ["/business/subscription-plan", "billing.manage"],
  ]) {
    const response = await desk.goto(path);
    expect(response?.status(), path).toBe(403);
    await expect(desk.getByText(`Your role in this institute does not allow this (${action}).`)).toBeVisible();
  }

  // The Team page: they invite teachers and creators, and remove nobody.
  await desk.goto("/business/team");
  await expect(desk.getByLabel("Role").locator("option")).toHaveText(["Teacher", "Creator"]);
  await expect(desk.getByRole("button", { name: /^(Remove|Revoke) / })).toHaveCount(0);
});
