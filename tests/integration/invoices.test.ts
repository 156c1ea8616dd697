import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, ne, sql } from "drizzle-orm";
import pg from "pg";
import { centers, invoiceCounters, invoices, messages, orders } from "../../server/db/schema/index.ts";
import { seedDemo } from "../../server/seed/demo.ts";
import { HttpError } from "../../server/http/errors.ts";
import { financialYear, GST_TEXTS } from "#common/gst.ts";
import { INVOICE_TEXTS } from "#common/invoices.ts";
import { bearer, postJson } from "../helpers/http.ts";
import { centersNamed } from "../helpers/domains.ts";
import {
  adminToken,
  createListeningTestApp,
  payThroughSandbox,
  sendWebhook,
  signOrder,
  webhook,
  type ListeningTestApp,
} from "../helpers/payments.ts";
import { createCenter } from "../helpers/centers.ts";
import { joinTeam } from "../helpers/team.ts";
import { enrol, publish, register } from "../helpers/learning.ts";
import { pageTexts } from "../helpers/pdf.ts";
import { waitFor } from "../helpers/wait.ts";

/**
 * GST invoices (issue 30 §6): every completed payment is issued an invoice (or a bill of supply)
 * from its seller's gap-free series, refunds a credit note; buyers list and download them, sellers
 * export them. The tests in this file run in order: the series' numbers carry on from one to the next.
 */

let t: ListeningTestApp;
let admin: Record<string, string>;

const PLATFORM = {
  legalName: "Pathshala Learning Pvt Ltd",
  legalAddress: "12 Park Street, Kolkata 700016",
  gstin: "19AABCP1234C1ZX",
};
const SUNRISE = {
  legalName: "Sunrise Academy Pvt Ltd",
  address: "4 MG Road, Bengaluru 560001",
  state: "29",
  gstin: "29AAGCB7383J1Z4",
};

beforeAll(async () => {
  t = await createListeningTestApp({ TRUST_PROXY: "1" });
  await seedDemo(t.database.db);
  admin = bearer(await adminToken(t));
  await putSettings(PLATFORM);
});
afterAll(() => t.close());

const FY = financialYear(new Date()).slice(2);
const numbered = (prefix: "INV" | "BOS" | "CN", seq: number) => `${prefix}/${FY}/${String(seq).padStart(5, "0")}`;

async function putSettings(body: Record<string, string>) {
  const res = await postJson(t, "/api/settings", body, { method: "PUT", headers: admin });
  if (res.status !== 200) throw new Error(`settings: ${res.status} ${await res.text()}`);
}

let domains = 0;
const newDomain = () => `gst-${Date.now().toString(36)}-${++domains}.example.com`;
let payments = 0;
const paymentId = () => `pay_gst${Date.now().toString(36)}${++payments}`;

type Account = Awaited<ReturnType<typeof register>>;

/** The buyer's state on record, through the service (no API sets it yet). */
const setState = (who: Account, state: string) => t.services.invoices.setBuyerState(who.user._id, { state });

async function orderPlan(buyer: Account, domain = newDomain()) {
  const res = await postJson(
    t,
    "/api/payment/create-order",
    { institute: "Sen Classes", owner: buyer.user.name, email: buyer.email, plan: "1 Year Plan", domain },
    { headers: bearer(buyer.access_token) },
  );
  if (res.status !== 200) throw new Error(`create-order: ${res.status} ${await res.text()}`);
  const body = await res.json();
  return {
    domain,
    orderId: body.order.id as string,
    amount: body.order.amount as number,
    purchaseId: body.purchase._id as string,
  };
}

/** A plan bought and paid through the sandbox's Checkout (so the gateway can refund it). */
async function buyPlan(buyer: Account, domain?: string) {
  const order = await orderPlan(buyer, domain);
  const { paymentId: paid } = await payThroughSandbox(t, order.orderId);
  return { ...order, paymentId: paid };
}

const invoiceOf = async (source: { purchaseId: string } | { contentOrderId: string }) => {
  const orderId = "purchaseId" in source ? source.purchaseId : source.contentOrderId;
  const rows = await t.database.db
    .select()
    .from(invoices)
    .where(and(eq(invoices.orderId, orderId), ne(invoices.kind, "credit_note")));
  expect(rows).toHaveLength(1);
  return rows[0];
};

const messagesTo = (email: string, template: string) =>
  t.database.db
    .select()
    .from(messages)
    .where(and(eq(messages.recipient, email), eq(messages.template, template)));

const pdfOf = (id: string, headers: Record<string, string>, host?: string) =>
  t.request(`/api/invoices/${id}/pdf`, { headers, host });
const pdfText = async (id: string, headers: Record<string, string>, host?: string) => {
  const res = await pdfOf(id, headers, host);
  expect(res.status).toBe(200);
  return (await pageTexts(new Uint8Array(await res.arrayBuffer())))[0];
};
const myInvoices = async (who: Account, host?: string) => {
  const res = await t.request("/api/invoices/my", { headers: bearer(who.access_token), host });
  expect(res.status).toBe(200);
  return (await res.json()).invoices as Record<string, unknown>[];
};
const counter = async (series: string) =>
  (
    await t.database.db
      .select({ lastSeq: invoiceCounters.lastSeq })
      .from(invoiceCounters)
      .where(and(eq(invoiceCounters.series, series), eq(invoiceCounters.financialYear, financialYear(new Date()))))
  )[0]?.lastSeq ?? 0;

