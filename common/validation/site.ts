import * as v from "valibot";
import { emailSchema } from "./account.ts";
import { storable } from "./storable.ts";
import { displayPhoneSchema } from "./enquiry.ts";

const optionalLine = (label: string, max: number, tooLong: string) =>
  v.optional(v.pipe(v.string(), storable(label), v.trim(), v.maxLength(max, tooLong)), "");

/** What an institute can change on its website (the template renders it; blanks fall back to samples). */
export const SiteProfileInput = v.object({
  tagline: optionalLine("The tagline", 160, "The tagline is too long (160 characters at most)"),
  address: optionalLine("The address", 200, "The address is too long (200 characters at most)"),
  phone: v.optional(v.union([v.literal(""), displayPhoneSchema], "Please enter a valid phone number"), ""),
  contactEmail: v.optional(v.union([v.literal(""), emailSchema], "Please enter a valid email address"), ""),
  brandColor: v.optional(
    v.union([
      v.literal(""),
      v.pipe(
        v.string(),
        v.trim(),
        v.toLowerCase(),
        v.hexColor("Please choose a colour such as #4338ca"),
        v.length(7, "Please choose a colour such as #4338ca"),
      ),
    ]),
    "",
  ),
  programs: v.pipe(
    v.optional(
      v.array(
        v.object({
          name: v.pipe(
            v.string(),
            storable("A program name"),
            v.trim(),
            v.nonEmpty("Every program needs a name"),
            v.maxLength(80, "A program name is too long (80 characters at most)"),
          ),
          description: optionalLine(
            "A program description",
            300,
            "A program description is too long (300 characters at most)",
          ),
        }),
      ),
      [],
    ),
    v.maxLength(12, "Up to 12 programs"),
  ),
  testimonials: v.pipe(
    v.optional(
      v.array(
        v.object({
          name: v.pipe(
            v.string(),
            storable("A student's name"),
            v.trim(),
            v.nonEmpty("Every testimonial needs the student's name"),
            v.maxLength(80, "A name is too long"),
          ),
          result: optionalLine("A result", 80, "A result is too long (80 characters at most)"),
          text: v.pipe(
            v.string(),
            storable("A testimonial"),
            v.trim(),
            v.nonEmpty("Every testimonial needs its text"),
            v.maxLength(400, "A testimonial is too long (400 characters at most)"),
          ),
        }),
      ),
      [],
    ),
    v.maxLength(12, "Up to 12 testimonials"),
  ),
});

export type SiteProfileInput = v.InferOutput<typeof SiteProfileInput>;

/** Website Details' words for the sample testimonials (issue 38 §6). */
export const SITE_TEXTS = {
  samplesHidden:
    "Samples, not shown to visitors: their results are made up. Add your students' own, or confirm these to show them:",
  confirmSamples: "Show these samples on my site",
  samplesConfirmed: "Sample testimonials confirmed",
} as const;
