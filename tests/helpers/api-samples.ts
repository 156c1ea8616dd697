import { CHOSEN_MEMBERSHIP_COOKIE, membershipKey } from "../../common/memberships.ts";
import { and, desc, eq } from "drizzle-orm";
import { operationsOf, type Operation } from "../../server/api/openapi.ts";
import {
  attempts,
  contents,
  enquiries,
  invoices,
  lateAnswers,
  memberships,
  merchantAccounts,
  messages,
  orders,
} from "../../server/db/schema/index.ts";
import { seedDemo } from "../../server/seed/demo.ts";
import { firstBookableDate, TIME_SLOTS } from "#common/validation/seminar.ts";
import type { TestApp } from "./app.ts";
import { bearer, PNG_BYTES, postJson, registerUser, uniqueEmail } from "./http.ts";
import { createCenter, merchantOf } from "./centers.ts";
import { newSandboxAccount } from "../../server/payments/sandbox/accounts.ts";
import { adminToken, payThroughSandbox, signCheckout, webhook } from "./payments.ts";
import { webhookSignature } from "../../server/payments/signatures.ts";
import { FIXTURES } from "./content.ts";
import { publish, register } from "./learning.ts";
import { makeSession, useClock } from "./class-sessions.ts";
import { addDays, indiaDate } from "#common/india-dates.ts";
import { CONSENT_NOTICE_VERSION } from "#common/family.ts";

/**
 * A small world in which every described /api operation has a request that it accepts, so that
 * tests can vary one part of it (a field, a query parameter, an id) and see how that alone is answered.
 */

export const ROLES = ["anonymous", "student", "creator", "business", "admin"] as const;
export type Who = (typeof ROLES)[number];

export const PLATFORM = "localhost";
export const INSTITUTE = "samples-inst.test";

export interface Sample {
  host?: string;
  /** Path parameters by name; `{id}` and friends. */
  params?: Record<string, string>;
  query?: Record<string, string>;
  json?: unknown;
  multipart?: Record<string, string | Blob>;
  /** Raw body (with its own content type). */
  raw?: { body: string; type: string };
  headers?: Record<string, string>;
  /** Who the sample is for; others are refused (401/403). Default: the operation's `auth`. */
  who?: Who[];
  /**
   * The signed-in account the sample is sent as, for the roles in `who`, when the role's shared
   * account cannot succeed (a free trial is only for an owner who has no institute yet).
   */
  session?: Record<string, string>;
}

export interface ApiWorld {
  /** The operations tests drive: every one the served document describes. */
  operations: Operation[];
  /** Bearer headers by host (a session is valid only on the host it was issued on) and role. */
  identities: Record<string, Record<Who, Record<string, string>>>;
  emails: Record<Exclude<Who, "anonymous">, string>;
  samples: Record<string, Sample>;
  /** A fresh bearer header for `who` on `host` (for operations that end the session). */
  freshIdentity(who: Who, host: string): Promise<Record<string, string>>;
  /** New sessions for every role on both hosts (after tests that may have signed them out). */
  renewIdentities(): Promise<void>;
}

const PRICES = { monthly: { price: 1000 }, quarterly: { price: 2800 }, yearly: { price: 10000 } };

export const opKey = (op: Pick<Operation, "method" | "path">) => `${op.method.toUpperCase()} ${op.path}`;

/** The message webhooks' secrets the API's test apps are started with (SAMPLE_ENV). */
export const SAMPLE_ENV = {
  WHATSAPP_APP_SECRET: "sample-whatsapp-app-secret",
  WHATSAPP_VERIFY_TOKEN: "sample-verify-token",
  MSG91_WEBHOOK_TOKEN: "sample-msg91-webhook-token",
};
const whatsappDelivery = JSON.stringify({
  object: "whatsapp_business_account",
  entry: [{ changes: [{ field: "messages", value: { statuses: [{ id: "wamid.sample", status: "delivered" }] } }] }],
});