/** Runs DDL as the database's owner (the application's role may not create functions). */
async function asOwner(statements: string[]) {
  if (t.testDb.url) {
    const client = new pg.Client({ connectionString: t.testDb.url });
    await client.connect();
    try {
      for (const statement of statements) await client.query(statement);
    } finally {
      await client.end();
    }
  } else
    await t.database.asOwner(async () => {
      for (const statement of statements) await t.database.db.execute(sql.raw(statement));
    });
}

/** A service call's refusal: its status and message. */
async function refusal(work: Promise<unknown>) {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HttpError);
  return { status: (error as HttpError).status, message: (error as HttpError).message };
}

/** Accounts and documents later tests use. */
const shared: {
  wbBuyer?: Account;
  wbPlan?: Awaited<ReturnType<typeof buyPlan>>;
  wbInvoiceId?: string;
  mhInvoiceId?: string;
  sunriseOwner?: Account;
  sunriseId?: string;
  sunriseInvoiceId?: string;
  student?: Account;
  studentHost?: string;
} = {};

describe("a plan's invoice (the platform sells)", () => {
  it("within the platform's state: CGST + SGST, numbered INV/…/00001, named in the receipt it is attached to", async () => {
    const buyer = await register(t, "business", { name: "Ravi Sen" });
    expect(await setState(buyer, "19")).toBe("19");
    const plan = await buyPlan(buyer);
    const invoice = await invoiceOf({ purchaseId: plan.purchaseId });
    expect(invoice).toMatchObject({
      kind: "invoice",
      number: numbered("INV", 1),
      financialYear: financialYear(new Date()),
      seq: 1,
      sellerCenterId: null,
      sellerName: PLATFORM.legalName,
      sellerAddress: PLATFORM.legalAddress,
      sellerGstin: PLATFORM.gstin,
      sellerState: "19",
      buyerUserId: buyer.user._id,
      buyerName: "Sen Classes",
      buyerEmail: buyer.email,
      buyerGstin: null,
      buyerState: "19",
      placeOfSupply: "19",
      description: `1 Year Plan, billed monthly, for ${plan.domain} (30 days)`,
      sac: "999293",
      rate: 18,
      // ₹5,000 with tax: 5000 × 100/118 = ₹4,237.29 and ₹762.71 of tax, halved.
      taxable: 423_729,
      cgst: 38_135,
      sgst: 38_136,
      igst: 0,
      total: 500_000,
      currency: "INR",
      paymentId: plan.paymentId,
      orderId: plan.purchaseId,
      refundId: null,
      originalId: null,
    });

    const [receipt] = await messagesTo(buyer.email, "payment-receipt");
    expect(receipt.invoiceId).toBe(invoice.id);
    expect(receipt.text).toContain(`Tax Invoice ${numbered("INV", 1)} is attached; your billing history keeps it too.`);
    // The worker renders the PDF when it sends the e-mail.
    // Queued, then sending while its PDF is made: wait for where the worker leaves it.
    await waitFor(async () =>
      ["sent", "failed"].includes((await messagesTo(buyer.email, "payment-receipt"))[0].status),
    );
    expect((await messagesTo(buyer.email, "payment-receipt"))[0]).toMatchObject({ status: "sent", lastError: null });

    expect(await myInvoices(buyer)).toEqual([
      {
        id: invoice.id,
        kind: "invoice",
        number: numbered("INV", 1),
        issuedAt: invoice.issuedAt.toISOString(),
        description: invoice.description,
        sellerName: PLATFORM.legalName,
        total: 500_000,
        currency: "INR",
        orderId: plan.purchaseId,
        against: null,
        pdf: `/api/invoices/${invoice.id}/pdf`,
      },
    ]);
    Object.assign(shared, { wbBuyer: buyer, wbPlan: plan, wbInvoiceId: invoice.id });
  });

  it("to a buyer in another state (paid by webhook alone): IGST, and the next number, 00002", async () => {
    const buyer = await register(t, "business");
    await setState(buyer, "27");
    const order = await orderPlan(buyer);
    const pay = paymentId();
    const res = await sendWebhook(
      t,
      webhook("payment.captured", { orderId: order.orderId, paymentId: pay, amount: order.amount }),
    );
    expect(await res.json()).toMatchObject({ status: "processed", result: "completed" });
    const invoice = await invoiceOf({ purchaseId: order.purchaseId });
    expect(invoice).toMatchObject({
      kind: "invoice",
      number: numbered("INV", 2),
      seq: 2,
      sellerGstin: PLATFORM.gstin,
      sellerState: "19",
      buyerState: "27",
      placeOfSupply: "27",
      rate: 18,
      taxable: 423_729,
      cgst: 0,
      sgst: 0,
      igst: 76_271,
      total: 500_000,
      paymentId: pay,
    });
    // The webhook delivered again issues nothing more.
    await sendWebhook(t, webhook("payment.captured", { orderId: order.orderId, paymentId: pay, amount: order.amount }));
    await invoiceOf({ purchaseId: order.purchaseId });
    expect(await counter("platform:invoice")).toBe(2);
    shared.mhInvoiceId = invoice.id;
  });

  it("without a state on record, the place of supply is the seller's; a renewal by an institute with a GSTIN bills it", async () => {
    const buyer = await register(t, "business");
    const first = await buyPlan(buyer);
    expect(await invoiceOf({ purchaseId: first.purchaseId })).toMatchObject({
      number: numbered("INV", 3),
      buyerState: null,
      placeOfSupply: "19",
      cgst: 38_135,
      sgst: 38_136,
      igst: 0,
    });
    // The institute gives its business details; renewing on the same domain, it is the buyer.
    const [center] = await centersNamed(t, first.domain);
    await t.services.invoices.updateSellerProfile(center.id, {
      legalName: "Sen Classes LLP",
      address: "Andheri, Mumbai",
      gstin: "27AAPFU0939F1ZV",
    });
    const renewal = await buyPlan(buyer, first.domain);
    expect(await invoiceOf({ purchaseId: renewal.purchaseId })).toMatchObject({
      number: numbered("INV", 4),
      buyerName: "Sen Classes LLP",
      buyerGstin: "27AAPFU0939F1ZV",
      buyerState: "27",
      placeOfSupply: "27",
      cgst: 0,
      sgst: 0,
      igst: 76_271,
    });
  });

  it("a completion that fails takes no number: the next one issued has the very next", async () => {
    const buyer = await register(t, "business");
    const order = await orderPlan(buyer);
    const paid = await fetch(`${t.baseUrl}/_sandbox/razorpay/checkout/pay`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ key: t.services.payments.gateway.keyId, order_id: order.orderId }),
    });
    const checkout = await paid.json();
    // The receipt cannot be written, after the invoice took its number: the whole completion rolls back.
    const db = t.database.db;
    await asOwner([
      `CREATE FUNCTION test_refuse_receipt() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.template = 'payment-receipt' AND NEW.recipient = '${buyer.email}' THEN
            RAISE EXCEPTION 'receipt refused by the test';
          END IF;
          RETURN NEW;
        END $$`,
      "CREATE TRIGGER test_refuse_receipt BEFORE INSERT ON messages FOR EACH ROW EXECUTE FUNCTION test_refuse_receipt()",
    ]);
    try {
      const failed = await postJson(t, "/api/payment/verify", checkout);
      expect(failed.status).toBe(500);
      const [purchase] = await db.select().from(orders).where(eq(orders.id, order.purchaseId));
      expect(purchase.status).toBe("created");
      expect(await db.select().from(invoices).where(eq(invoices.orderId, order.purchaseId))).toHaveLength(0);
      expect(await counter("platform:invoice")).toBe(4);
    } finally {
      await asOwner(["DROP TRIGGER test_refuse_receipt ON messages", "DROP FUNCTION test_refuse_receipt()"]);
    }
    const again = await postJson(t, "/api/payment/verify", checkout);
    expect(again.status).toBe(200);
    expect((await invoiceOf({ purchaseId: order.purchaseId })).number).toBe(numbered("INV", 5));
  });

  it("without a platform GSTIN: a bill of supply from its own series, no tax charged", async () => {
    await putSettings({ legalName: PLATFORM.legalName, legalAddress: PLATFORM.legalAddress });
    try {
      const buyer = await register(t, "business");
      await setState(buyer, "27");
      const plan = await buyPlan(buyer);
      const bill = await invoiceOf({ purchaseId: plan.purchaseId });
      expect(bill).toMatchObject({
        kind: "bill_of_supply",
        number: numbered("BOS", 1),
        seq: 1,
        sellerName: PLATFORM.legalName,
        sellerGstin: null,
        sellerState: null,
        placeOfSupply: "27",
        rate: 0,
        taxable: 500_000,
        cgst: 0,
        sgst: 0,
        igst: 0,
        total: 500_000,
      });
      const [receipt] = await messagesTo(buyer.email, "payment-receipt");
      expect(receipt.invoiceId).toBe(bill.id);
      expect(receipt.text).toContain(`Bill of Supply ${numbered("BOS", 1)} is attached`);
      const text = await pdfText(bill.id, bearer(buyer.access_token));
      expect(text).toContain("Bill of Supply");
      expect(text).toContain(`No. ${numbered("BOS", 1)}`);
      expect(text).toContain("Supplier not registered under GST: no tax is charged.");
      expect(text).toContain("GSTIN: not registered");
      expect(text).toContain("Place of supply: 27 Maharashtra");
      expect(text).not.toMatch(/CGST|SGST|IGST|of which tax/);
      expect(text).toContain("Amount in words: Five Thousand Rupees Only");
    } finally {
      await putSettings(PLATFORM);
    }
    // The invoices' series goes on where it was.
    const buyer = await register(t, "business");
    const plan = await buyPlan(buyer);
    expect((await invoiceOf({ purchaseId: plan.purchaseId })).number).toBe(numbered("INV", 6));
  });
});

