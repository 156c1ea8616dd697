import { describe, expect, it } from "vitest";
import {
  GST_STATES,
  INVOICE_KINDS,
  documentNumber,
  isInterState,
  financialYear,
  isGstin,
  isStateCode,
  placeOfSupply,
  splitTax,
  stateLabel,
} from "./gst";

const BASE36 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
/** Real GSTINs (public examples) and the one the settings form shows. */
const VALID = ["27AAPFU0939F1ZV", "29AAGCB7383J1Z4", "19AABCP1234C1ZX"];

describe("isGstin", () => {
  it("accepts GSTINs whose check character is right", () => {
    for (const gstin of VALID) expect(isGstin(gstin), gstin).toBe(true);
  });

  it("refuses every other check character", () => {
    for (const gstin of VALID)
      for (const c of BASE36) {
        if (c === gstin[14]) continue;
        expect(isGstin(gstin.slice(0, 14) + c), gstin.slice(0, 14) + c).toBe(false);
      }
    // The example the settings form used to show, with a wrong check character.
    expect(isGstin("19AABCP1234C1Z5")).toBe(false);
  });

  it("catches any one character mistyped", () => {
    const gstin = "27AAPFU0939F1ZV";
    const digits = new Set([0, 1, 7, 8, 9, 10]);
    for (let i = 0; i < 13; i++) {
      // Keep the shape (a digit for a digit, a letter for a letter, the entity number 1-9 or A-Z) and a real state.
      const pool = digits.has(i) ? "0123456789" : i === 12 ? BASE36.slice(1) : BASE36.slice(10);
      for (const c of pool) {
        if (c === gstin[i]) continue;
        const typo = gstin.slice(0, i) + c + gstin.slice(i + 1);
        if (i < 2 && !isStateCode(typo.slice(0, 2))) continue;
        expect(isGstin(typo), typo).toBe(false);
      }
    }
  });

  it("refuses a state code that is not a GST state, whatever the check character", () => {
    for (const state of ["99", "00"])
      for (const c of BASE36) expect(isGstin(`${state}AAPFU0939F1Z${c}`), `${state}…${c}`).toBe(false);
  });

  it("refuses the wrong shape: lower case, spaces, wrong length, no Z, entity 0", () => {
    for (const gstin of [
      "27aapfu0939f1zv",
      "27AAPFU0939F1Z",
      "27AAPFU0939F1ZVV",
      " 27AAPFU0939F1ZV",
      "27AAPFU0939F1YV",
      "27AAPFU0939F0ZV",
      "27AAPF00939F1ZV",
      "",
    ])
      expect(isGstin(gstin), JSON.stringify(gstin)).toBe(false);
  });
});

describe("splitTax", () => {
  it("splits a tax-inclusive price within a state into taxable value, CGST and SGST", () => {
    expect(splitTax(11_800, 18, "intra")).toEqual({ taxable: 10_000, cgst: 900, sgst: 900, igst: 0, total: 11_800 });
    expect(splitTax(500_000, 18, "intra")).toEqual({
      taxable: 423_729,
      cgst: 38_135,
      sgst: 38_136,
      igst: 0,
      total: 500_000,
    });
  });

  it("between states charges the whole tax as IGST", () => {
    expect(splitTax(11_800, 18, "inter")).toEqual({ taxable: 10_000, cgst: 0, sgst: 0, igst: 1_800, total: 11_800 });
    expect(splitTax(500_000, 18, "inter")).toEqual({
      taxable: 423_729,
      cgst: 0,
      sgst: 0,
      igst: 76_271,
      total: 500_000,
    });
  });

  it("rounds the taxable value to the paisa and gives an odd paisa of tax to SGST", () => {
    // ₹299: 29900 × 100 / 118 = 25338.98…
    expect(splitTax(29_900, 18, "intra")).toEqual({
      taxable: 25_339,
      cgst: 2_280,
      sgst: 2_281,
      igst: 0,
      total: 29_900,
    });
    // ₹149.50: 14950 × 100 / 118 = 12669.49…
    expect(splitTax(14_950, 18, "intra")).toEqual({
      taxable: 12_669,
      cgst: 1_140,
      sgst: 1_141,
      igst: 0,
      total: 14_950,
    });
  });

  it("always adds up to the price paid, at every rate", () => {
    for (const rate of [5, 12, 18, 28])
      for (let total = 1; total < 5_000; total += 7)
        for (const kind of ["intra", "inter"] as const) {
          const s = splitTax(total, rate, kind);
          expect(s.taxable + s.cgst + s.sgst + s.igst, `${total} @ ${rate} ${kind}`).toBe(total);
          expect(Math.abs(s.sgst - s.cgst)).toBeLessThanOrEqual(1);
          expect(s.taxable).toBe(Math.round((total * 100) / (100 + rate)));
        }
  });

  it("charges no tax without a GSTIN or at 0 %", () => {
    const none = { taxable: 11_800, cgst: 0, sgst: 0, igst: 0, total: 11_800 };
    expect(splitTax(11_800, 18, "none")).toEqual(none);
    expect(splitTax(11_800, 0, "intra")).toEqual(none);
    expect(splitTax(11_800, 0, "inter")).toEqual(none);
    expect(splitTax(10_500, 5, "intra")).toEqual({ taxable: 10_000, cgst: 250, sgst: 250, igst: 0, total: 10_500 });
  });
});

