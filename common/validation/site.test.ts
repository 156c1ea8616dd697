import { describe, expect, it } from "vitest";
import * as v from "valibot";
import { SiteProfileInput } from "./site";
import { EnquiryInput } from "./enquiry";

const profile = (fields: Partial<Record<keyof SiteProfileInput, unknown>>) => v.safeParse(SiteProfileInput, fields);

describe("the site profile schema", () => {
  it("keeps the phone number as the owner spaced it, for visitors to read, landlines with their STD code too", () => {
    const parsed = profile({ phone: "  +91  90000 11111 " });
    expect(parsed.success && parsed.output.phone).toBe("+91 90000 11111");
    expect(profile({ phone: "(033) 2455-1234" }).success).toBe(true);
    expect(profile({ phone: "0 12" }).success).toBe(false);
    expect(profile({ phone: "+44 20 7946 0958" }).success).toBe(true);
  });

  it("names a wrong phone number, e-mail or colour in the product's words", () => {
    const first = (fields: Parameters<typeof profile>[0]) => {
      const parsed = profile(fields);
      return parsed.success ? null : parsed.issues[0].message;
    };
    expect(first({ phone: "12" })).toBe("Please enter a valid phone number");
    expect(first({ phone: "+91 98300 12345 ext 4" })).toBe("Please enter a valid phone number");
    expect(first({ contactEmail: "front desk" })).toBe("Please enter a valid email address");
    expect(first({ brandColor: "red" })).toBe("Please choose a colour such as #4338ca");
    expect(first({ programs: [{ name: " " }] })).toBe("Every program needs a name");
  });

  it("leaves blanks blank, so the template shows its samples", () => {
    const parsed = profile({ tagline: " ", phone: "", contactEmail: "", brandColor: "" });
    expect(parsed.success && parsed.output).toMatchObject({
      tagline: "",
      phone: "",
      contactEmail: "",
      brandColor: "",
      programs: [],
      testimonials: [],
    });
  });
});

describe("an enquiry's phone number", () => {
  it("is kept as digits, to be dialled", () => {
    const parsed = v.safeParse(EnquiryInput, {
      name: "Asha",
      phone: "+91 98300-12345",
      email: "asha@example.com",
      program: "NEET UG",
      message: "",
      kind: "Enquire",
    });
    expect(parsed.success && parsed.output.phone).toBe("+919830012345");
  });
});
