import * as v from "valibot";
import { emailSchema, text } from "./account.ts";

/** An Indian or international number: spaces, dashes and brackets ignored; optional +, then 2–15 digits not starting with 0. */
export const phoneSchema = v.pipe(
  text("Please enter a valid phone number"),
  v.trim(),
  v.transform((s) => s.replace(/[\s\-()]/g, "")),
  v.regex(/^\+?[1-9]\d{1,14}$/, "Please enter a valid phone number"),
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
