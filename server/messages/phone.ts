/**
 * A phone number as typed into a form, in the E.164 form WhatsApp and SMS gateways take
 * (+919876543210), or null when it cannot be one. Ten digits starting 6–9 are an Indian mobile.
 */
export function e164(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const plus = raw.trim().startsWith("+");
  const digits = raw.replace(/\D/g, "");
  if (plus) return digits.length >= 8 && digits.length <= 15 ? `+${digits}` : null;
  const local = digits.replace(/^0+/, "");
  if (/^[6-9]\d{9}$/.test(local)) return `+91${local}`;
  if (/^91[6-9]\d{9}$/.test(local)) return `+${local}`;
  return null;
}
