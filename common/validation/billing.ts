import * as v from "valibot";
import { GST_STATES, GST_TEXTS, STATE_CODES, isStateCode } from "../gst.ts";
import { gstinSchema } from "./settings.ts";
import { storable } from "./storable.ts";

/** Blank, or one of India's GST state codes. */
const stateCode = v.pipe(
  v.optional(v.string(GST_TEXTS.state), ""),
  v.trim(),
  v.union([v.literal(""), v.picklist(STATE_CODES, GST_TEXTS.state)], GST_TEXTS.state),
);

/** A buyer's state, the place of supply on their invoices (blank: not given). */
export const BuyerStateInput = v.object({ state: stateCode });

const text = (label: string, max: number) =>
  v.pipe(
    v.optional(v.string(), ""),
    v.trim(),
    v.maxLength(max, `${label} must be at most ${max} characters`),
    storable(label),
  );

/**
 * An institute as the seller on its invoices: legal name and address, its state, and its GSTIN
 * when registered (without one its invoices are bills of supply). A GSTIN's first two digits are
 * its state, so the two must agree.
 */
export const SellerProfileInput = v.pipe(
  v.object({
    legalName: text("Legal name", 200),
    address: text("Address", 500),
    state: stateCode,
    gstin: v.pipe(
      v.optional(v.string(), ""),
      v.transform((s) => s.trim()),
      v.union([v.literal(""), gstinSchema(GST_TEXTS.gstin)], GST_TEXTS.gstin),
    ),
  }),
  v.check(
    (p) => !p.gstin || !p.state || p.gstin.slice(0, 2) === p.state,
    (issue) => {
      const code = (issue.input as { gstin: string }).gstin.slice(0, 2);
      return isStateCode(code)
        ? `This GSTIN is registered in ${GST_STATES[code]} (code ${code}): choose that state`
        : GST_TEXTS.gstin;
    },
  ),
);
export type SellerProfile = v.InferOutput<typeof SellerProfileInput>;
