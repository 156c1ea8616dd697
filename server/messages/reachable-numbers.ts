import { parsePhoneNumberFromString } from "libphonenumber-js/max";

/**
 * Which numbers WhatsApp and SMS may go to. A number a visitor or an account typed is a way to
 * make us pay for messages (SMS pumping: premium-rate and international numbers share the fee),
 * so only mobile numbers get them: Indian ones always, others only for an institute whose owner
 * switched them on. Premium-rate, shared-cost, toll-free, VoIP, pager and other non-mobile
 * numbers never do, wherever they are. The number's kind comes from libphonenumber's full metadata.
 */

export const NUMBER_TEXTS = {
  notMobile: "Not a mobile number: WhatsApp and SMS go only to mobile numbers",
  outsideIndia: "Outside India: WhatsApp and SMS go only to Indian mobile numbers",
  outsideIndiaForInstitute:
    "Outside India: this institute sends WhatsApp and SMS to Indian mobile numbers only (Website Details)",
} as const;

const MOBILE_KINDS = new Set(["MOBILE", "FIXED_LINE_OR_MOBILE"]);

/**
 * Why a number (E.164) may not get WhatsApp or SMS, or null when it may. `international` is the
 * institute's choice; `forInstitute` says whether an institute could make it (the platform's own
 * messages go to Indian numbers only).
 */
export function unreachableNumber(
  number: string,
  { international, forInstitute }: { international: boolean; forInstitute: boolean },
): string | null {
  const parsed = parsePhoneNumberFromString(number);
  if (!parsed || !parsed.isValid() || !MOBILE_KINDS.has(parsed.getType() ?? "")) return NUMBER_TEXTS.notMobile;
  if (parsed.country === "IN" || international) return null;
  return forInstitute ? NUMBER_TEXTS.outsideIndiaForInstitute : NUMBER_TEXTS.outsideIndia;
}