describe("GET /api/invoices/:id/pdf", () => {
  it("gives the buyer the tax invoice with what GST asks printed on it", async () => {
    const buyer = shared.wbBuyer!;
    const res = await pdfOf(shared.wbInvoiceId!, bearer(buyer.access_token));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe(`inline; filename="INV-${FY}-00001.pdf"`);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const text = (await pageTexts(new Uint8Array(await res.arrayBuffer())))[0];
    for (const line of [
      "Tax Invoice",
      `No. ${numbered("INV", 1)}`,
      PLATFORM.legalName,
      PLATFORM.legalAddress,
      `GSTIN ${PLATFORM.gstin}`,
      "State 19 West Bengal",
      "Sen Classes",
      buyer.email,
      "Place of supply: 19 West Bengal",
      "SAC",
      "999293",
      "Taxable value",
      "4,237.29",
      "CGST 9%",
      "381.35",
      "SGST 9%",
      "381.36",
      "Total (INR)",
      "5,000.00",
      "of which tax 762.71",
      "Amount in words: Five Thousand Rupees Only",
      `Payment reference: ${shared.wbPlan!.paymentId}`,
    ])
      expect(text).toContain(line);
    expect(text).not.toContain("IGST");
  });

  it("between states prints IGST 18%", async () => {
    const text = await pdfText(shared.mhInvoiceId!, admin);
    expect(text).toContain("IGST 18%");
    expect(text).toContain("762.71");
    expect(text).toContain("Place of supply: 27 Maharashtra");
    expect(text).not.toMatch(/CGST|SGST/);
  });

  it("is nobody else's: another account is told it does not exist, as is an unknown or malformed id", async () => {
    const stranger = await register(t, "business");
    for (const id of [shared.wbInvoiceId!, "00000000-0000-4000-8000-000000000000", "not-an-id"]) {
      const res = await pdfOf(id, bearer(stranger.access_token));
      expect(res.status, id).toBe(404);
      expect((await res.json()).error).toBe(INVOICE_TEXTS.notFound);
    }
    expect((await pdfOf(shared.wbInvoiceId!, {})).status).toBe(401);
    // Admins see every document.
    expect((await pdfOf(shared.wbInvoiceId!, admin)).status).toBe(200);
  });
});