export async function createApiWorld(t: TestApp): Promise<ApiWorld> {
  await seedDemo(t.database.db);
  const student = await register(t, "student");
  const creator = await register(t, "creator");
  const business = await register(t, "business");
  const newOwner = await register(t, "business");
  const center = await createCenter(t, business.user._id, { slug: "samples-inst", customDomain: INSTITUTE });
  // A domain the institute asked for and has not proven (POST /domains/verify checks it).
  await t.services.domains.claim(t.database.db, center.id, "samples-next.com");
  // Batches (issue 41 §1): one to look at and admit into (the student account, made the
  // institute's student), one to move to, a student to move, one to leave, and a lead to admit.
  const studentOf = (userId: string) =>
    t.database.db
      .insert(memberships)
      .values({ centerId: center.id, userId, role: "student", status: "active", acceptedAt: new Date() })
      .onConflictDoNothing();
  const batchDesk = { id: business.user._id };
  const sampleBatch = await t.services.batches.create(batchDesk, center.id, {
    name: "Sample batch",
    startsOn: "2027-04-01",
    capacity: 30,
  });
  const otherBatch = await t.services.batches.create(batchDesk, center.id, {
    name: "Sample batch B",
    startsOn: "2027-04-01",
  });
  const batchMover = await register(t, "student");
  const batchLeaver = await register(t, "student");
  for (const id of [student.user._id, batchMover.user._id, batchLeaver.user._id]) await studentOf(id);
  await t.services.batches.admit(batchDesk, center.id, sampleBatch._id, {
    studentIds: [batchMover.user._id, batchLeaver.user._id],
  });
  // Attendance (issue 41 §3) on a clock that stands still, so the QR code made here stays current:
  // a class running now for the roll-call, one to close, and an online one the student has joined.
  useClock(t, Date.now());
  const registerBatch = await t.services.batches.create(batchDesk, center.id, {
    name: "Sample register batch",
    startsOn: "2026-04-01",
  });
  await t.services.batches.admit(batchDesk, center.id, registerBatch._id, { studentIds: [student.user._id] });
  const running = (o: { online?: boolean } = {}) =>
    makeSession(t, {
      centerId: center.id,
      batchId: registerBatch._id,
      startsAt: new Date(Date.now() - 5 * 60_000),
      online: o.online,
      meetingUrl: o.online ? "https://meet.example.com/sample" : null,
    });
  const classSession = await running();
  const closingSession = await running();
  const onlineSession = await running({ online: true });
  const atDesk = { userId: business.user._id, siteCenterId: null };
  const qrCode = (await t.services.attendance.qr.code(atDesk, classSession)).code;
  await t.services.attendance.online.join({ userId: student.user._id, siteCenterId: null }, onlineSession);
  const [batchLead] = await t.database.db
    .insert(enquiries)
    .values({ centerId: center.id, name: "Sample Lead", phone: "9830044444", email: "sample.lead@example.com" })
    .returning();
  // Timetables (issue 41 §2): a class to change, a holiday to remove, the student's calendar address.
  const sampleClass = await t.services.timetables.addSession(center.id, sampleBatch._id, {
    on: "2027-04-07",
    start: "09:00",
    end: "10:00",
    subject: "Sample class",
  });
  const sampleHoliday = await t.services.timetables.declareHoliday(batchDesk, center.id, {
    on: "2027-08-15",
    name: "Independence Day",
  });
  const calendarFile = (await t.services.timetables.calendarUrl(student.user._id, null)).split("/").pop()!;
  // Fees (issue 42): a plan, the student's account under it with a receipt to reverse.
  const feePlan = await t.services.feePlans.create(business.user._id, center.id, {
    name: "Sample fee plan",
    heads: [{ name: "Tuition", amount: 10_000 }],
    instalments: [{ label: "Lump sum", amount: 10_000, dueOn: "2027-04-01" }],
  });
  const feeAccount = await t.services.feeAccounts.assign(business.user._id, center.id, {
    studentId: student.user._id,
    feePlanId: feePlan._id,
  });
  const feeReceipt = await t.services.feeDesk.takeAtDesk(business.user._id, center.id, feeAccount._id, {
    amount: 1_000,
    mode: "cash",
  });
  // Dues (issue 42 §5): an account already overdue, for the one-click reminder.
  const overduePlan = await t.services.feePlans.create(business.user._id, center.id, {
    name: "Sample overdue plan",
    heads: [{ name: "Tuition", amount: 2_000 }],
    instalments: [{ label: "Lump sum", amount: 2_000, dueOn: "2026-01-01" }],
  });
  const overdueAccount = await t.services.feeAccounts.assign(business.user._id, center.id, {
    studentId: student.user._id,
    feePlanId: overduePlan._id,
  });
  // Refunds (issue 42 §6): an account that paid, to be refunded by the sample, and one refunded already.
  const refundPlan = await t.services.feePlans.create(business.user._id, center.id, {
    name: "Sample refund plan",
    heads: [
      { name: "Admission", amount: 1_000, nonRefundable: true },
      { name: "Tuition", amount: 9_000 },
    ],
    instalments: [{ label: "Lump sum", amount: 10_000, dueOn: "2026-04-01" }],
  });
  const refundedPlan = await t.services.feePlans.create(business.user._id, center.id, {
    name: "Sample refunded plan",
    heads: [{ name: "Tuition", amount: 4_000 }],
    instalments: [{ label: "Lump sum", amount: 4_000, dueOn: "2026-04-01" }],
  });
  const refundCourse = { courseFrom: "2026-04-01", courseTo: "2027-03-31" };
  const refundAccounts = [];
  for (const plan of [refundPlan, refundedPlan]) {
    const account = await t.services.feeAccounts.assign(business.user._id, center.id, {
      studentId: student.user._id,
      feePlanId: plan._id,
    });
    await t.services.feeDesk.takeAtDesk(business.user._id, center.id, account._id, { amount: 2_000, mode: "cash" });
    refundAccounts.push(account);
  }
  const [refundAccount, refundedAccount] = refundAccounts;
  const sampleRefund = await t.services.feeRefunds.refund(business.user._id, center.id, refundedAccount._id, {
    leftOn: "2026-05-01",
    ...refundCourse,
    reason: "Moved to another city",
    mode: "cash",
  });
  // Standing instructions (issue 42 §7): three monthly accounts of the student's, one to start one on,
  // one whose UPI Autopay was authorised in the sandbox's Checkout (to confirm), one to cancel.
  const monthlyAccounts = [];
  for (const name of ["Sample monthly A", "Sample monthly B", "Sample monthly C"]) {
    const plan = await t.services.feePlans.create(business.user._id, center.id, {
      name,
      heads: [{ name: "Tuition", amount: 6_000 }],
      instalments: [0, 1, 2].map((m) => ({
        label: `Month ${m + 1}`,
        amount: 2_000,
        dueOn: addDays(indiaDate(new Date()), 20 + 30 * m),
      })),
    });
    monthlyAccounts.push(
      await t.services.feeAccounts.assign(business.user._id, center.id, {
        studentId: student.user._id,
        feePlanId: plan._id,
      }),
    );
  }
  const payer = { payerId: student.user._id, studentId: student.user._id };
  const authorised = await t.services.feeMandates.start(payer, monthlyAccounts[1]._id);
  const checkoutResult = await (
    await fetch(`http://127.0.0.1:${t.env.PORT}/_sandbox/razorpay/checkout/pay`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        key: authorised.key_id,
        order_id: authorised.order.id,
        recurring: 1,
        customer_id: authorised.customer_id,
      }),
    })
  ).json();
  const toCancel = await t.services.feeMandates.start(payer, monthlyAccounts[2]._id);
  // The cheque desk (issue 42 §3): a post-dated cheque held in the register, to be given back.
  const inAMonth = addDays(indiaDate(new Date()), 30);
  const feeCheque = await t.services.feeCheques.take(business.user._id, center.id, feeAccount._id, {
    kind: "cheque",
    number: "004512",
    bank: "Sample Bank",
    chequeDate: inAMonth,
    amount: 500,
  });
  // Parents (decision 0047): the institute invites a parent of its student by mobile number and
  // the parent answers on the institute's site with the code sent there; one link to read, one
  // to withdraw, one for the institute to remove, and an open invitation to answer.
  const familyDesk = { id: business.user._id, name: "Sample Owner", email: business.email };
  const parentInvite = (phone: string, studentId: string) =>
    t.services.familyInvitations.invite(familyDesk, center.id, studentId, {
      name: "Sample Parent",
      relation: "mother",
      phone,
    });
  const tokenOfLink = (link: string) => link.slice(link.lastIndexOf("/") + 1);
  const codeSentTo = async (phone: string) => {
    const [sent] = await t.database.db
      .select({ text: messages.text })
      .from(messages)
      .where(and(eq(messages.recipient, phone), eq(messages.template, "phone-code")))
      .orderBy(desc(messages.createdAt))
      .limit(1);
    return /\b(\d{6})\b/.exec(sent.text)![1];
  };
  const PARENT_PHONE = "+919830000301";
  const readLink = await parentInvite(PARENT_PHONE, student.user._id);
  await t.services.familyInvitations.sendCode(tokenOfLink(readLink.link), { ip: "10.9.9.9" });
  const parentAnswer = await postJson(
    t,
    `/api/family/invitations/${tokenOfLink(readLink.link)}/answer`,
    {
      answer: "granted",
      noticeVersion: CONSENT_NOTICE_VERSION,
      code: await codeSentTo(PARENT_PHONE),
      name: "Sample Parent",
      email: uniqueEmail("parent"),
    },
    { host: INSTITUTE },
  );
  if (parentAnswer.status !== 200)
    throw new Error(`family answer failed: ${parentAnswer.status} ${await parentAnswer.text()}`);
  const parent = (await parentAnswer.json()) as { access_token: string; user: { _id: string } };
  const withdrawLink = await parentInvite(PARENT_PHONE, batchMover.user._id);
  await t.services.familyInvitations.answer(
    tokenOfLink(withdrawLink.link),
    { answer: "granted", noticeVersion: CONSENT_NOTICE_VERSION },
    { id: parent.user._id },
  );
  const removeLink = await parentInvite("+919830000302", batchLeaver.user._id);
  const openFamilyInvite = tokenOfLink((await parentInvite("+919830000303", batchLeaver.user._id)).link);
  // Its own invitation: the code sample above sends new codes to the other one's number.
  const familyInviteToAnswer = tokenOfLink((await parentInvite("+919830000305", batchLeaver.user._id)).link);
  await t.services.familyInvitations.sendCode(familyInviteToAnswer, { ip: "10.9.9.8" });
  const familyAnswerCode = await codeSentTo("+919830000305");
  // The creator joins the institute's team the way a creator does: the owner's link, accepted.
  const inviteTo = async (email: string) => {
    const res = await postJson(t, "/api/team/invitations", { email }, { headers: bearer(business.access_token) });
    if (res.status !== 201) throw new Error(`invitation failed: ${res.status} ${await res.text()}`);
    return (await res.json()) as { invitation: { _id: string }; link: string };
  };
  const creatorLink = (await inviteTo(creator.email)).link;
  const creatorToken = creatorLink.slice(creatorLink.lastIndexOf("/") + 1);
  const joined = await postJson(
    t,
    "/api/team/accept",
    { token: creatorToken },
    { headers: bearer(creator.access_token) },
  );
  if (joined.status !== 200) throw new Error(`accepting failed: ${joined.status} ${await joined.text()}`);
  const pendingLink = (await inviteTo("pending.creator@example.com")).link;
  const invitationToRevoke = (await inviteTo("revoked.creator@example.com")).invitation._id;
  const memberToRemove = (await inviteTo("removed.creator@example.com")).invitation._id;
  const adminEmail = uniqueEmail("admin");
  const admin = await adminToken(t, adminEmail);
  const ADMIN_PASSWORD = "admin-password-long-enough";
  const passwords: Record<Exclude<Who, "anonymous">, string> = {
    student: student.password,
    creator: creator.password,
    business: business.password,
    admin: ADMIN_PASSWORD,
  };
  const emails = { student: student.email, creator: creator.email, business: business.email, admin: adminEmail };
  let logins = 0;
  const loginOn = async (who: Exclude<Who, "anonymous">, host: string) => {
    // Admins cannot sign in on an institute's domain: there the admin holds the platform's token,
    // which is not valid on that host.
    if (who === "admin" && host !== PLATFORM) return loginOn("admin", PLATFORM);
    logins += 1;
    // From an address of its own each time: the suites sign in often, and only the answers are tested.
    const res = await postJson(
      t,
      "/api/auth/login",
      { email: emails[who], password: passwords[who] },
      { host, headers: { "x-forwarded-for": `10.99.${(logins >> 8) & 255}.${logins & 255}` } },
    );
    if (res.status !== 200) throw new Error(`login of ${who} on ${host} failed: ${res.status} ${await res.text()}`);
    return bearer((await res.json()).access_token);
  };
  // The owner works on the samples' institute whatever else a request makes them (an institute
  // made by a hostile body may sort first, and the first by name is the desk otherwise).
  const atSamples = (headers: Record<string, string>) => ({
    ...headers,
    cookie: `${CHOSEN_MEMBERSHIP_COOKIE}=${membershipKey({ centerId: center.id, role: "owner" })}`,
  });
  const signIn = async (host: string): Promise<Record<Who, Record<string, string>>> => ({
    anonymous: {},
    student: await loginOn("student", host),
    creator: await loginOn("creator", host),
    business: atSamples(await loginOn("business", host)),
    admin: await loginOn("admin", host),
  });
  const identities: Record<string, Record<Who, Record<string, string>>> = {
    [PLATFORM]: {
      anonymous: {},
      student: bearer(student.access_token),
      creator: bearer(creator.access_token),
      business: atSamples(bearer(business.access_token)),
      admin: bearer(admin),
    },
    [INSTITUTE]: await signIn(INSTITUTE),
  };

  const plans = await t.services.plans.listAll();
  const planToDelete = await t.services.plans.create({ name: `Sample plan ${Date.now()}`, pricing: PRICES });
  const liveFields = {
    title: "Sample live class",
    type: "live",
    liveLink: "https://meet.example.com/sample",
    price: "0",
    businessId: center.id,
  };
  const contentId = await publish(t, creator.access_token, liveFields);
  const contentToDelete = await publish(t, creator.access_token, { ...liveFields, title: "Sample to delete" });
  // A batch opens the institute's class to its students (one to add, one already there to remove).
  const batchContent = await publish(t, creator.access_token, { ...liveFields, title: "Sample batch class" });
  await t.services.batches.addContent(batchDesk, center.id, sampleBatch._id, { contentId: batchContent });
  const pdfId = await publish(
    t,
    creator.access_token,
    { title: "Sample notes", type: "pdf", price: "0" },
    FIXTURES.pdf(),
    "notes.pdf",
  );
  const pdf = await t.request(`/api/content/${pdfId}`, { headers: bearer(creator.access_token) });
  const fileUrl = new URL((await pdf.json()).content.fileUrl as string, "http://localhost");
  const [, , , fileId, fileName] = fileUrl.pathname.split("/");
  const refreshing = await registerUser(t, "student");

  // Orders placed through the sandbox gateway (the app must listen: createListeningTestApp), so that
  // the verify calls have real orders to complete.
  const planOrder = await postJson(
    t,
    "/api/payment/create-order",
    {
      institute: "Verified Academy",
      domain: "verified-academy.com",
      owner: "Owner",
      email: business.email,
      plan: plans[0].name,
    },
    { headers: bearer(business.access_token) },
  );
  if (planOrder.status !== 200) throw new Error(`create-order failed: ${planOrder.status} ${await planOrder.text()}`);
  const planOrderId = ((await planOrder.json()) as { order: { id: string } }).order.id;
  // A plan paid through the sandbox's Checkout, so that the sandbox can refund it.
  const refundable = await postJson(
    t,
    "/api/payment/create-order",
    {
      institute: "Refundable Academy",
      domain: "refundable-academy.com",
      owner: "Owner",
      email: business.email,
      plan: plans[0].name,
    },
    { headers: bearer(business.access_token) },
  );
  const refundableOrder = (await refundable.json()) as { order: { id: string }; purchase: { _id: string } };
  await payThroughSandbox(t, refundableOrder.order.id);
  const [planInvoice] = await t.database.db
    .select({ id: invoices.id })
    .from(invoices)
    .where(eq(invoices.orderId, refundableOrder.purchase._id));
  if (!planInvoice) throw new Error("the paid plan was issued no invoice");
  const paidId = await publish(t, creator.access_token, { ...liveFields, title: "Sample paid class", price: "499" });
  const contentOrder = await postJson(
    t,
    "/api/student/enroll",
    { contentId: paidId },
    { headers: identities[INSTITUTE].student, host: INSTITUTE },
  );
  if (contentOrder.status !== 200)
    throw new Error(`enroll failed: ${contentOrder.status} ${await contentOrder.text()}`);
  const contentOrderId = (await contentOrder.json()).order.id as string;
  // A student's payment to the institute, paid, for the institute's refund of it.
  const refundableClass = await publish(t, creator.access_token, {
    ...liveFields,
    title: "Sample refunded class",
    price: "299",
  });
  const studentOrder = await postJson(
    t,
    "/api/student/enroll",
    { contentId: refundableClass },
    { headers: identities[INSTITUTE].student, host: INSTITUTE },
  );
  const studentGatewayOrder = ((await studentOrder.json()) as { order: { id: string } }).order.id;
  await payThroughSandbox(t, studentGatewayOrder);
  const [{ id: studentPaymentId }] = await t.database.db
    .select({ id: orders.id })
    .from(orders)
    .where(eq(orders.gatewayOrderId, studentGatewayOrder));
  const checkout = (orderId: string, secret?: string) => ({
    razorpay_order_id: orderId,
    razorpay_payment_id: `pay_${orderId.slice(-8)}`,
    razorpay_signature: signCheckout(orderId, `pay_${orderId.slice(-8)}`, secret),
  });
  // The institute sells on its own sandbox account (decision 0040); a second one of the owner's connects one here.
  const instituteAccount = merchantOf(center.id);
  const [{ id: instituteAccountId }] = await t.database.db
    .select({ id: merchantAccounts.id })
    .from(merchantAccounts)
    .where(eq(merchantAccounts.centerId, center.id));
  const unpaid = await createCenter(
    t,
    business.user._id,
    { slug: "samples-unpaid", customDomain: "samples-unpaid.test" },
    { merchant: false },
  );
  const toConnect = newSandboxAccount();
  // 'Connect with Razorpay' for another of the owner's institutes: the code and state Razorpay (the
  // sandbox) hands back, for the owner's platform session the callback's sample is sent with.
  const oauthCenter = await createCenter(
    t,
    business.user._id,
    { slug: "samples-oauth", customDomain: "samples-oauth.test" },
    { merchant: false },
  );
  const started = await postJson(
    t,
    "/api/institute/payment-account/razorpay",
    { centerId: oauthCenter.id },
    { headers: identities[PLATFORM].business },
  );
  const authorize = new URL(((await started.json()) as { url: string }).url);
  const allowed = await t.request("/_sandbox/razorpay/oauth/authorize", {
    method: "POST",
    body: new URLSearchParams({ ...Object.fromEntries(authorize.searchParams), decision: "allow" }),
  });
  const oauthBack = new URL(allowed.headers.get("location")!);
  const accountDelivery = webhook(
    "payment.captured",
    { orderId: "order_unknown_sample2", paymentId: "pay_unknown_sample2", amount: 100000 },
    { secret: instituteAccount.webhookSecret },
  );
  const delivery = webhook("payment.captured", {
    orderId: "order_unknown_sample",
    paymentId: "pay_unknown_sample",
    amount: 100000,
  });

  const enquiry = await postJson(
    t,
    "/api/enquiries",
    { name: "Asha", phone: "9830012345", email: "asha@example.com" },
    { host: INSTITUTE },
  );
  if (enquiry.status !== 201) throw new Error(`enquiry failed: ${enquiry.status} ${await enquiry.text()}`);
  const enquiryId = (await enquiry.json()).enquiry._id as string;

  const tests = await mockTestSamples(t, creator.access_token, student.access_token, center.id);
  // Scholarships (issue 42 §2): the student's finished sample test, ranked first.
  const [finished] = await t.database.db
    .select({ id: contents.id })
    .from(contents)
    .where(and(eq(contents.title, "Sample finished test"), eq(contents.centerId, center.id)));
  await t.database.db.update(attempts).set({ rank: 1, takers: 1 }).where(eq(attempts.testId, finished.id));
  // Its own account: a reset signs every session of the account out.
  const [failedMessage] = await t.database.db
    .insert(messages)
    .values({
      template: "welcome",
      channel: "email",
      recipient: "bounced@example.com",
      text: "Hello",
      status: "failed",
    })
    .returning({ id: messages.id });
  const phones = await phoneSamples(t);
  const emailMover = await registerUser(t, "creator", { password: "email-mover-secret-1" });
  const emailToken = await emailChangeToken(t);
  const passwordChanger = await registerUser(t, "creator", { password: "changer-only-secret-1" });
  const resetToken = await passwordResetToken(t, (await registerUser(t, "creator")).email);

  const samples: Record<string, Sample> = {
    ...tests,
    "POST /auth/register": {
      json: {
        name: "Sample Person",
        email: "sample.person@example.com",
        password: "correct-horse-battery",
        role: "student",
      },
      who: ["anonymous"],
    },
    "POST /auth/login": { json: { email: student.email, password: student.password }, who: ["anonymous"] },
    "POST /auth/refresh": { json: { refresh_token: refreshing.refresh_token }, who: ["anonymous"] },
    "GET /messages": { query: { status: "failed" }, who: ["admin"] },
    "GET /messages/webhooks/whatsapp": {
      query: {
        "hub.mode": "subscribe",
        "hub.verify_token": SAMPLE_ENV.WHATSAPP_VERIFY_TOKEN,
        "hub.challenge": "1158201444",
      },
      who: ["anonymous"],
    },
    "POST /messages/webhooks/whatsapp": {
      raw: { body: whatsappDelivery, type: "application/json" },
      headers: {
        "x-hub-signature-256": `sha256=${webhookSignature(SAMPLE_ENV.WHATSAPP_APP_SECRET, whatsappDelivery)}`,
      },
      who: ["anonymous"],
    },
    "POST /messages/webhooks/msg91": {
      query: { token: SAMPLE_ENV.MSG91_WEBHOOK_TOKEN },
      json: { requestId: "3461706b6a4d313330", status: "1", desc: "DELIVERED", number: "919830012345" },
      who: ["anonymous"],
    },
    "POST /messages/{id}/retry": { params: { id: failedMessage.id }, who: ["admin"] },
    "PUT /auth/password": {
      json: { currentPassword: passwordChanger.password, password: "a-brand-new-secret-42" },
      who: ["anonymous"],
      headers: bearer(passwordChanger.access_token),
    },
    "POST /auth/phone": { json: { phone: "+91 98000 00010" } },
    "POST /auth/phone/verify": {
      json: { code: phones.pendingCode },
      headers: bearer(phones.adderToken),
      who: ["anonymous"],
    },
    "POST /auth/otp": { json: { phone: "+91 98000 00011" }, who: ["anonymous"] },
    "POST /auth/otp/verify": { json: { phone: phones.verifiedPhone, code: phones.signInCode }, who: ["anonymous"] },
    "POST /auth/email": {
      json: { email: "moved.sample@example.com", currentPassword: emailMover.password },
      headers: bearer(emailMover.access_token),
      who: ["anonymous"],
    },
    "POST /auth/email/confirm": { json: { token: emailToken }, who: ["anonymous"] },
    "POST /auth/forgot": { json: { email: student.email }, who: ["anonymous"] },
    "POST /auth/reset": { json: { token: resetToken, password: "correct-horse-battery" }, who: ["anonymous"] },
    "POST /auth/logout": {},
    "GET /auth/profile": {},
    "GET /auth/message-language": {},
    "PUT /auth/message-language": { json: { language: "hi" } },
    "PUT /auth/avatar": { multipart: { avatar: new File([PNG_BYTES], "me.png", { type: "image/png" }) } },
    "POST /book": {
      json: {
        fullName: "Sample Person",
        email: "seminar@example.com",
        phoneNumber: "+91 98300 12345",
        city: "Kolkata",
        country: "India",
        // A week on: still bookable when India's midnight passes during a long run.
        date: addDays(firstBookableDate(), 7),
        time: TIME_SLOTS[0],
      },
    },
    "GET /bookings": { query: { limit: "10", offset: "0" } },
    "GET /bookings/export": { query: { date: firstBookableDate() } },
    "POST /enquiries": {
      host: INSTITUTE,
      json: {
        name: "Ravi",
        phone: "9830012346",
        email: "ravi@example.com",
        program: "JEE",
        message: "Please call me",
        kind: "Enquire",
      },
    },
    "GET /enquiries": { query: { status: "new", page: "1" } },
    "PATCH /enquiries/{id}": { params: { id: enquiryId }, json: { status: "contacted" } },
    "POST /payment/create-order": {
      json: {
        institute: "Sample Academy",
        domain: "sample-academy.com",
        owner: "Sample Owner",
        email: business.email,
        phone: "9830012347",
        plan: plans[0].name,
        billing: "monthly",
      },
    },
    "GET /payment/config": {},
    "POST /trial": {
      json: {
        institute: "Trial Sample Academy",
        domain: "trial-sample.com",
        owner: "Trial Owner",
        email: newOwner.email,
        phone: "",
        plan: plans[0].name,
        billing: "monthly",
      },
      who: ["business"],
      session: bearer(newOwner.access_token),
    },
    "GET /settings": {},
    "PUT /settings": { json: { supportEmail: "help@example.com", dnsTargetIp: "203.0.113.10" } },
    "POST /purchases/{id}/refund": { params: { id: refundableOrder.purchase._id } },
    "POST /payment/verify": { json: checkout(planOrderId) },
    "POST /payment/webhook": { raw: { body: delivery.body, type: "application/json" }, headers: delivery.headers },
    "POST /payment/webhook/{accountId}": {
      params: { accountId: instituteAccountId },
      raw: { body: accountDelivery.body, type: "application/json" },
      headers: accountDelivery.headers,
    },
    "GET /payment/purchases/my": {},
    "GET /payment/domain-availability": { query: { domain: "free-sample.com" } },
    "GET /pricing": {},
    "GET /pricing/admin": {},
    "POST /pricing": {
      json: {
        name: "Sample plan",
        description: "For samples",
        pricing: PRICES,
        features: [{ name: "Home Page", description: "A page" }],
      },
    },
    "PUT /pricing/{id}": { params: { id: plans[0].id }, json: { description: "Edited in a sample" } },
    "DELETE /pricing/{id}": { params: { id: planToDelete.id } },
    "POST /templates/apply": { json: { templateId: "t2", centerId: center.id } },
    "GET /centers": { query: { q: "Institute", limit: "10", offset: "0" } },
    "POST /centers": {
      json: {
        name: "Sample Sub Center",
        domain: "sample-sub.com",
        website: "https://sample-sub.com",
        superAdminPath: "/admin",
      },
    },
    "PUT /centers/{id}": {
      params: { id: center.id },
      json: {
        name: "Samples Institute",
        domain: INSTITUTE,
        website: "https://samples-inst.test",
        superAdminPath: "/admin",
      },
    },
    "POST /centers/{id}/extend": { params: { id: center.id }, json: { days: 30 } },
    "PUT /centers/{id}/status": { params: { id: center.id }, json: { status: "active" } },
    "GET /centers/lookup": { query: { email: business.email } },
    "POST /centers/template": { json: { email: business.email, templateId: "t3" } },
    "POST /content": { multipart: { ...liveFields, title: "Sample upload", description: "Uploaded in a sample" } },
    "GET /content/my": { query: { q: "Sample", sort: "title", dir: "asc", page: "1", limit: "10" } },
    "GET /content/{id}": { params: { id: contentId } },
    "PUT /content/{id}": {
      params: { id: contentId },
      json: {
        title: "Sample live class",
        description: "Edited",
        price: 0,
        liveLink: "https://meet.example.com/sample",
      },
    },
    "DELETE /content/{id}": { params: { id: contentToDelete } },
    "PUT /content/{id}/assign": { params: { id: contentId }, json: { businessId: center.id } },
    "GET /content/{id}/file-url": { params: { id: pdfId }, query: { ttl: "60" } },
    "GET /contents": { host: INSTITUTE },
    "GET /businesses": {},
    "GET /sales/my": { query: { format: "csv" } },
    "GET /invoices/my": {},
    "GET /invoices/export": { query: { from: "2026-04-01", to: "2027-03-31" }, who: ["admin", "business"] },
    "GET /invoices/{id}/pdf": { params: { id: planInvoice.id }, who: ["business", "admin"] },
    "GET /sales/content/{id}": { params: { id: contentId } },
    "GET /files/{id}/{name}": {
      params: { id: fileId, name: fileName },
      query: Object.fromEntries(fileUrl.searchParams),
    },
    "POST /student/enroll": { host: INSTITUTE, json: { contentId } },
    "POST /student/enroll/verify": { host: INSTITUTE, json: checkout(contentOrderId, instituteAccount.keySecret) },
    "GET /student/my-courses": {},
    "GET /student/batch-contents": {},
    "GET /admin/role-stats": {},
    "GET /admin/recent-purchases": { query: { limit: "5" } },
    "GET /admin/recent-template-selections": { query: { limit: "5" } },
    "GET /admin/notifications": { query: { limit: "5" } },
    "POST /admin/notifications/read": { json: { purchasesSeenAt: new Date().toISOString(), selectionsSeenAt: null } },
    "POST /admin/notifications/clear": {},
    "GET /domains/ask": { query: { domain: INSTITUTE } },
    "GET /domains/claim": { query: { centerId: center.id } },
    "POST /domains/claim": { json: { domain: "samples-next.com", centerId: center.id } },
    // The institute asks for a domain before it checks it (the claim below).
    "POST /domains/verify": { json: { centerId: center.id } },
    "GET /institute/message-language": { query: { centerId: center.id } },
    "PUT /institute/message-language": { json: { language: "en", centerId: center.id } },
    "GET /institute/payment-account": { query: { centerId: center.id } },
    "PUT /institute/payment-account": {
      json: {
        centerId: unpaid.id,
        keyId: toConnect.keyId,
        keySecret: toConnect.keySecret,
        webhookSecret: toConnect.webhookSecret,
      },
    },
    "DELETE /institute/payment-account": { query: { centerId: unpaid.id } },
    "POST /institute/payment-account/razorpay": { json: { centerId: oauthCenter.id } },
    "GET /institute/payment-account/razorpay/callback": {
      query: { code: oauthBack.searchParams.get("code")!, state: oauthBack.searchParams.get("state")! },
      headers: { accept: "application/json" },
    },
    "GET /openapi.json": {},
    "GET /team": { query: { centerId: center.id } },
    "GET /me/memberships": {},
    "GET /batches": { query: { centerId: center.id } },
    "POST /batches": { json: { centerId: center.id, name: "Sample new batch", startsOn: "2027-06-01", capacity: 40 } },
    "GET /batches/{id}": { params: { id: sampleBatch._id } },
    "POST /batches/{id}/students": { params: { id: sampleBatch._id }, json: { studentIds: [student.user._id] } },
    "POST /batches/{id}/leads": { params: { id: sampleBatch._id }, json: { enquiryId: batchLead.id } },
    "POST /batches/{id}/students/{studentId}/move": {
      params: { id: sampleBatch._id, studentId: batchMover.user._id },
      json: { toBatchId: otherBatch._id },
    },
    "DELETE /batches/{id}/students/{studentId}": { params: { id: sampleBatch._id, studentId: batchLeaver.user._id } },
    "GET /batches/{id}/timetable": { params: { id: sampleBatch._id } },
    "POST /batches/{id}/timetable": {
      params: { id: sampleBatch._id },
      json: { slots: [{ weekday: 1, start: "09:00", end: "10:00", subject: "Physics", room: "Room 1" }] },
    },
    "POST /batches/{id}/sessions": {
      params: { id: otherBatch._id },
      json: { on: "2027-04-06", start: "15:00", end: "16:00", subject: "Extra class" },
    },
    "GET /sessions": { query: { batchId: sampleBatch._id, from: "2027-04-05", to: "2027-04-11" } },
    "PATCH /sessions/{id}": { params: { id: sampleClass._id }, json: { action: "cancel", note: "Sample" } },
    "GET /holidays": { query: { centerId: center.id } },
    "POST /holidays": { json: { centerId: center.id, on: "2027-05-01", name: "Sample holiday" } },
    "DELETE /holidays/{id}": { params: { id: sampleHoliday._id } },
    "GET /calendar/link": {},
    "GET /calendar/{token}": { params: { token: calendarFile } },
    "GET /batches/people": { query: { centerId: center.id } },
    "PUT /batches/{id}/teachers": { params: { id: sampleBatch._id }, json: { teacherIds: [business.user._id] } },
    "PUT /batches/{id}/fee-plan": { params: { id: otherBatch._id }, json: { feePlanId: feePlan._id } },
    "POST /batches/{id}/contents": { params: { id: sampleBatch._id }, json: { contentId } },
    "DELETE /batches/{id}/contents/{contentId}": { params: { id: sampleBatch._id, contentId: batchContent } },
    "POST /fee-plans": {
      json: {
        centerId: center.id,
        name: "Another fee plan",
        heads: [{ name: "Tuition", amount: 5_000 }],
        instalments: [{ label: "Lump sum", amount: 5_000, dueOn: "2027-04-01" }],
      },
    },
    "GET /fee-plans": { query: { centerId: center.id } },
    "POST /fee-accounts": { json: { centerId: center.id, studentId: batchMover.user._id, feePlanId: feePlan._id } },
    "POST /fee-accounts/bulk": {
      json: { centerId: center.id, feePlanId: refundPlan._id, csv: `name,email,phone\nSample,${batchMover.email},\n` },
    },
    "GET /fee-accounts": { query: { centerId: center.id } },
    "GET /fee-accounts/{id}": { params: { id: feeAccount._id } },
    "POST /fee-accounts/{id}/payments": { params: { id: feeAccount._id }, json: { amount: 100, mode: "cash" } },
    "GET /fee-receipts/{id}": { params: { id: feeReceipt._id } },
    "POST /fee-receipts/{id}/reverse": { params: { id: feeReceipt._id }, json: { reason: "Sample reversal" } },
    "GET /fees/collections": { query: { centerId: center.id } },
    "GET /fees/defaulters": { query: { centerId: center.id, overdueDays: "5" } },
    "POST /fees/defaulters/{id}/remind": { params: { id: overdueAccount._id } },
    "GET /fees/outstanding": { query: { centerId: center.id, by: "student" } },
    "POST /fee-accounts/{id}/cheques": {
      params: { id: feeAccount._id },
      json: { kind: "cheque", number: "004513", bank: "Sample Bank", chequeDate: inAMonth, amount: 10 },
    },
    "GET /fee-cheques": { query: { centerId: center.id, status: "held" } },
    "POST /fee-cheques/{id}/status": { params: { id: feeCheque._id }, json: { status: "returned", note: "Sample" } },
    "GET /fee-receipts/{id}/pdf": { params: { id: feeReceipt._id }, query: { format: "thermal" } },
    "GET /fee-accounts/{id}/refund-quote": {
      params: { id: refundAccount._id },
      query: { leftOn: "2026-05-01", ...refundCourse },
    },
    "POST /fee-accounts/{id}/refunds": {
      params: { id: refundAccount._id },
      json: { leftOn: "2026-05-01", ...refundCourse, reason: "Sample: left the course", mode: "cash" },
    },
    "GET /fee-refunds/{id}/pdf": { params: { id: sampleRefund._id }, query: { format: "a4" } },
    "POST /fees/scholarships": {
      json: {
        centerId: center.id,
        testId: finished.id,
        feePlanId: feePlan._id,
        slabs: [{ from: 1, to: 10, percent: 10 }],
      },
    },
    "GET /fee-settings": { query: { centerId: center.id } },
    "PUT /fee-settings": {
      json: {
        centerId: center.id,
        remindDaysBefore: 3,
        remindOnDay: true,
        remindDaysAfter: 3,
        defaulterAfterDays: 15,
        defaulterPolicy: "New lectures are locked after 15 days overdue.",
        bounceFee: 500,
        allowPartialOnline: false,
      },
    },
    "POST /fee-dues/{id}/pay": { params: { id: feeAccount.dues[0]._id }, json: {}, who: ["student"] },
    "POST /fee-accounts/{id}/mandate": { params: { id: monthlyAccounts[0]._id }, json: {}, who: ["student"] },
    "POST /fee-mandates/{id}/confirm": {
      params: { id: authorised.mandate._id },
      json: checkoutResult,
      who: ["student"],
    },
    "POST /fee-mandates/{id}/cancel": { params: { id: toCancel.mandate._id }, json: {} },
    "POST /fee-dues/{id}/link": { params: { id: feeAccount.dues[0]._id }, json: {} },
    "POST /students/{id}/parents": {
      params: { id: student.user._id },
      json: { centerId: center.id, name: "Sample Father", relation: "father", phone: "+919830000304" },
      who: ["business"],
    },
    "GET /students/{id}/parents": {
      params: { id: student.user._id },
      query: { centerId: center.id },
      who: ["business"],
    },
    "DELETE /parents/{id}": {
      params: { id: removeLink.guardian._id },
      query: { centerId: center.id },
      who: ["business"],
    },
    "GET /family/invitations/{token}": { host: INSTITUTE, params: { token: openFamilyInvite } },
    "POST /family/invitations/{token}/code": { host: INSTITUTE, params: { token: openFamilyInvite } },
    "POST /family/invitations/{token}/answer": {
      host: INSTITUTE,
      params: { token: familyInviteToAnswer },
      json: {
        answer: "refused",
        noticeVersion: CONSENT_NOTICE_VERSION,
        code: familyAnswerCode,
        name: "Sample Guardian",
        email: "sample.guardian@example.com",
      },
    },
    "GET /parent/children": { host: INSTITUTE, who: ["student"], session: bearer(parent.access_token) },
    "GET /parent/children/{id}/results": {
      host: INSTITUTE,
      params: { id: readLink.guardian._id },
      who: ["student"],
      session: bearer(parent.access_token),
    },
    "GET /parent/children/{id}/consents": {
      host: INSTITUTE,
      params: { id: readLink.guardian._id },
      who: ["student"],
      session: bearer(parent.access_token),
    },
    "GET /parent/children/{id}/data": {
      host: INSTITUTE,
      params: { id: readLink.guardian._id },
      who: ["student"],
      session: bearer(parent.access_token),
    },
    "POST /parent/children/{id}/withdraw": {
      host: INSTITUTE,
      params: { id: withdrawLink.guardian._id },
      who: ["student"],
      session: bearer(parent.access_token),
    },
    "GET /attendance": { query: { centerId: center.id, month: "2027-04" } },
    "GET /attendance/teachers": { query: { centerId: center.id, month: "2027-04" } },
    "GET /attendance/flagged": { query: { centerId: center.id } },
    "GET /attendance/policy": { query: { centerId: center.id } },
    "PUT /attendance/policy": {
      json: {
        centerId: center.id,
        lateAfterMinutes: 10,
        onlineMinimumMinutes: 45,
        lowAttendancePercent: 75,
        absenceAlerts: true,
      },
    },
    "GET /sessions/{id}/attendance": { params: { id: classSession }, who: ["business"] },
    "PUT /sessions/{id}/attendance": {
      params: { id: classSession },
      json: { seq: Date.now(), marks: [{ studentId: student.user._id, status: "present" }] },
      who: ["business"],
    },
    "POST /sessions/{id}/attendance/close": { params: { id: closingSession }, who: ["business"] },
    "GET /sessions/{id}/attendance/history": { params: { id: classSession }, who: ["business"] },
    "POST /sessions/{id}/attendance/{studentId}/correction": {
      params: { id: closingSession, studentId: student.user._id },
      json: { status: "excused", reason: "A note from home" },
      who: ["business"],
    },
    "GET /sessions/{id}/qr": { params: { id: classSession }, who: ["business"] },
    "POST /sessions/{id}/online/join": { params: { id: onlineSession }, who: ["student"] },
    "POST /sessions/{id}/online/beat": { params: { id: onlineSession }, who: ["student"] },
    "POST /sessions/{id}/online/leave": { params: { id: onlineSession }, who: ["student"] },
    "POST /attendance/qr": { json: { code: qrCode }, who: ["student"] },
    "GET /centers/{id}/members": { params: { id: center.id }, query: { role: "creator" } },
    "POST /centers/{id}/members": {
      params: { id: center.id },
      json: { email: "sample.teacher@example.com", role: "teacher" },
    },
    "DELETE /centers/{id}/members/{memberId}": { params: { id: center.id, memberId: memberToRemove } },
    "GET /centers/{id}/payments": { params: { id: center.id }, query: { page: "1" } },
    "POST /centers/{id}/payments/{orderId}/refund": { params: { id: center.id, orderId: studentPaymentId } },
    "POST /team/invitations": { query: { centerId: center.id }, json: { email: "sample.creator@example.com" } },
    "DELETE /team/{id}": { params: { id: invitationToRevoke } },
    "GET /team/invitations/{token}": { params: { token: pendingLink.slice(pendingLink.lastIndexOf("/") + 1) } },
    "POST /team/accept": { json: { token: creatorToken }, who: ["creator"] },
    "GET /site-contents": { query: { centerId: center.id } },
    "PUT /site-contents/{id}": { params: { id: contentId }, json: { hidden: false } },
  };

  const operations = operationsOf(await (await t.request("/api/openapi.json")).json());
  return {
    operations,
    identities,
    emails,
    samples,
    freshIdentity: async (who, host) => (who === "anonymous" ? {} : loginOn(who, host)),
    async renewIdentities() {
      for (const host of [PLATFORM, INSTITUTE]) identities[host] = await signIn(host);
    },
  };
}

