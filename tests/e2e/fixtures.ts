import { test as base } from "@playwright/test";

export { expect, type Browser, type Page } from "@playwright/test";

let visitors = 0;
let phones = 0;

/**
 * An Indian mobile number of this test's own ("+91 9xxxx xxxxx"): messages to one number are
 * limited per day, so tests that shared one held back each other's messages.
 */
export function ownMobile(): string {
  phones += 1;
  const digits =
    `${process.pid % 10_000}`.padStart(4, "0") +
    `${Date.now() % 1000}`.padStart(3, "0") +
    `${phones % 100}`.padStart(2, "0");
  return `+91 9${digits.slice(0, 4)} ${digits.slice(4)}`;
}

/**
 * Each test's browser comes from an address of its own, as real visitors do: the server runs as
 * behind the deploy's proxy (TRUST_PROXY) and reads the address from X-Forwarded-For, so the
 * per-address limits (sign-ups, sign-ins, bookings, enquiries) count each test apart instead of
 * the whole suite as one visitor.
 */
export const test = base.extend({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
  extraHTTPHeaders: async ({}, use, testInfo) => {
    visitors += 1;
    await use({ "x-forwarded-for": `10.${testInfo.workerIndex % 250}.${(visitors >> 8) & 255}.${visitors & 255}` });
  },
});
