import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { PDFDocument } from "pdf-lib";
import { memberships, users } from "../../server/db/schema/index.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer, postJson } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { register } from "../helpers/learning.ts";
import { pageTexts } from "../helpers/pdf.ts";
import type { MemberRole } from "../../common/memberships.ts";
import { addDays, indiaDate } from "../../common/india-dates.ts";
import { FEE_RECEIPT_NOT_FOUND } from "../../common/validation/fees.ts";

/**
 * Fee receipts as PDF (issue 42 §3): a "Receipt Voucher" with the institute from its seller
 * profile, the student, the number and date, what each due received, the amount in words and the
 * GST included split by the due's rate and the place of supply (CGST + SGST within the state,
 * IGST between states, none without a GSTIN); REVERSED on a reversed one; A4 and an 80 mm roll;
 * for the institute's managers and the student it is for, nobody else.
 */

type Account = Awaited<ReturnType<typeof register>>;
let t: TestApp;
let owner: Account;
let teacher: Account;
let student: Account;
let traveller: Account;
let other: Account;
let sunriseId = "";
let vidyaId = "";
let vidyaOwner: Account;
const today = indiaDate(new Date());

const grant = (centerId: string, userId: string, role: MemberRole) =>
  t.database.db
    .insert(memberships)
    .values({ centerId, userId, role, status: "active", acceptedAt: new Date() })
    .onConflictDoNothing();
const as = (who: Account) => ({ headers: bearer(who.access_token) });

/** A plan of two ₹5,900 dues (18 % GST included) assigned to `who`, and a payment of `amount`: its receipt id. */
async function receiptFor(manager: Account, centerId: string, who: Account, amount: number): Promise<string> {
  const plan = await postJson(
    t,
    "/api/fee-plans",
    {
      centerId,
      name: `Foundation ${who.user._id.slice(0, 6)}`,
      heads: [{ name: "Tuition", amount: 11_800 }],
      instalments: [
        { label: "First term", amount: 5_900, dueOn: addDays(today, -1) },
        { label: "Second term", amount: 5_900, dueOn: addDays(today, 60) },
      ],
    },
    as(manager),
  );
  const account = await postJson(
    t,
    "/api/fee-accounts",
    { centerId, studentId: who.user._id, feePlanId: (await plan.json()).feePlan._id },
    as(manager),
  );
  const paid = await postJson(
    t,
    `/api/fee-accounts/${(await account.json()).account._id}/payments`,
    { amount, mode: "cheque", reference: "004512", chequeDate: today, bank: "State Bank of India" },
    as(manager),
  );
  expect(paid.status).toBe(201);
  return (await paid.json()).receipt._id;
}

const pdf = async (who: Account | null, receiptId: string, query = "") =>
  t.request(`/api/fee-receipts/${receiptId}/pdf${query}`, who ? as(who) : {});
const textOf = async (res: Response) => {
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/pdf");
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { text: (await pageTexts(bytes))[0], doc: await PDFDocument.load(bytes) };
};

beforeAll(async () => {
  t = await createTestApp();
  owner = await register(t, "business", { name: "Anita Sharma" });
  vidyaOwner = await register(t, "business", { name: "Ravi Rao" });
  teacher = await register(t, "creator", { name: "Kavya Iyer" });
  student = await register(t, "student", { name: "Priya Das" });
  traveller = await register(t, "student", { name: "Rohan Patil" });
  other = await register(t, "student", { name: "Zoya Khan" });
  sunriseId = (await createCenter(t, owner.user._id, { instituteName: "Sunrise Academy", slug: "receipt-sunrise" })).id;
  vidyaId = (await createCenter(t, vidyaOwner.user._id, { instituteName: "Vidya Classes", slug: "receipt-vidya" })).id;
  await t.services.invoices.updateSellerProfile(sunriseId, {
    legalName: "Sunrise Academy Pvt Ltd",
    address: "4 MG Road, Bengaluru 560001",
    state: "29",
    gstin: "29AAGCB7383J1Z4",
  });
  for (const who of [student, traveller, other]) await grant(sunriseId, who.user._id, "student");
  await grant(vidyaId, student.user._id, "student");
  await grant(sunriseId, teacher.user._id, "teacher");
  // Rohan lives in Maharashtra: his place of supply is another state than the institute's.
  await t.database.db.update(users).set({ gstState: "27" }).where(eq(users.id, traveller.user._id));
});
afterAll(() => t.close());