describe("content sold by an institute", () => {
  let creator: Account;
  const contentIds: Record<string, string> = {};

  beforeAll(async () => {
    creator = await register(t, "creator");
    const owner = await register(t, "business", { name: "Meera Iyer" });
    const sunrise = await createCenter(t, owner.user._id, { instituteName: "Sunrise Academy" });
    expect(await t.services.invoices.updateSellerProfile(sunrise.id, SUNRISE)).toEqual(SUNRISE);
    const vidya = await createCenter(t, null, { instituteName: "Vidya Classes" });
    await t.services.invoices.updateSellerProfile(vidya.id, { legalName: "Vidya Classes", state: "07" });
    await joinTeam(t, sunrise.id, creator.user._id);
    await joinTeam(t, vidya.id, creator.user._id);
    const live = (title: string, price: string, businessId?: string) =>
      publish(t, creator.access_token, {
        title,
        type: "live",
        price,
        liveLink: "https://meet.example.com/class",
        ...(businessId ? { businessId } : {}),
      });
    contentIds.sunrise = await live("Physics doubts", "299", sunrise.id);
    contentIds.vidya = await live("Biology doubts", "149.50", vidya.id);
    contentIds.platform = await live("Open chemistry class", "118", undefined);
    Object.assign(shared, { sunriseOwner: owner, sunriseId: sunrise.id });
  });

  const sunriseHost = async () =>
    (await t.database.db.select().from(centers).where(eq(centers.id, shared.sunriseId!)))[0].customDomain!;

  /** A student who bought `contentId` on `host`, paying through Checkout. */
  async function bought(contentId: string, state: string | null, host?: string) {
    const student = await register(t, "student", { host });
    if (state) await setState(student, state);
    const placed = await enrol(t, student.access_token, contentId, host);
    expect(placed.status).toBe(200);
    const { order } = await placed.json();
    return { student, order: order as { id: string; amount: number } };
  }
  const verify = async (student: Account, orderId: string, host?: string) => {
    const pay = paymentId();
    return postJson(
      t,
      "/api/student/enroll/verify",
      { razorpay_order_id: orderId, razorpay_payment_id: pay, razorpay_signature: await signOrder(t, orderId, pay) },
      { headers: bearer(student.access_token), host },
    );
  };
  const orderIdOf = async (gatewayOrderId: string) =>
    (await t.database.db.select({ id: orders.id }).from(orders).where(eq(orders.gatewayOrderId, gatewayOrderId)))[0].id;

  it("on its site is the institute's invoice, from its own series, with its GSTIN", async () => {
    const host = await sunriseHost();
    const { student, order } = await bought(contentIds.sunrise, "29", host);
    expect((await verify(student, order.id, host)).status).toBe(200);
    const contentOrderId = await orderIdOf(order.id);
    const invoice = await invoiceOf({ contentOrderId });
    expect(invoice).toMatchObject({
      kind: "invoice",
      // The platform has issued INV/…/00001 to 00006: the institute's series is its own.
      number: numbered("INV", 1),
      series: `${shared.sunriseId}:invoice`,
      sellerCenterId: shared.sunriseId,
      sellerName: SUNRISE.legalName,
      sellerAddress: SUNRISE.address,
      sellerGstin: SUNRISE.gstin,
      sellerState: "29",
      buyerUserId: student.user._id,
      buyerEmail: student.email,
      buyerState: "29",
      placeOfSupply: "29",
      description: "Live class: Physics doubts",
      rate: 18,
      // ₹299: 299 × 100/118 = ₹253.39, tax ₹45.61 split 22.80 + 22.81.
      taxable: 25_339,
      cgst: 2_280,
      sgst: 2_281,
      igst: 0,
      total: 29_900,
      orderId: contentOrderId,
    });
    const [receipt] = await messagesTo(student.email, "payment-receipt");
    expect(receipt.invoiceId).toBe(invoice.id);
    expect(receipt.centerId).toBe(shared.sunriseId);
    expect(receipt.text).toContain(`Tax Invoice ${numbered("INV", 1)} is attached`);

    const mine = await myInvoices(student, host);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      number: numbered("INV", 1),
      sellerName: SUNRISE.legalName,
      orderId: contentOrderId,
    });

    // The student signed in on the institute's site, where their session is valid.
    expect((await pdfOf(invoice.id, bearer(student.access_token))).status).toBe(401);
    const text = await pdfText(invoice.id, bearer(student.access_token), host);
    for (const line of [
      `GSTIN ${SUNRISE.gstin}`,
      "State 29 Karnataka",
      "Place of supply: 29 Karnataka",
      "CGST 9%",
      "22.80",
      "SGST 9%",
      "22.81",
      "299.00",
      "Amount in words: Two Hundred Ninety Nine Rupees Only",
    ])
      expect(text).toContain(line);
    Object.assign(shared, { sunriseInvoiceId: invoice.id, student, studentHost: host });
  });

  it("the issuing institute's owner may download it; another institute's may not", async () => {
    expect((await pdfOf(shared.sunriseInvoiceId!, bearer(shared.sunriseOwner!.access_token))).status).toBe(200);
    const other = await register(t, "business");
    await createCenter(t, other.user._id);
    const res = await pdfOf(shared.sunriseInvoiceId!, bearer(other.access_token));
    expect(res.status).toBe(404);
    expect((await res.json()).error).toBe(INVOICE_TEXTS.notFound);
    // Nor the owner another seller's document.
    expect((await pdfOf(shared.wbInvoiceId!, bearer(shared.sunriseOwner!.access_token))).status).toBe(404);
  });

  it("numbers payments completed at the same time consecutively; IGST to a buyer elsewhere, the seller's state when none", async () => {
    const host = await sunriseHost();
    const buyers = await Promise.all([
      bought(contentIds.sunrise, "19", host),
      bought(contentIds.sunrise, null, host),
      bought(contentIds.sunrise, "27", host),
    ]);
    const answers = await Promise.all(buyers.map((b) => verify(b.student, b.order.id, host)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const issued = await Promise.all(
      buyers.map(async (b) => invoiceOf({ contentOrderId: await orderIdOf(b.order.id) })),
    );
    expect(issued.map((i) => i.number).sort()).toEqual([numbered("INV", 2), numbered("INV", 3), numbered("INV", 4)]);
    // Issued one at a time: ordered by date they are ordered by number (the accountant's export relies on it).
    const byDate = [...issued].sort((a, b) => a.issuedAt.getTime() - b.issuedAt.getTime() || a.seq - b.seq);
    expect(byDate.map((i) => i.number)).toEqual([numbered("INV", 2), numbered("INV", 3), numbered("INV", 4)]);
    expect(issued.map((i) => [i.placeOfSupply, i.cgst, i.sgst, i.igst])).toEqual([
      ["19", 0, 0, 4_561],
      ["29", 2_280, 2_281, 0],
      ["27", 0, 0, 4_561],
    ]);
    expect(await counter(`${shared.sunriseId}:invoice`)).toBe(4);
  });

  it("an institute without a GSTIN issues bills of supply from its own series", async () => {
    const { student, order } = await bought(contentIds.vidya, "19");
    expect((await verify(student, order.id)).status).toBe(200);
    const bill = await invoiceOf({ contentOrderId: await orderIdOf(order.id) });
    expect(bill).toMatchObject({
      kind: "bill_of_supply",
      number: numbered("BOS", 1),
      sellerName: "Vidya Classes",
      sellerGstin: null,
      sellerState: "07",
      placeOfSupply: "19",
      rate: 0,
      taxable: 14_950,
      cgst: 0,
      sgst: 0,
      igst: 0,
      total: 14_950,
    });
    expect(await pdfText(bill.id, bearer(student.access_token))).toContain(
      "Amount in words: One Hundred Forty Nine Rupees And Fifty Paise Only",
    );
  });

  it("content of no institute is the platform's sale, on the platform's series", async () => {
    const before = await counter("platform:invoice");
    const { student, order } = await bought(contentIds.platform, "27");
    expect((await verify(student, order.id)).status).toBe(200);
    expect(await invoiceOf({ contentOrderId: await orderIdOf(order.id) })).toMatchObject({
      kind: "invoice",
      number: numbered("INV", before + 1),
      sellerCenterId: null,
      sellerName: PLATFORM.legalName,
      sellerGstin: PLATFORM.gstin,
      placeOfSupply: "27",
      // ₹118 = ₹100 + 18 % IGST.
      taxable: 10_000,
      igst: 1_800,
      total: 11_800,
    });
  });
});