/** Who `op` serves (the others are refused before it reads anything). */
export function servedRoles(op: Operation, sample: Sample): Who[] {
  if (sample.who) return sample.who;
  if (op.auth === "public") return [...ROLES];
  if (op.auth === "signed-in") return ROLES.filter((r) => r !== "anonymous");
  return [op.auth];
}

export interface Variation {
  params?: Record<string, string>;
  /** Replaces the sample's query; `rawQuery` is sent as it is (already encoded). */
  query?: Record<string, string>;
  rawQuery?: string;
  json?: unknown;
  multipart?: Record<string, string | Blob>;
  raw?: { body: string; type: string };
  host?: string;
  headers?: Record<string, string>;
  method?: string;
}

/** The request for `op` built from its sample with `variation` applied. */
export function sampleRequest(
  op: Operation,
  sample: Sample,
  variation: Variation = {},
): { path: string; init: RequestInit & { host: string } } {
  const params = { ...sample.params, ...variation.params };
  const path = `/api${op.path.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? "x")}`;
  const query = variation.rawQuery ?? new URLSearchParams(variation.query ?? sample.query ?? {}).toString();
  const headers = new Headers({ ...sample.headers, ...variation.headers });
  let body: BodyInit | undefined;
  const source: Pick<Sample, "json" | "multipart" | "raw"> =
    variation.json !== undefined
      ? { json: variation.json }
      : variation.multipart
        ? { multipart: variation.multipart }
        : variation.raw
          ? { raw: variation.raw }
          : sample;
  if (source.json !== undefined) {
    body = typeof source.json === "string" ? source.json : JSON.stringify(source.json);
    headers.set("content-type", "application/json");
  } else if (source.multipart) {
    const form = new FormData();
    for (const [k, v] of Object.entries(source.multipart)) form.set(k, v);
    body = form;
  } else if (source.raw) {
    body = source.raw.body;
    headers.set("content-type", source.raw.type);
  }
  return {
    path: `${path}${query ? `?${query}` : ""}`,
    init: {
      method: variation.method ?? op.method.toUpperCase(),
      host: variation.host ?? sample.host ?? PLATFORM,
      headers,
      body,
    },
  };
}

