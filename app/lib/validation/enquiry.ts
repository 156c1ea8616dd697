import * as v from "valibot";
import { emailSchema, text } from "./account.ts";

const PHONE_MESSAGE = "Please enter a valid phone number";
const phoneDigits = (s: string) => s.replace(/[\s\-()]/g, "");
const PHONE = /^\+?[1-9]\d{1,14}$/;

/** An Indian or international number: spaces, dashes and brackets ignored; optional +, then 2–15 digits not starting with 0. */
export const phoneSchema = v.pipe(text(PHONE_MESSAGE), v.trim(), v.transform(phoneDigits), v.regex(PHONE, PHONE_MESSAGE));

/** An institute's listed number: at least 6 digits, in national form too (a landline with its STD code, "(033) 2455 1234"). */
const LISTED_PHONE = /^(?:\+?[1-9]\d{5,14}|0\d{6,14})$/;

/** A number shown to visitors: it keeps the owner's spacing ("+91 98300 12345"). */
export const displayPhoneSchema = v.pipe(
  text(PHONE_MESSAGE),
  v.trim(),
  v.transform((s) => s.replace(/\s+/g, " ")),
  v.check((s) => LISTED_PHONE.test(phoneDigits(s)), PHONE_MESSAGE),
  v.maxLength(24, PHONE_MESSAGE),
);

export const ENQUIRY_KIND_VALUES = ["Enquire", "Apply Now", "Book Demo"] as const;

/** The enquiry form on an institute's site (the template form and the API share it). */
export const EnquiryInput = v.object({
  name: v.pipe(text("Please enter your name"), v.trim(), v.nonEmpty("Please enter your name"), v.maxLength(100, "Your name is too long")),
  phone: phoneSchema,
  email: v.pipe(emailSchema),
  program: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100, "Please choose a program from the list"))),
  message: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(1000, "Your message is too long (1,000 characters at most)"))),
  kind: v.optional(v.picklist(ENQUIRY_KIND_VALUES, "Please choose Enquire, Apply Now or Book Demo"), "Enquire"),
});

export type EnquiryInput = v.InferOutput<typeof EnquiryInput>;

export const ENQUIRY_STATUSES = ["new", "contacted", "enrolled"] as const;