describe("GET /api/invoices/export", () => {
  const HEADER =
    "Number,Type,Date,Buyer,Buyer email,Buyer GSTIN,Place of supply,Description,SAC,Rate (%),Taxable value (INR),CGST (INR),SGST (INR),IGST (INR),Total (INR),Against invoice,Payment reference";
  const istDay = (d: Date) => new Date(d.getTime() + 330 * 60_000).toISOString().slice(0, 10);
  const exported = async (query: string, headers: Record<string, string>) => {
    const res = await t.request(`/api/invoices/export${query}`, { headers });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    // Kept as bytes: Response.text() would drop the byte-order mark Excel needs.
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await res.arrayBuffer());
    expect(text.startsWith("\ufeff")).toBe(true);
    const lines = text.slice(1).split("\r\n");
    expect(lines.pop()).toBe("");
    expect(lines[0]).toBe(HEADER);
    return { lines: lines.slice(1), disposition: res.headers.get("content-disposition") };
  };

  it("gives an admin the platform's documents, one row each, oldest first", async () => {
    const { lines, disposition } = await exported("", admin);
    expect(disposition).toBe('attachment; filename="invoices-all.csv"');
    const [first] = await t.database.db.select().from(invoices).where(eq(invoices.id, shared.wbInvoiceId!));
    expect(lines[0]).toBe(
      [
        numbered("INV", 1),
        "Tax Invoice",
        istDay(first.issuedAt),
        "Sen Classes",
        shared.wbBuyer!.email,
        "",
        "19 West Bengal",
        `"1 Year Plan, billed monthly, for ${shared.wbPlan!.domain} (30 days)"`,
        "999293",
        "18",
        "4237.29",
        "381.35",
        "381.36",
        "0.00",
        "5000.00",
        "",
        shared.wbPlan!.paymentId,
      ].join(","),
    );
    const platformDocs = await t.database.db
      .select({ number: invoices.number })
      .from(invoices)
      .where(sql`${invoices.sellerCenterId} is null`);
    expect(lines).toHaveLength(platformDocs.length);
    // Six plans, one bill of supply among them, and the platform's own content: none of the institutes'.
    expect(lines.map((l) => l.split(",")[0])).toEqual([
      numbered("INV", 1),
      numbered("INV", 2),
      numbered("INV", 3),
      numbered("INV", 4),
      numbered("INV", 5),
      numbered("BOS", 1),
      numbered("INV", 6),
      numbered("INV", 7),
    ]);
    expect(lines[5]).toContain(",Bill of Supply,");
  });

  it("gives an institute's owner their institute's documents", async () => {
    const { lines } = await exported("", bearer(shared.sunriseOwner!.access_token));
    expect(lines.map((l) => l.split(",")[0])).toEqual([1, 2, 3, 4].map((n) => numbered("INV", n)));
    expect(lines[0]).toContain(`,Live class: Physics doubts,999293,18,253.39,22.80,22.81,0.00,299.00,,pay_gst`);
  });

  it("takes a period of IST days, the last one included", async () => {
    const today = istDay(new Date());
    const tomorrow = istDay(new Date(Date.now() + 86_400_000));
    const yesterday = istDay(new Date(Date.now() - 86_400_000));
    const owner = bearer(shared.sunriseOwner!.access_token);
    const all = await exported(`?from=${today}&to=${today}`, owner);
    expect(all.lines).toHaveLength(4);
    expect(all.disposition).toBe(`attachment; filename="invoices-${today}-to-${today}.csv"`);
    expect((await exported(`?from=${tomorrow}`, owner)).lines).toEqual([]);
    expect((await exported(`?to=${yesterday}`, owner)).lines).toEqual([]);
    expect((await exported(`?from=${yesterday}&to=${tomorrow}`, admin)).lines).toHaveLength(8);
  });

  it("takes blank dates as the form sends them (from=&to=) to mean from the first, up to today", async () => {
    // The export form's hints say "Blank: from the first." and "Blank: up to today."; a GET form sends
    // the blank fields as empty strings, which the walk found refused.
    const owner = bearer(shared.sunriseOwner!.access_token);
    const ownerAll = await exported("", owner);
    const ownerBlank = await exported("?from=&to=", owner);
    expect(ownerBlank.lines).toEqual(ownerAll.lines);
    expect(ownerBlank.lines).toHaveLength(4);
    expect(ownerBlank.disposition).toBe('attachment; filename="invoices-all.csv"');
    const adminBlank = await exported("?from=&to=", admin);
    expect(adminBlank.lines).toEqual((await exported("", admin)).lines);
    expect(adminBlank.lines.length).toBeGreaterThan(0);
    const today = istDay(new Date());
    expect((await exported(`?from=${today}&to=`, owner)).lines).toHaveLength(4);
    expect((await exported(`?from=&to=${today}`, owner)).disposition).toBe(
      `attachment; filename="invoices-all-to-${today}.csv"`,
    );
  });

  it("refuses a period that ends before it starts, or is not YYYY-MM-DD, with the rule", async () => {
    for (const query of [
      "?from=2026-05-02&to=2026-05-01",
      "?from=2026-13-45",
      "?to=yesterday",
      "?from=02-05-2026",
      "?from=2026-02-30",
      "?to=2026-04-31",
      "?from=%20",
    ]) {
      const res = await t.request(`/api/invoices/export${query}`, { headers: admin });
      expect(res.status, query).toBe(400);
      expect((await res.json()).error, query).toBe(INVOICE_TEXTS.range);
    }
  });

  it("is for admins and institutes' owners only", async () => {
    const res = await t.request("/api/invoices/export", {
      headers: bearer(shared.student!.access_token),
      host: shared.studentHost,
    });
    expect(res.status).toBe(403);
    expect((await t.request("/api/invoices/export")).status).toBe(401);
  });
});