/** Every string inside `value`, by its path, with `replace` applied to one at a time. */
/** `value` with each object in it (itself included) put in a list in its place, one at a time, and where. */
export function* eachObjectListed(value: unknown, path: string[] = []): Generator<{ field: string; value: unknown }> {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      for (const inner of eachObjectListed(value[i], [...path, String(i)])) {
        const copy = [...value];
        copy[i] = inner.value;
        yield { field: inner.field, value: copy };
      }
    }
    return;
  }
  if (!value || typeof value !== "object" || value instanceof Blob) return;
  yield { field: path.join("."), value: [value] };
  for (const [key, item] of Object.entries(value)) {
    for (const inner of eachObjectListed(item, [...path, key]))
      yield { field: inner.field, value: { ...value, [key]: inner.value } };
  }
}

export function* eachStringReplaced(
  value: unknown,
  replace: (s: string) => string,
  path: string[] = [],
): Generator<{ field: string; value: unknown }> {
  if (typeof value === "string") {
    yield { field: path.join("."), value: replace(value) };
    return;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      for (const inner of eachStringReplaced(value[i], replace, [...path, String(i)])) {
        const copy = [...value];
        copy[i] = inner.value;
        yield { field: inner.field, value: copy };
      }
    }
    return;
  }
  if (value && typeof value === "object" && !(value instanceof Blob)) {
    for (const [key, item] of Object.entries(value)) {
      for (const inner of eachStringReplaced(item, replace, [...path, key]))
        yield { field: inner.field, value: { ...value, [key]: inner.value } };
    }
  }
}

