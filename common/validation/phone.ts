/**
 * The product's one phone rule (spec, seminar booking; also the setup wizard and enquiries):
 * after removing spaces, dashes and parentheses, an optional +, a non-zero digit, then 1 to 14 digits.
 */
export const INVALID_PHONE = "Please enter a valid phone number";

export const phoneDigits = (value: string) => value.replace(/[\s\-()]/g, "");

export function isPhoneNumber(value: string): boolean {
  return /^\+?[1-9]\d{1,14}$/.test(phoneDigits(value));
}

/**
 * An institute's listed number, shown on its site: at least 6 digits, and in national form too
 * (a landline with its STD code, "(033) 2455 1234").
 */
export function isListedPhone(value: string): boolean {
  return /^(?:\+?[1-9]\d{5,14}|0\d{6,14})$/.test(phoneDigits(value));
}

/**
 * A number a visitor can be called back on (an enquiry's only required contact): the product's
 * rule, and at least 6 digits, since "12" passes the rule but is nobody's number.
 */
export function isCallablePhone(value: string): boolean {
  return isPhoneNumber(value) && phoneDigits(value).replace(/^\+/, "").length >= 6;
}