describe("a refund's credit note", () => {
  it("reverses the invoice as CN/…/00001: listed against it, attached to the refund's message, in the export", async () => {
    const buyer = await register(t, "business");
    await setState(buyer, "27");
    const plan = await buyPlan(buyer);
    const invoice = await invoiceOf({ purchaseId: plan.purchaseId });
    const res = await t.request(`/api/purchases/${plan.purchaseId}/refund`, { method: "POST", headers: admin });
    expect(res.status).toBe(200);
    const { refund } = await res.json();

    const notes = await t.database.db.select().from(invoices).where(eq(invoices.kind, "credit_note"));
    expect(notes).toHaveLength(1);
    const [note] = notes;
    expect(note).toMatchObject({
      number: numbered("CN", 1),
      series: "platform:credit_note",
      seq: 1,
      originalId: invoice.id,
      orderId: plan.purchaseId,
      refundId: refund._id,
      sellerGstin: PLATFORM.gstin,
      buyerUserId: buyer.user._id,
      placeOfSupply: "27",
      description: `Refund: ${invoice.description}`,
      rate: 18,
      taxable: 423_729,
      cgst: 0,
      sgst: 0,
      igst: 76_271,
      total: 500_000,
      paymentId: refund.refundId,
    });

    const mine = await myInvoices(buyer);
    expect(mine.map((i) => [i.kind, i.number, i.against])).toEqual([
      ["credit_note", numbered("CN", 1), invoice.number],
      ["invoice", invoice.number, null],
    ]);

    const [told] = await messagesTo(buyer.email, "refund-processed");
    expect(told.invoiceId).toBe(note.id);
    expect(told.text).toContain(`Credit Note ${numbered("CN", 1)} is attached`);
    // Queued, then sending while its PDF is made: wait for where the worker leaves it.
    await waitFor(async () =>
      ["sent", "failed"].includes((await messagesTo(buyer.email, "refund-processed"))[0].status),
    );
    expect((await messagesTo(buyer.email, "refund-processed"))[0]).toMatchObject({ status: "sent", lastError: null });

    const text = await pdfText(note.id, bearer(buyer.access_token));
    for (const line of [
      "Credit Note",
      `No. ${numbered("CN", 1)}`,
      `Against invoice ${invoice.number} dated `,
      "IGST 18%",
      "Total credited (INR)",
      "5,000.00",
      `Refund reference: ${refund.refundId}`,
    ])
      expect(text).toContain(line);

    const csv = await (await t.request("/api/invoices/export", { headers: admin })).text();
    const row = csv.split("\r\n").find((l) => l.startsWith(numbered("CN", 1)))!;
    expect(row).toContain(",Credit Note,");
    expect(row).toContain(`,0.00,0.00,762.71,5000.00,${invoice.number},${refund.refundId}`);
  });
});