describe("placeOfSupply", () => {
  it("is the buyer's state when known, else the seller's", () => {
    expect(placeOfSupply("27", "19")).toBe("27");
    expect(placeOfSupply("19", "19")).toBe("19");
    expect(placeOfSupply(null, "19")).toBe("19");
    expect(placeOfSupply("", "19")).toBe("19");
    // A code that is no state is as good as none.
    expect(placeOfSupply("99", "19")).toBe("19");
    expect(placeOfSupply("27", null)).toBe("27");
    expect(placeOfSupply(null, null)).toBeNull();
  });
});

describe("financialYear", () => {
  it("runs April to March, in IST", () => {
    expect(financialYear(new Date("2026-03-31T18:29:59Z"))).toBe("2025-26");
    expect(financialYear(new Date("2026-03-31T18:30:00Z"))).toBe("2026-27");
    expect(financialYear(new Date("2026-04-01T00:00:00+05:30"))).toBe("2026-27");
    expect(financialYear(new Date("2027-03-31T23:59:59+05:30"))).toBe("2026-27");
    expect(financialYear(new Date("2026-12-31T18:29:59Z"))).toBe("2026-27");
    expect(financialYear(new Date("2027-01-01T00:00:00+05:30"))).toBe("2026-27");
    expect(financialYear(new Date("2099-06-01T00:00:00Z"))).toBe("2099-00");
  });
});

describe("documentNumber", () => {
  it("prefixes the kind and the short year to a five-digit number", () => {
    expect(documentNumber("invoice", "2026-27", 1)).toBe("INV/26-27/00001");
    expect(documentNumber("bill_of_supply", "2025-26", 42)).toBe("BOS/25-26/00042");
    expect(documentNumber("credit_note", "2026-27", 12_345)).toBe("CN/26-27/12345");
  });

  it("is at most 16 characters, as GST rules ask", () => {
    for (const kind of INVOICE_KINDS)
      for (const seq of [1, 99_999, 999_999])
        expect(documentNumber(kind, "2026-27", seq).length, `${kind} ${seq}`).toBeLessThanOrEqual(16);
  });
});

describe("states", () => {
  it("names a state with its code, and nothing for an unknown one", () => {
    expect(stateLabel("19")).toBe("19 West Bengal");
    expect(stateLabel("27")).toBe("27 Maharashtra");
    expect(stateLabel("99")).toBe("—");
    expect(stateLabel(null)).toBe("—");
    expect(GST_STATES["19"]).toBe("West Bengal");
    expect(isStateCode("toString")).toBe(false);
  });
});

describe("isInterState", () => {
  const seller = { sellerGstin: "19AAKCS4321M1ZY", sellerState: "19" };
  it("is IGST only for a registered seller supplying to another state", () => {
    expect(isInterState({ ...seller, placeOfSupply: "27" })).toBe(true);
    expect(isInterState({ ...seller, placeOfSupply: "19" })).toBe(false);
    // Unknown place of supply: taxed within the seller's state.
    expect(isInterState({ ...seller, placeOfSupply: null })).toBe(false);
    // A seller without a GSTIN charges no tax at all.
    expect(isInterState({ sellerGstin: null, sellerState: "19", placeOfSupply: "27" })).toBe(false);
  });

  it("knows code 97 (Other Territory) as a state", () => {
    expect(isStateCode("97")).toBe(true);
    expect(stateLabel("97")).toBe("97 Other Territory");
  });
});
