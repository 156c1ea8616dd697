import { readFile } from "node:fs/promises";
import { expect, ownMobile, test, type Page } from "./fixtures.ts";
import { signIn, signUpStudentOnSite, unique } from "./journeys.ts";
import type { APIRequestContext } from "@playwright/test";
import { CONSENT_NOTICE_VERSION, FAMILY_TEXTS, maskPhone } from "../../common/family.ts";
import { PARENT_TEXTS } from "../../common/parent-area.ts";

/**
 * The parent's area (issue 41, decision 0047) in the browser. Sunrise Academy's owner invites one
 * mother for two of the demo's students (Aman Verma and Sneha Kulkarni, classmates in JEE 2027
 * Morning with eight marked classes: server/seed/demo-attendance.ts) and gives both a fee plan; she
 * answers both invitations (the first with the code sent to her number, which makes her account),
 * then signs in with a code on the institute's own site. She lands in her area from the student
 * home, sees a card per child, a child's attendance with each mark, the household's dues together
 * (paying one), and withdraws consent for each child until her area is empty. A student invites
 * their own parent from their account page.
 */

const port = Number(process.env.E2E_PORT);
const sunrise = `http://demo-t1.localhost:${port}`;
const e164 = (mobile: string) => mobile.replace(/\s+/g, "");

/** The India month of yesterday: it always holds at least one of the demo's classes. */
const demoMonth = () => new Date(Date.now() - 86_400_000 + 330 * 60_000).toISOString().slice(0, 7);

type Message = { id: string; text: string };
const messagesTo = async (request: APIRequestContext, to: string): Promise<Message[]> =>
  (await (await request.get(`/_sandbox/outbox.json?to=${encodeURIComponent(to)}`)).json()).messages;
const idsOf = async (request: APIRequestContext, to: string) =>
  new Set((await messagesTo(request, to)).map((m) => m.id));

/** Codes already read: a code goes on WhatsApp and by SMS, and the second may arrive after the next is asked. */
const used = new Set<string>();

/** The 6-digit code in a message to `phone` that is not one of `before`, once the worker has sent it. */
async function newCode(request: APIRequestContext, phone: string, before: Set<string>): Promise<string> {
  let code = "";
  await expect(async () => {
    const fresh = (await messagesTo(request, phone)).filter((m) => !before.has(m.id));
    code = fresh.map((m) => /\b(\d{6})\b/.exec(m.text)?.[1]).find((c) => c && !used.has(c)) ?? "";
    expect(code).not.toBe("");
  }).toPass({ timeout: 20_000 });
  used.add(code);
  return code;
}

/** The owner's side, through the API: the institute, its students by name, a fee plan given to two of them, invitations. */
async function asOwner(request: APIRequestContext) {
  const login = await request.post("/api/auth/login", {
    data: { email: "business@example.com", password: "demo-business-2025" },
  });
  const headers = { authorization: `Bearer ${(await login.json()).access_token}` };
  const { businesses } = await (await request.get("/api/businesses", { headers })).json();
  const centerId = (businesses as { _id: string; name: string }[]).find((b) => b.name === "Sunrise Academy")!._id;
  const people = await (await request.get(`/api/batches/people?centerId=${centerId}`, { headers })).json();
  const studentId = (name: string) =>
    (people.students as { _id: string; name: string }[]).find((s) => s.name === name)!._id;
  return {
    centerId,
    studentId,
    async feePlan(name: string, studentIds: string[]) {
      const soon = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
      const made = await request.post("/api/fee-plans", {
        headers,
        data: {
          centerId,
          name,
          heads: [{ name: "Tuition", amount: 18_000 }],
          instalments: [
            { label: "Admission instalment", amount: 12_000, dueOn: soon(3) },
            { label: "Second instalment", amount: 6_000, dueOn: soon(45) },
          ],
        },
      });
      expect(made.status(), await made.text()).toBe(201);
      const feePlanId = (await made.json()).feePlan._id;
      for (const id of studentIds) {
        const assigned = await request.post("/api/fee-accounts", {
          headers,
          data: { centerId, studentId: id, feePlanId },
        });
        expect(assigned.status(), await assigned.text()).toBe(201);
      }
    },
    /** Sends the student (and so their linked parents) a payment link for their due `label` of `plan`; its address. */
    async sendLink(studentId: string, plan: string, label: string) {
      const res = await request.get(`/api/fee-accounts?studentId=${studentId}&centerId=${centerId}`, { headers });
      const { accounts } = (await res.json()) as {
        accounts: { planName: string; dues: { _id: string; label: string }[] }[];
      };
      const due = accounts.find((a) => a.planName === plan)!.dues.find((d) => d.label === label)!;
      const sent = await request.post(`/api/fee-dues/${due._id}/link`, { headers, data: {} });
      expect(sent.status(), await sent.text()).toBe(201);
      return (await sent.json()).url as string;
    },
    async invite(studentId: string, parent: { name: string; phone: string }) {
      const res = await request.post(`/api/students/${studentId}/parents`, {
        headers,
        data: { centerId, name: parent.name, relation: "mother", phone: parent.phone },
      });
      expect(res.status(), await res.text()).toBe(201);
      return ((await res.json()).link as string).split("/family/")[1];
    },
  };
}