describe("buyers' states and sellers' business details", () => {
  it("a buyer's state is a GST state code or blank; a refusal keeps the one on record", async () => {
    const buyer = await register(t, "student");
    expect(await t.services.invoices.setBuyerState(buyer.user._id, { state: " 27 " })).toBe("27");
    for (const state of ["99", "Maharashtra", 27])
      expect(await refusal(t.services.invoices.setBuyerState(buyer.user._id, { state })), String(state)).toEqual({
        status: 400,
        message: GST_TEXTS.state,
      });
    expect(await t.services.invoices.buyerState(buyer.user._id)).toBe("27");
    expect(await t.services.invoices.setBuyerState(buyer.user._id, { state: "" })).toBeNull();
    expect(await t.services.invoices.buyerState(buyer.user._id)).toBeNull();
  });

  it("an institute's GSTIN must be valid and of its state; a refused update changes nothing", async () => {
    const center = await createCenter(t, null);
    const profile = { legalName: "Ganga Tutorials", address: "Patna", state: "10", gstin: "" };
    expect(await t.services.invoices.updateSellerProfile(center.id, profile)).toEqual(profile);
    for (const [input, message] of [
      [
        { ...profile, state: "19", gstin: SUNRISE.gstin },
        "This GSTIN is registered in Karnataka (code 29): choose that state",
      ],
      [{ ...profile, gstin: "29AAGCB7383J1Z5" }, GST_TEXTS.gstin],
      [{ ...profile, gstin: "29AAGCB7383J1Z" }, GST_TEXTS.gstin],
      [{ ...profile, state: "99" }, GST_TEXTS.state],
      [{ ...profile, legalName: "x".repeat(201) }, "Legal name must be at most 200 characters"],
    ] as const) {
      expect(await refusal(t.services.invoices.updateSellerProfile(center.id, input)), message).toEqual({
        status: 400,
        message,
      });
    }
    expect(await t.services.invoices.sellerProfile(center.id)).toEqual(profile);
    // Typed in lower case with spaces, and the state left to the GSTIN.
    expect(
      await t.services.invoices.updateSellerProfile(center.id, {
        legalName: "Ganga Tutorials",
        gstin: " 29aagcb7383j1z4 ",
      }),
    ).toEqual({ legalName: "Ganga Tutorials", address: "", state: "29", gstin: SUNRISE.gstin });
  });
});