/** A question bank, tests in each state and sittings for every operation of the tests API. */
/** The newest one-time code sent to `phone`, as the outbox holds it. */
async function codeSentTo(t: TestApp, phone: string): Promise<string> {
  const [row] = await t.database.db
    .select({ text: messages.text })
    .from(messages)
    .where(eq(messages.recipient, phone))
    .orderBy(desc(messages.createdAt))
    .limit(1);
  const code = /code is (\d{6})/.exec(row?.text ?? "")?.[1];
  if (!code) throw new Error(`no code was sent to ${phone}`);
  return code;
}

/** A number being added (its code), and a verified number with a sign-in code waiting. */
async function phoneSamples(t: TestApp) {
  const send = async (path: string, body: unknown, token?: string) => {
    const res = await postJson(t, path, body, token ? { headers: bearer(token) } : {});
    if (res.status !== 200) throw new Error(`${path} failed: ${res.status} ${await res.text()}`);
  };
  const adder = await registerUser(t, "student");
  await send("/api/auth/phone", { phone: "+91 98000 00012" }, adder.access_token);
  const owner = await registerUser(t, "student");
  await send("/api/auth/phone", { phone: "+91 98000 00013" }, owner.access_token);
  await send("/api/auth/phone/verify", { code: await codeSentTo(t, "+919800000013") }, owner.access_token);
  await send("/api/auth/otp", { phone: "+91 98000 00013" });
  // The sign-in code is sent after the answer.
  await t.services.afterAnswer.settled();
  return {
    adderToken: adder.access_token,
    pendingCode: await codeSentTo(t, "+919800000012"),
    verifiedPhone: "+91 98000 00013",
    signInCode: await codeSentTo(t, "+919800000013"),
  };
}

