import { describe, expect, it } from "vitest";
import * as v from "valibot";
import { INVALID_PHONE, isPhoneNumber, optionalPhoneSchema, phoneNumberSchema, toE164 } from "./phone.ts";
import { PhoneSchema, PHONE_TEXTS } from "./phone-code.ts";
import { SettingsSchema, SETTINGS_TEXTS } from "./settings.ts";
import { SetupDetailsSchema } from "./setup.ts";
import { EnquiryInput, displayPhoneSchema } from "./enquiry.ts";
import { SeminarBookingInput } from "./seminar.ts";

const GOOD = [
  ["+91 98765 43210", "+919876543210"],
  ["98765 43210", "+919876543210"],
  ["098765-43210", "+919876543210"],
  ["(033) 2455 1234", "+913324551234"],
  ["+91 33 4000 1234", "+913340001234"],
  ["+1 415 555 2671", "+14155552671"],
  ["+44 20 7946 0958", "+442079460958"],
  ["+971 50 123 4567", "+971501234567"],
] as const;
// The walk's two, and others no one can be called on.
const BAD = ["+91 12345", "0000000000", "12", "98765", "+91 98765 43210 12345", "abc", "98765abc10", "+0 98765", ""];

describe("the one phone rule (libphonenumber-js)", () => {
  it("takes Indian numbers with or without +91, and international numbers with their code", () => {
    for (const [typed, e164] of GOOD) {
      expect(isPhoneNumber(typed), typed).toBe(true);
      expect(toE164(typed), typed).toBe(e164);
    }
  });

  it("refuses '+91 12345', '0000000000' and other numbers that are nobody's", () => {
    for (const typed of BAD) {
      expect(isPhoneNumber(typed), typed).toBe(false);
      expect(toE164(typed), typed).toBeNull();
    }
  });

  it("is the rule of every form and API that takes a phone, with each one's words", () => {
    const refused = (schema: v.GenericSchema, input: unknown) => {
      const result = v.safeParse(schema, input);
      return result.success ? null : result.issues[0].message;
    };
    for (const bad of ["+91 12345", "0000000000"]) {
      expect(refused(phoneNumberSchema(), bad)).toBe(INVALID_PHONE);
      expect(refused(optionalPhoneSchema(), bad)).toBe(INVALID_PHONE);
      expect(refused(displayPhoneSchema, bad)).toBe(INVALID_PHONE);
      expect(refused(PhoneSchema, { phone: bad })).toBe(PHONE_TEXTS.invalid);
      expect(refused(SettingsSchema, { supportPhone: bad })).toBe(SETTINGS_TEXTS.supportPhone);
      const setup = {
        brandName: "Sunrise",
        domainName: "sunrise.example.com",
        ownerName: "Asha",
        email: "a@example.com",
      };
      expect(refused(SetupDetailsSchema, { ...setup, phone: bad })).toBe(INVALID_PHONE);
      expect(refused(EnquiryInput, { name: "Ravi", phone: bad })).toBe(INVALID_PHONE);
      const seminar = {
        fullName: "Ravi",
        email: "ravi@example.com",
        phoneNumber: bad,
        city: "Kolkata",
        country: "India",
        date: "2099-09-13",
        time: "10:00 AM",
      };
      expect(v.safeParse(SeminarBookingInput, seminar).issues?.map((i) => i.message)).toContain(INVALID_PHONE);
    }
    expect(v.parse(optionalPhoneSchema(), "")).toBe("");
    expect(v.parse(displayPhoneSchema, "  +91   98300  12345 ")).toBe("+91 98300 12345");
    expect(v.parse(PhoneSchema, { phone: "+44 20 7946 0958" })).toEqual({ phone: "+44 20 7946 0958" });
  });
});