/** Signs in on the institute's site with a code sent to `phone`. */
async function signInWithCode(page: Page, phone: string) {
  const before = await idsOf(page.request, phone);
  await page.goto(`${sunrise}/login-code`);
  await page.getByLabel("Mobile number").fill(phone);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page.getByLabel("Code")).toBeVisible();
  await page.getByLabel("Code").fill(await newCode(page.request, phone, before));
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

test("a parent of two follows both children, pays from the household's fees and withdraws consent", async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const phone = e164(ownMobile());
  const plan = `Parents' plan ${unique()}`;
  const api = await browser.newContext();
  const owner = await asOwner(api.request);
  const aman = owner.studentId("Aman Verma");
  const sneha = owner.studentId("Sneha Kulkarni");
  await owner.feePlan(plan, [aman, sneha]);

  // She answers Aman's invitation with the code sent to her number (her account is made then), Sneha's signed in.
  const forAman = await owner.invite(aman, { name: "Meena Verma", phone });
  const forSneha = await owner.invite(sneha, { name: "Meena Verma", phone });
  const parent = await browser.newContext();
  const before = await idsOf(parent.request, phone);
  expect((await parent.request.post(`/api/family/invitations/${forAman}/code`)).status()).toBe(200);
  const answered = await parent.request.post(`/api/family/invitations/${forAman}/answer`, {
    data: {
      answer: "granted",
      noticeVersion: CONSENT_NOTICE_VERSION,
      code: await newCode(parent.request, phone, before),
      name: "Meena Verma",
      email: `meena.${unique()}@example.com`,
    },
  });
  expect(answered.status(), await answered.text()).toBe(200);
  expect((await answered.json()).message).toBe(FAMILY_TEXTS.granted("Aman"));
  const bearer = { authorization: `Bearer ${(await answered.json()).access_token}` };
  const second = await parent.request.post(`/api/family/invitations/${forSneha}/answer`, {
    headers: bearer,
    data: { answer: "granted", noticeVersion: CONSENT_NOTICE_VERSION },
  });
  expect(second.status(), await second.text()).toBe(200);
  await parent.close();

  // Signed in with a code on the institute's site, her student home leads to her own area.
  await signInWithCode(page, phone);
  await expect(page).toHaveURL(`${sunrise}/parent`);
  await expect(page.getByRole("heading", { name: "My children" })).toBeVisible();
  const amanCard = page.getByRole("region", { name: "Aman Verma" });
  const snehaCard = page.getByRole("region", { name: "Sneha Kulkarni" });
  for (const card of [amanCard, snehaCard]) {
    await expect(card).toContainText("Sunrise Academy");
    await expect(card).toContainText("Attendance this month");
    await expect(card).toContainText("Next class");
    await expect(card).toContainText("Nothing owed now");
    await expect(card).toContainText("Next: ₹12,000 by");
    await expect(card.getByRole("link", { name: "Pay" })).toHaveAttribute("href", "/parent/fees");
  }
  await page.screenshot({ path: test.info().outputPath("parent-children.png"), fullPage: true });

  // Aman's page: the demo's month with each class's mark, and his fee account.
  await amanCard.getByRole("link", { name: "Aman Verma" }).click();
  await expect(page.getByRole("heading", { name: "Aman Verma", level: 1 })).toBeVisible();
  await page.getByLabel("Month").fill(demoMonth());
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page.getByText("JEE 2027 Morning").first()).toBeVisible();
  await expect(page.getByRole("table", { name: "Classes" }).getByText("Present").first()).toBeVisible();
  await expect(page.getByRole("region", { name: plan })).toContainText("balance ₹18,000");
  await expect(page.getByText(PARENT_TEXTS.noResults)).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("parent-child.png"), fullPage: true });
  // Another link's id (or a made-up one) is nobody's child of hers.
  const missing = await page.goto(`${sunrise}/parent/children/00000000-0000-4000-8000-000000000000`);
  expect(missing?.status()).toBe(404);

  // The household's fees: both children's dues in one list; she pays Aman's first instalment.
  await page.goto(`${sunrise}/parent/fees`);
  const dues = page.getByRole("list", { name: "Household dues" });
  await expect(dues.getByRole("listitem").filter({ hasText: "Admission instalment" })).toHaveCount(2);
  await expect(dues.getByRole("listitem").filter({ hasText: "Sneha Kulkarni" })).toHaveCount(2);
  await expect(page.getByTestId("owed-total")).toContainText("₹36,000");
  const first = dues
    .getByRole("listitem")
    .filter({ hasText: "Aman Verma" })
    .filter({ hasText: "Admission instalment" });
  await first.getByRole("button", { name: "Pay ₹12,000" }).click();
  const checkout = page.getByRole("dialog", { name: "Sunrise Academy" });
  await expect(checkout.getByText("Test mode — no real money")).toBeVisible();
  await checkout.getByRole("button", { name: "Pay ₹12,000.00" }).click();
  await expect(page.getByText("Payment successful").first()).toBeVisible();
  await expect(page.getByTestId("owed-total")).toContainText("₹24,000");
  await expect(first).toContainText("Paid");
  await page.screenshot({ path: test.info().outputPath("parent-fees.png"), fullPage: true });

  // The desk sends a payment link for Sneha's first instalment; she pays it on her phone, as from WhatsApp.
  const url = await owner.sendLink(sneha, plan, "Admission instalment");
  const handset = await browser.newContext({ viewport: { width: 412, height: 915 }, isMobile: true, hasTouch: true });
  const link = await handset.newPage();
  await link.goto(url);
  await expect(link.getByText("Test mode — no real money")).toBeVisible();
  await link.getByRole("button", { name: "Pay INR 12000.00" }).click();
  await expect(link.getByText("The whole amount has been paid.")).toBeVisible();
  await link.screenshot({ path: test.info().outputPath("parent-link-paid.png"), fullPage: true });
  await handset.close();
  // Its webhook receipts it: the household owes only Sneha's second instalment and Aman's.
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("owed-total")).toContainText("₹12,000");
  }).toPass({ timeout: 20_000 });
  await api.close();

  // Her week: the children's classes, and her private calendar address.
  await page.getByRole("link", { name: "Week", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Week", exact: true })).toBeVisible();
  await expect(page.getByRole("region", { name: "This week" })).toContainText("JEE 2027 Morning");
  // Whose class each is: the two are classmates.
  await expect(page.getByRole("region", { name: "This week" })).toContainText("Aman Verma, Sneha Kulkarni");
  await expect(page.getByLabel("Calendar address")).toHaveValue(/\/api\/calendar\/[\w.-]+\.ics$/);

  // Consent & data: the record, then withdrawing for each child, after a confirm step.
  await page.getByRole("link", { name: "Consent & data" }).click();
  const amanConsent = page.getByRole("region", { name: "Aman Verma" });
  await expect(amanConsent.getByRole("list", { name: "Consent record" })).toContainText("Agreed");
  await expect(amanConsent.getByRole("link", { name: "Download Aman Verma's data" })).toHaveAttribute(
    "href",
    /^\/api\/parent\/children\/[0-9a-f-]{36}\/data$/,
  );
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    amanConsent.getByRole("link", { name: "Download Aman Verma's data" }).click(),
  ]);
  const data = JSON.parse(await readFile((await download.path())!, "utf8"));
  expect(data.student.name).toBe("Aman Verma");
  expect(data.consents.map((c: { answer: string }) => c.answer)).toEqual(["granted"]);
  await page.screenshot({ path: test.info().outputPath("parent-consent.png"), fullPage: true });
  for (const [name, first] of [
    ["Aman Verma", "Aman"],
    ["Sneha Kulkarni", "Sneha"],
  ]) {
    await page.getByRole("button", { name: `Withdraw consent for ${name}` }).click();
    const confirm = page.getByRole("alertdialog", { name: PARENT_TEXTS.withdrawTitle(name) });
    await confirm.getByRole("button", { name: "Withdraw consent" }).click();
    await expect(page.getByText(FAMILY_TEXTS.withdrawn(first, "Sunrise Academy")).first()).toBeVisible();
    await expect(page.getByRole("region", { name })).toHaveCount(0);
  }
  await expect(page.getByText(PARENT_TEXTS.noChildren)).toBeVisible();
  await page.goto(`${sunrise}/parent`);
  await expect(page.getByText(PARENT_TEXTS.noChildren)).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("parent-empty.png"), fullPage: true });
});

