import { expect, test, type Page } from "./fixtures.ts";
import { chooseInstitute, signIn, unique } from "./journeys.ts";

const port = Number(process.env.E2E_PORT);
const sunriseSite = `http://demo-t1.localhost:${port}`;
const SHOTS = process.env.E2E_SCREENSHOTS;

/** Screenshots of the new pages when E2E_SCREENSHOTS names a folder (to look at them, not to compare). */
async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

async function ownerOnSunrise(page: Page, path: string) {
  await page.goto(path);
  await chooseInstitute(page, "Sunrise Academy");
  await expect(page).toHaveURL(new RegExp(`${path}$`));
}

test("an owner builds their team, and only the team's content is on their site, as long as the owner wants it", async ({
  browser,
}) => {
  const id = unique();
  const creatorEmail = `team.creator.${id}@example.com`;
  const title = `Team journey live ${id}`;

  // The owner sees both states of the demo team, then invites a new creator and copies the link.
  const ownerContext = await browser.newContext();
  await ownerContext.grantPermissions(["clipboard-read", "clipboard-write"], { origin: `http://localhost:${port}` });
  const owner = await ownerContext.newPage();
  await signIn(owner, "business@example.com", "demo-business-2025", "business");
  await ownerOnSunrise(owner, "/business/team");
  await expect(owner.getByRole("heading", { name: "Team", exact: true })).toBeVisible();
  const members = owner.locator("section", { has: owner.getByRole("heading", { name: /^Members/ }) });
  await expect(members.getByRole("row", { name: /Rahul Verma/ })).toBeVisible();
  const pending = owner.locator("section", { has: owner.getByRole("heading", { name: /^Pending invitations/ }) });
  await expect(pending.getByRole("row", { name: /meera\.iyer@example\.com/ })).toBeVisible();

  await owner.getByLabel("E-mail address").fill(creatorEmail);
  await owner.getByRole("button", { name: "Create invitation link" }).click();
  await expect(owner.getByText("Invitation link ready")).toBeVisible();
  const linkField = owner.getByLabel(`Invitation link for ${creatorEmail}`);
  const link = await linkField.inputValue();
  expect(link).toMatch(new RegExp(`^http://localhost:${port}/invite/[a-z2-7]{32}$`));
  await owner.getByRole("button", { name: "Copy link" }).click();
  await expect(owner.getByText("Link copied")).toBeVisible();
  expect(await owner.evaluate(() => navigator.clipboard.readText())).toBe(link);
  await expect(pending.getByRole("row", { name: new RegExp(creatorEmail.replace(/\./g, "\\.")) })).toBeVisible();
  await shot(owner, "business-team");

  // The creator opens the link, signs up with that address, comes back and accepts.
  const creatorContext = await browser.newContext();
  const creator = await creatorContext.newPage();
  await creator.goto(link);
  await expect(creator.getByRole("heading", { name: "Join Sunrise Academy's team" })).toBeVisible();
  await expect(
    creator.getByText(
      `Anita Sharma invited ${creatorEmail} to put classes and materials on Sunrise Academy's website.`,
    ),
  ).toBeVisible();
  await shot(creator, "invite-signed-out");
  await creator.getByRole("link", { name: "Create a creator account" }).click();
  await creator.getByLabel("Full name").fill("Kavya Team");
  await creator.getByLabel("Email").fill(creatorEmail);
  await creator.getByLabel("Password", { exact: true }).fill("tangerine-kettle-42");
  await creator.getByLabel("Confirm password").fill("tangerine-kettle-42");
  await creator.getByRole("button", { name: "Create account" }).click();
  await expect(creator).toHaveURL(link);
  await expect(creator.getByText(`You are signed in as Kavya Team (${creatorEmail}).`, { exact: false })).toBeVisible();
  await shot(creator, "invite-signed-in");
  await creator.getByRole("button", { name: "Accept invitation" }).click();
  await expect(creator).toHaveURL(/\/creator\/contents$/);
  await expect(creator.getByText("You joined Sunrise Academy's team")).toBeVisible();

  // The creator's Business dropdown offers their team's institute only, and the class goes on its site.
  const created = await creator.request.post("/api/content", {
    headers: { origin: `http://localhost:${port}` },
    multipart: { title, type: "live", price: "0", liveLink: "https://meet.example.com/team-journey" },
  });
  expect(created.status()).toBe(201);
  await creator.goto(`/creator/contents?q=${encodeURIComponent(title)}`);
  const business = creator.getByLabel(`Business for ${title}`);
  await expect(business.locator("option")).toHaveText(["Unassigned", "Sunrise Academy"]);
  await business.selectOption({ label: "Sunrise Academy" });
  await expect(creator.getByText("Business updated")).toBeVisible();

  const visitor = await browser.newPage();
  const onSite = async () => {
    await visitor.goto(`${sunriseSite}/`);
    return visitor.getByText(title).count();
  };
  await expect.poll(onSite, { timeout: 10_000 }).toBeGreaterThan(0);

  // The owner hides it: it leaves the site; shows it: it is back.
  await ownerOnSunrise(owner, "/business/content");
  const row = owner.getByRole("row", { name: new RegExp(title) });
  await expect(row.getByText("Kavya Team")).toBeVisible();
  await expect(row.getByText("Shown", { exact: true })).toBeVisible();
  await row.getByRole("button", { name: `Hide ${title}` }).click();
  await expect(owner.getByText("Hidden from your website", { exact: true })).toBeVisible();
  await expect(row.getByText("Hidden by you")).toBeVisible();
  await shot(owner, "business-content");
  await expect.poll(onSite, { timeout: 10_000 }).toBe(0);
  await row.getByRole("button", { name: `Show ${title}` }).click();
  await expect(owner.getByText("Shown on your website", { exact: true })).toBeVisible();
  await expect.poll(onSite, { timeout: 10_000 }).toBeGreaterThan(0);

  // The account page's card sums the team up.
  await owner.goto("/business/account");
  const card = owner.locator("div.rounded-xl", { has: owner.getByRole("heading", { name: "Team & Analytics" }) });
  await expect(card.getByText("Members")).toBeVisible();
  await expect(card.getByText(/On your team: .*Kavya Team/)).toBeVisible();
  await shot(owner, "business-account");

  // The owner removes the creator: their class leaves the site and their dropdown.
  await owner.goto("/business/team");
  await members.getByRole("button", { name: "Remove Kavya Team" }).click();
  const confirm = owner.getByRole("alertdialog", { name: "Remove Kavya Team from the team?" });
  await expect(
    confirm.getByText("Their classes and materials leave your website at once. You can invite them again later."),
  ).toBeVisible();
  await confirm.getByRole("button", { name: "Remove" }).click();
  await expect(owner.getByText("Member removed")).toBeVisible();
  await expect(members.getByRole("row", { name: /Kavya Team/ })).toHaveCount(0);
  await expect.poll(onSite, { timeout: 10_000 }).toBe(0);
  await creator.goto(`/creator/contents?q=${encodeURIComponent(title)}`);
  await expect(business.locator("option")).toHaveText(["Unassigned"]);
  await expect(business).toHaveValue("");
  // The link now says so.
  await creator.goto(link);
  await expect(creator.getByText("Sunrise Academy withdrew this invitation.")).toBeVisible();

  await visitor.close();
  await creatorContext.close();
  await ownerContext.close();
});

