/** Display formats shared by pages (client-safe). Money in the UI is rupees, shown the Indian way. */

const WHOLE = new Intl.NumberFormat("en-IN", { style: "currency", currency: "INR", maximumFractionDigits: 0 });
const PAISE = new Intl.NumberFormat("en-IN", {
  style: "currency",
  currency: "INR",
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

export function formatRupees(rupees: number): string {
  return Number.isInteger(rupees) ? WHOLE.format(rupees) : PAISE.format(rupees);
}

/** A content price: "Free" for 0. */
export function formatPrice(rupees: number): string {
  return rupees === 0 ? "Free" : formatRupees(rupees);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 100 ? Math.round(value) : Number(value.toFixed(1))} ${units[unit]}`;
}

/** The spec's dates: en-US short form. */
export function formatDate(iso: string | Date): string {
  return new Date(iso).toLocaleDateString("en-US", {
    month: "short",
    day: "numeric",
    year: "numeric",
    timeZone: "Asia/Kolkata",
  });
}

/**
 * "the 3 Year Plan", "the Professional plan": a plan's name in a sentence, without saying "plan"
 * twice when the name already ends with it.
 */
export function thePlan(name: string): string {
  return `the ${planTitle(name)}`;
}

/** "3 Year Plan", "Professional plan": a plan's name as a title, "plan" said once. */
export function planTitle(name: string): string {
  const trimmed = name.trim();
  return /\bplan$/i.test(trimmed) ? trimmed : `${trimmed} plan`;
}