/** A pending e-mail change's token, asked for through the API and read from the link it sent. */
async function emailChangeToken(t: TestApp): Promise<string> {
  const account = await registerUser(t, "creator", { password: "email-changer-secret-1" });
  const asked = await postJson(
    t,
    "/api/auth/email",
    { email: "changed.sample@example.com", currentPassword: "email-changer-secret-1" },
    { headers: bearer(account.access_token) },
  );
  if (asked.status !== 200) throw new Error(`email change failed: ${asked.status}`);
  const [message] = await t.database.db
    .select({ text: messages.text })
    .from(messages)
    .where(eq(messages.recipient, "changed.sample@example.com"));
  const token = /confirm-email\?token=([a-z0-9]+)/.exec(message?.text ?? "")?.[1];
  if (!token) throw new Error("no confirmation link was written");
  return token;
}

/** A reset link's token, asked for through the API and read from the message it wrote. */
async function passwordResetToken(t: TestApp, email: string): Promise<string> {
  const asked = await postJson(t, "/api/auth/forgot", { email });
  if (asked.status !== 200) throw new Error(`forgot failed: ${asked.status}`);
  // The link is written after the answer (which tells nothing of the account).
  await t.services.afterAnswer.settled();
  const [message] = await t.database.db
    .select({ text: messages.text })
    .from(messages)
    .where(eq(messages.recipient, email))
    .orderBy(desc(messages.createdAt))
    .limit(1);
  const token = /reset-password\?token=([a-z0-9]+)/.exec(message?.text ?? "")?.[1];
  if (!token) throw new Error("no reset link was written");
  return token;
}

