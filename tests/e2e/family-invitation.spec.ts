import { expect, test } from "./fixtures.ts";
import { chooseInstitute, messagesTo, signIn, unique } from "./journeys.ts";
import { FAMILY_TEXTS, maskPhone } from "../../common/family.ts";

/**
 * Issue 41 (parents), decision 0047: the owner invites a student's mother from the Students page;
 * the WhatsApp message in the outbox leads to the institute's own site, where she reads the consent
 * notice, gets a code on her number, agrees as a new account and lands in the parent's area with
 * her daughter there; the owner's page then shows her linked.
 */
test("an owner invites a parent, who agrees with a code on her number and follows her child", async ({
  page,
  browser,
  request,
}) => {
  const tag = unique();
  // A mobile number of its own for each run: 9 then the clock's last nine digits.
  const phone = `+919${String(Date.now()).slice(-9)}`;
  const parentName = `Lata Kulkarni ${tag}`;
  await signIn(page, "business@example.com", "demo-business-2025");
  await page.goto("/business/students");
  await chooseInstitute(page, "Sunrise Academy");
  // The list asks the server as she types (once typing pauses), without pressing Search.
  await page.getByLabel("Search").fill("Sneha");
  await expect(page).toHaveURL(/[?&]q=Sneha(&|$)/);
  await expect(page.getByText(/^\d+ students?\.$/)).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: "Sneha Kulkarni" });
  await row.getByRole("button", { name: "Add parent" }).click();
  await page.getByLabel("Parent's name").fill(parentName);
  await page.getByLabel("Relation").selectOption("mother");
  await page.getByLabel("Mobile number").fill(phone);
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByText(FAMILY_TEXTS.inviteSent(parentName, maskPhone(phone))).first()).toBeVisible();
  // Her own line in Sneha's row (other runs' parents may be there too).
  const hers = row.getByRole("listitem").filter({ hasText: parentName });
  await expect(hers).toContainText("Invited");

  // The message waits in the outbox once the worker has sent it.
  let link = "";
  await expect(async () => {
    const invitation = (await messagesTo(request, phone)).find(
      (m) => m.channel === "whatsapp" && /\/family\//.test(m.text),
    );
    expect(invitation).toBeDefined();
    link = /(https?:\/\/\S+\/family\/[a-z2-7]+)/.exec(invitation!.text)![1];
  }).toPass({ timeout: 20_000 });
  expect(new URL(link).hostname).toBe("demo-t1.localhost");

  const parentContext = await browser.newContext();
  const parent = await parentContext.newPage();
  await parent.goto(link);
  await expect(parent.getByRole("heading", { name: "Follow Sneha's classes at Sunrise Academy" })).toBeVisible();
  await expect(parent.getByText("Your mobile number and name are seen only by Sunrise Academy's staff")).toBeVisible();
  await parent.getByRole("button", { name: /^Send a code to / }).click();
  await expect(parent.getByRole("status")).toContainText("We sent a 6-digit code to");
  let code = "";
  await expect(async () => {
    const sent = (await messagesTo(request, phone)).find((m) => /code is \d{6}/.test(m.text));
    expect(sent).toBeDefined();
    code = /(\d{6})/.exec(sent!.text)![1];
  }).toPass({ timeout: 20_000 });
  await parent.getByLabel("Code").fill(code);
  await expect(parent.getByLabel("Your name")).toHaveValue(parentName);
  await parent.getByLabel("E-mail").fill(`lata.${tag}@example.com`);
  await parent.getByRole("button", { name: "I agree" }).click();
  await expect(parent).toHaveURL(/demo-t1\.localhost:\d+\/parent$/);
  await expect(parent.getByText("Sneha Kulkarni").first()).toBeVisible();
  await parent.screenshot({ path: test.info().outputPath("parent-home.png"), fullPage: true });
  await parentContext.close();

  await page.reload();
  await expect(hers).toContainText("Linked");
});
