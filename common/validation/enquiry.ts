import * as v from "valibot";
import { emailSchema, text } from "./account.ts";
import { storable } from "./storable.ts";
import { INVALID_PHONE, phoneDigits, phoneNumberSchema } from "./phone.ts";

/** A visitor's number, kept as digits to be dialled: the one way to call them back (./phone.ts). */
export const phoneSchema = v.pipe(phoneNumberSchema(INVALID_PHONE), v.transform(phoneDigits));

/** An institute's listed number, shown to visitors: it keeps the owner's spacing ("+91 98300 12345"). */
export const displayPhoneSchema = phoneNumberSchema(INVALID_PHONE);

export const ENQUIRY_KIND_VALUES = ["Enquire", "Apply Now", "Book Demo"] as const;

/** The enquiry form on an institute's site (the template form and the API share it). */
export const EnquiryInput = v.object({
  name: v.pipe(
    text("Please enter your name", "Your name"),
    v.trim(),
    v.nonEmpty("Please enter your name"),
    v.maxLength(100, "Your name is too long"),
  ),
  phone: phoneSchema,
  /** Optional: a phone alone is enough to call the visitor back ("" when not given). */
  email: v.optional(
    v.union([v.pipe(v.string(), v.trim(), v.empty()), emailSchema], "Please enter a valid email address"),
    "",
  ),
  program: v.optional(
    v.pipe(v.string(), storable("Program"), v.trim(), v.maxLength(100, "Please choose a program from the list")),
  ),
  message: v.optional(
    v.pipe(
      v.string(),
      storable("Your message"),
      v.trim(),
      v.maxLength(1000, "Your message is too long (1,000 characters at most)"),
    ),
  ),
  kind: v.optional(v.picklist(ENQUIRY_KIND_VALUES, "Please choose Enquire, Apply Now or Book Demo"), "Enquire"),
});

export type EnquiryInput = v.InferOutput<typeof EnquiryInput>;

export const ENQUIRY_STATUSES = ["new", "contacted", "enrolled"] as const;