async function mockTestSamples(t: TestApp, creatorToken: string, studentToken: string, centerId: string) {
  const asCreator = { headers: bearer(creatorToken) };
  const asStudent = { headers: bearer(studentToken) };
  const ok = async (res: Response, what: string) => {
    if (res.status >= 300) throw new Error(`${what} failed: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const question = (text: string) => ({
    type: "single",
    text,
    options: ["$1$", "$2$"],
    answer: 0,
    solution: "Option A.",
    tags: { subject: "Physics", chapter: "Samples", difficulty: "easy" },
  });
  const write = async (text: string) =>
    (await ok(await postJson(t, "/api/questions", question(text), asCreator), "question")).questions[0]._id as string;
  const questionId = await write("Sample question");
  const questionToDelete = await write("Sample question to delete");
  const test = async (title: string, publish: boolean, extra: Record<string, unknown> = {}) => {
    const body = { title, businessId: centerId, sections: [{ name: "Physics", questions: [questionId] }], ...extra };
    const id = (await ok(await postJson(t, "/api/tests", body, asCreator), "test")).test._id as string;
    if (publish) await ok(await postJson(t, `/api/tests/${id}/publish`, {}, asCreator), "publish");
    return id;
  };
  const sit = async (testId: string) => {
    const { attempt } = await ok(await postJson(t, `/api/tests/${testId}/attempts`, {}, asStudent), "attempt");
    return { id: attempt._id as string, questionId: attempt.sections[0].questions[0]._id as string };
  };
  const save = (attemptId: string, paperQuestion: string) =>
    postJson(
      t,
      `/api/attempts/${attemptId}/responses/${paperQuestion}`,
      { answer: 0, seq: 1 },
      {
        ...asStudent,
        method: "PUT",
      },
    );
  const draft = await test("Sample draft", false);
  const toEdit = await test("Sample draft to edit", false);
  const toDiscard = await test("Sample draft to discard", false);
  const live = await test("Sample live test", true);
  const toClose = await test("Sample test to close", true);
  const manual = await test("Sample manual results", true, { resultRelease: "manual" });
  const toStart = await test("Sample test to start", true);
  const open = await sit(live);
  const toSubmit = await sit(await test("Sample test to submit", true));
  const done = await sit(await test("Sample finished test", true));
  await save(done.id, done.questionId);
  await ok(await postJson(t, `/api/attempts/${done.id}/submit`, {}, asStudent), "submit");
  const practice = await sit(await test("Sample practice", true, { practice: true }));
  await save(practice.id, practice.questionId);
  // An answer that arrived after its sitting's deadline, held for the institute's review.
  const lateTest = await test("Sample late answer", true);
  const lateSitting = await sit(lateTest);
  const [held] = await t.database.db
    .insert(lateAnswers)
    .values({
      attemptId: lateSitting.id,
      questionId: lateSitting.questionId,
      answer: "0",
      seq: 2,
      answeredAt: new Date(),
      decision: "held",
      reason: "in-time",
      graceMinutes: 10,
    })
    .returning({ id: lateAnswers.id });
  const team = ["creator", "business", "admin"] as Who[];
  const samples: Record<string, Sample> = {
    "GET /questions": {
      query: { bank: centerId, chapter: "Samples", limit: "10", offset: "0" },
      who: ["creator", "business"],
    },
    "POST /questions": { query: { bank: "own" }, json: question("Another sample"), who: ["creator", "business"] },
    "POST /questions/import": {
      multipart: {
        file: new File(["type,text,option_a,option_b,answer\nsingle,Imported,A,B,A\n"], "bank.csv", {
          type: "text/csv",
        }),
      },
      who: ["creator", "business"],
    },
    "GET /questions/export": { query: { format: "csv" }, who: ["creator", "business"] },
    "POST /question-images": {
      query: { bank: "own" },
      multipart: { file: new File([PNG_BYTES], "figure.png", { type: "image/png" }) },
      who: ["creator", "business"],
    },
    "POST /questions/copy": { json: { questions: [questionId], to: "own" }, who: ["creator"] },
    "GET /questions/{id}": { params: { id: questionId }, who: ["creator", "business"] },
    "PUT /questions/{id}": { params: { id: questionId }, json: question("Sample question"), who: ["creator"] },
    "DELETE /questions/{id}": { params: { id: questionToDelete }, who: ["creator"] },
    "GET /tests": {},
    "POST /tests": {
      json: { title: "Another sample test", pattern: "custom", sections: [{ name: "All", questions: [questionId] }] },
      who: ["creator", "business"],
    },
    "GET /tests/{id}": { params: { id: live }, who: team },
    "GET /tests/{id}/paper": { params: { id: live }, who: team },
    "PUT /tests/{id}": {
      params: { id: toEdit },
      json: {
        title: "Sample draft, edited",
        businessId: centerId,
        sections: [{ name: "All", questions: [questionId] }],
      },
      who: team,
    },
    "DELETE /tests/{id}": { params: { id: toDiscard }, who: team },
    "POST /tests/{id}/publish": { params: { id: draft }, who: team },
    "POST /tests/{id}/close": { params: { id: toClose }, who: team },
    "POST /tests/{id}/results/publish": { params: { id: manual }, who: team },
    "PUT /tests/{id}/questions/{questionId}/policy": {
      params: { id: live, questionId: open.questionId },
      json: { kind: "none" },
      who: team,
    },
    "GET /tests/{id}/analysis": { params: { id: live }, who: team },
    "PUT /tests/{id}/tie-breaks": { params: { id: live }, json: { tieBreaks: ["fewer-wrong"] }, who: team },
    "GET /tests/{id}/rank-list.csv": { params: { id: live }, who: team },
    "POST /tests/{id}/attempts": { params: { id: toStart } },
    "GET /attempts/{id}": { params: { id: open.id } },
    "PUT /attempts/{id}/responses/{questionId}": {
      params: { id: open.id, questionId: open.questionId },
      json: { answer: 1, markedForReview: false, seq: 5 },
    },
    "POST /attempts/{id}/events": {
      params: { id: open.id },
      json: { type: "visited", questionId: open.questionId, seq: 6 },
    },
    "POST /attempts/{id}/submit": { params: { id: toSubmit.id } },
    "GET /attempts/{id}/result": { params: { id: done.id } },
    "GET /attempts/{id}/questions/{questionId}/solution": {
      params: { id: practice.id, questionId: practice.questionId },
    },
    "POST /attempts/{id}/extra-time": { params: { id: open.id }, json: { minutes: 5 }, who: team },
    "GET /attempts/{id}/clock": { params: { id: open.id } },
    "PUT /tests/{id}/late-answers/{lateId}": {
      params: { id: lateTest, lateId: held.id },
      json: { decision: "count" },
      who: team,
    },
    "GET /businesses/{id}/late-answers": { params: { id: centerId }, who: team },
    "PUT /businesses/{id}/late-answers": {
      params: { id: centerId },
      json: { graceMinutes: 10, policy: "count" },
      who: team,
    },
    "GET /series": {},
    "POST /series": {
      json: { title: "Sample series", businessId: centerId, price: 199, tests: [live, toStart] },
      who: team,
    },
  };
  return samples;
}