test("a student invites a parent from their account page, and sees the invitation with its status", async ({
  page,
}) => {
  const phone = ownMobile();
  await signUpStudentOnSite(page, "Kabir Shah");
  await page.goto(`${sunrise}/student/account`);
  const card = page.getByRole("region", { name: "My parents" });
  await expect(card).toContainText("No parents linked yet.");
  await card.getByLabel("Parent's name").fill("Sunita Shah");
  await card.getByLabel("Relation").selectOption("mother");
  await card.getByLabel("Mobile number").fill("12");
  await card.getByRole("button", { name: "Send invitation" }).click();
  await expect(card.getByLabel("Mobile number")).toHaveAttribute("aria-invalid", "true");
  await card.getByLabel("Mobile number").fill(phone);
  await card.getByRole("button", { name: "Send invitation" }).click();
  await expect(card.getByRole("status")).toHaveText(FAMILY_TEXTS.inviteSent("Sunita Shah", maskPhone(e164(phone))));
  const row = card.getByRole("listitem").filter({ hasText: "Sunita Shah" });
  await expect(row).toContainText("Mother");
  await expect(row).toContainText("Invited");
  await page.screenshot({ path: test.info().outputPath("student-my-parents.png"), fullPage: true });
});

test("a student who is also a guardian switches between the student's and the parent's areas in the header", async ({
  page,
  browser,
}) => {
  const phone = e164(ownMobile());
  await signUpStudentOnSite(page, "Ritu Verma");
  const me = await page.evaluate(
    async () => ((await (await fetch("/api/auth/profile")).json()) as { user: { email: string } }).user,
  );
  // She proves her number on her account page.
  await page.goto(`${sunrise}/student/account`);
  const before = await idsOf(page.request, phone);
  await page.getByLabel("Mobile number").first().fill(phone);
  await page.getByRole("button", { name: "Send code" }).click();
  await page.getByLabel("Code").fill(await newCode(page.request, phone, before));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByText(phone, { exact: true })).toBeVisible();

  // The institute names her Aman's guardian; signed in on the invited number, she answers without a code.
  const api = await browser.newContext();
  const owner = await asOwner(api.request);
  const token = await owner.invite(owner.studentId("Aman Verma"), { name: "Ritu Verma", phone });
  await api.close();
  const answered = await page.evaluate(
    async ({ token, version }) => {
      const res = await fetch(`/api/family/invitations/${token}/answer`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ answer: "granted", noticeVersion: version }),
      });
      return res.status;
    },
    { token, version: CONSENT_NOTICE_VERSION },
  );
  expect(answered).toBe(200);

  // On the platform, her student home stays hers (she studies), and the switcher offers both roles.
  await page.context().clearCookies();
  await signIn(page, me.email, "tangerine-kettle-42", "student");
  const switcher = page.getByLabel("Your role");
  await expect(switcher.locator("option")).toHaveText(["Sunrise Academy · Student", "Sunrise Academy · Parent"]);
  await switcher.selectOption({ label: "Sunrise Academy · Parent" });
  await expect(page).toHaveURL(/\/parent$/);
  await expect(page.getByRole("region", { name: "Aman Verma" })).toBeVisible();
  await expect(page.getByLabel("Your role")).toHaveValue(/:parent$/);
  await page.getByLabel("Your role").selectOption({ label: "Sunrise Academy · Student" });
  await expect(page).toHaveURL(/\/student$/);
  await expect(page.getByLabel("Your role")).toHaveValue(/:student$/);
});