describe("a receipt as a PDF", () => {
  let receiptId = "";
  it("is a Receipt Voucher with the institute, the student, each due settled, the amount in words and CGST + SGST within the state", async () => {
    receiptId = await receiptFor(owner, sunriseId, student, 8_850);
    const number = (await (await t.request(`/api/fee-receipts/${receiptId}`, as(owner))).json()).receipt.number;
    const { text, doc } = await textOf(await pdf(owner, receiptId));
    expect(doc.getPage(0).getWidth()).toBeCloseTo(595.28, 1);
    const lines = text.split("\n");
    for (const line of [
      "Sunrise Academy Pvt Ltd",
      "4 MG Road, Bengaluru 560001",
      "GSTIN 29AAGCB7383J1Z4",
      "Receipt Voucher",
      `No. ${number}`,
      "Priya Das",
      "Place of supply: 29 Karnataka",
      // ₹8,850 settles the first term's ₹5,900, then ₹2,950 of the second.
      "First term",
      "5,900.00",
      "Second term",
      "2,950.00",
      "Amount received",
      "8,850.00",
      // 18 % included: 5,000 + 2,500 taxable; 450 + 225 each of CGST and SGST.
      "Taxable value",
      "7,500.00",
      "CGST 9%",
      "SGST 9%",
      "675.00",
      "Amount in words: Eight Thousand Eight Hundred Fifty Rupees Only",
    ])
      expect(lines, line).toContain(line);
    expect(text).toContain("Paid by Cheque 004512 dated");
    expect(text).not.toContain("IGST");
    expect(text).not.toContain("REVERSED");
  });

  it("splits IGST for a student in another state", async () => {
    const id = await receiptFor(owner, sunriseId, traveller, 5_900);
    const lines = (await textOf(await pdf(owner, id))).text.split("\n");
    expect(lines).toContain("Place of supply: 27 Maharashtra");
    expect(lines).toContain("IGST 18%");
    expect(lines).toContain("900.00");
    expect(lines).toContain("5,000.00");
    expect(lines.some((l) => l.startsWith("CGST"))).toBe(false);
  });

  it("has no tax lines from an institute without a GSTIN", async () => {
    const id = await receiptFor(vidyaOwner, vidyaId, student, 1_000);
    const { text } = await textOf(await pdf(student, id));
    expect(text).toContain("Vidya Classes");
    expect(text).toContain("GSTIN: not registered");
    expect(text).not.toContain("Taxable value");
    expect(text).not.toMatch(/[CSI]GST \d/);
    expect(text).toContain("Amount in words: One Thousand Rupees Only");
  });

  it("prints on an 80 mm roll in one column, and stamps a reversed receipt REVERSED with its reason", async () => {
    const thermal = await textOf(await pdf(owner, receiptId, "?format=thermal"));
    expect(thermal.doc.getPage(0).getWidth()).toBeCloseTo(226.77, 1);
    expect(thermal.doc.getPage(0).getHeight()).toBeLessThan(841);
    expect(thermal.text).toContain("Receipt Voucher");
    expect(thermal.text).toContain("8,850.00");
    const reversed = await postJson(
      t,
      `/api/fee-receipts/${receiptId}/reverse`,
      { reason: "Cheque 004512 bounced" },
      as(owner),
    );
    expect(reversed.status).toBe(200);
    for (const query of ["", "?format=thermal"]) {
      const lines = (await textOf(await pdf(owner, receiptId, query))).text.split("\n");
      expect(lines).toContain("REVERSED");
      expect(lines.some((l) => l.startsWith("Reversed on ") && l.endsWith(": Cheque 004512 bounced"))).toBe(true);
    }
    const bad = await pdf(owner, receiptId, "?format=a5");
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toBe('Format must be "a4" or "thermal"');
  });

  it("is for the student it is for and the institute's managers: another student or a teacher finds nothing", async () => {
    expect((await pdf(student, receiptId)).status).toBe(200);
    for (const who of [other, teacher, vidyaOwner]) {
      const res = await pdf(who, receiptId);
      expect(res.status).toBe(404);
      expect((await res.json()).error).toBe(FEE_RECEIPT_NOT_FOUND);
    }
    expect((await pdf(null, receiptId)).status).toBe(401);
    const nothing = await pdf(owner, "00000000-0000-4000-8000-000000000000");
    expect(nothing.status).toBe(404);
  });
});