test("an invitation link is for the invited creator only", async ({ browser, page }) => {
  const id = unique();
  const owner = await browser.newPage();
  await signIn(owner, "business@example.com", "demo-business-2025", "business");
  await ownerOnSunrise(owner, "/business/team");
  await owner.getByLabel("E-mail address").fill(`someone.else.${id}@example.com`);
  await owner.getByRole("button", { name: "Create invitation link" }).click();
  const link = await owner.getByLabel(`Invitation link for someone.else.${id}@example.com`).inputValue();
  await owner.close();

  // The demo creator is signed in with another address: they are told, and offered to switch.
  await signIn(page, "creator@example.com", "demo-creator-2025", "creator");
  await page.goto(link);
  await expect(
    page.getByText(
      `You are signed in as creator@example.com. This invitation was sent to someone.else.${id}@example.com. Sign in with that address to accept it.`,
    ),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: "Accept invitation" })).toHaveCount(0);
  await page.getByRole("button", { name: "Sign in with another account" }).click();
  await expect(page).toHaveURL(/\/auth\?role=creator&mode=login&redirectTo=%2Finvite%2F/);

  // A link that is not one.
  const response = await page.goto("/invite/notarealtoken");
  expect(response?.status()).toBe(404);
  await expect(page.getByText("This invitation link is not valid. Ask the institute for a new one.")).toBeVisible();
});

test("without JavaScript the owner still invites, revokes and hides", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signIn(page, "business@example.com", "demo-business-2025", "business");
  await page.goto("/business/team");
  const sunriseId = await page
    .getByLabel("Institute")
    .locator("option", { hasText: "Sunrise Academy" })
    .getAttribute("value");
  await page.goto(`/business/team?center=${sunriseId}`);
  await expect(
    page.getByText(
      "Creators on Sunrise Academy's team can put their classes and materials on your website. Nobody else can.",
    ),
  ).toBeVisible();

  const email = `nojs.${unique()}@example.com`;
  await page.getByLabel("E-mail address").fill(email);
  await page.getByRole("button", { name: "Create invitation link" }).click();
  await expect(page.getByLabel(`Invitation link for ${email}`)).toHaveValue(/\/invite\/[a-z2-7]{32}$/);
  await page.getByRole("button", { name: `Revoke ${email}` }).click();
  await expect(page.getByRole("row", { name: new RegExp(email.replace(/\./g, "\\.")) })).toHaveCount(0);
  await expect(page.getByText(/Removed members and revoked invitations/)).toBeVisible();

  await page.goto("/business/content");
  const row = page.getByRole("row", { name: /Rotational Motion Formula Sheet/ });
  await row.getByRole("button", { name: "Hide Rotational Motion Formula Sheet" }).click();
  await expect(
    page.getByRole("row", { name: /Rotational Motion Formula Sheet/ }).getByText("Hidden by you"),
  ).toBeVisible();
  await page.getByRole("button", { name: "Show Rotational Motion Formula Sheet" }).click();
  await expect(
    page.getByRole("row", { name: /Rotational Motion Formula Sheet/ }).getByText("Shown", { exact: true }),
  ).toBeVisible();
  await context.close();
});