describe("the platform's identity and rates from the environment, then from the admins' settings", () => {
  let t2: ListeningTestApp;
  beforeAll(async () => {
    t2 = await createListeningTestApp({
      PLATFORM_LEGAL_NAME: "Pathshala Mumbai Pvt Ltd",
      PLATFORM_LEGAL_ADDRESS: "Andheri East, Mumbai 400069",
      PLATFORM_GSTIN: "27AAPFU0939F1ZV",
      GST_SAC: "999294",
      GST_RATE: "12",
    });
    await seedDemo(t2.database.db);
  });
  afterAll(() => t2.close());

  async function bought() {
    const buyer = await register(t2, "business");
    const res = await postJson(
      t2,
      "/api/payment/create-order",
      {
        institute: "Kulkarni Classes",
        owner: "Asha Kulkarni",
        email: buyer.email,
        plan: "1 Year Plan",
        domain: newDomain(),
      },
      { headers: bearer(buyer.access_token) },
    );
    const { order, purchase } = await res.json();
    await payThroughSandbox(t2, order.id);
    const [row] = await t2.database.db.select().from(invoices).where(eq(invoices.orderId, purchase._id));
    return { buyer, row };
  }

  it("uses the environment's legal name, GSTIN, SAC and rate while the settings are empty", async () => {
    const { buyer, row } = await bought();
    expect(row).toMatchObject({
      kind: "invoice",
      number: numbered("INV", 1),
      sellerName: "Pathshala Mumbai Pvt Ltd",
      sellerAddress: "Andheri East, Mumbai 400069",
      sellerGstin: "27AAPFU0939F1ZV",
      sellerState: "27",
      placeOfSupply: "27",
      sac: "999294",
      rate: 12,
      // 5000 × 100/112 = 4464.2857…
      taxable: 446_429,
      cgst: 26_785,
      sgst: 26_786,
      igst: 0,
    });
    const res = await t2.request(`/api/invoices/${row.id}/pdf`, { headers: bearer(buyer.access_token) });
    const text = (await pageTexts(new Uint8Array(await res.arrayBuffer())))[0];
    expect(text).toContain("CGST 6%");
    expect(text).toContain("SGST 6%");
    expect(text).toContain("State 27 Maharashtra");
  });

  it("and the admins' settings over them", async () => {
    const admin2 = bearer(await adminToken(t2));
    const saved = await postJson(
      t2,
      "/api/settings",
      { legalName: "Pathshala Learning Pvt Ltd", gstin: "19AABCP1234C1ZX", sacCode: "999293", gstRate: "5" },
      { method: "PUT", headers: admin2 },
    );
    expect(saved.status).toBe(200);
    const { buyer, row } = await bought();
    expect(row).toMatchObject({
      // A seller's series is the platform's whatever its GSTIN: the next number.
      number: numbered("INV", 2),
      sellerName: "Pathshala Learning Pvt Ltd",
      // The address left empty falls back to the environment's.
      sellerAddress: "Andheri East, Mumbai 400069",
      sellerGstin: "19AABCP1234C1ZX",
      sellerState: "19",
      placeOfSupply: "19",
      sac: "999293",
      rate: 5,
      // 5000 × 100/105 = 4761.90…
      taxable: 476_190,
      cgst: 11_905,
      sgst: 11_905,
      igst: 0,
    });
    const res = await t2.request(`/api/invoices/${row.id}/pdf`, { headers: bearer(buyer.access_token) });
    expect((await pageTexts(new Uint8Array(await res.arrayBuffer())))[0]).toContain("CGST 2.5%");
  });
});
