/**
 * The on-screen keypad of a numerical answer (mock-tests.md §2.5): digits, one decimal point, a
 * minus sign only in front, Backspace and Clear All. Typing (practice mode, accessibility) goes
 * through the same rules.
 */

export type KeypadKey = "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9" | "." | "-" | "backspace" | "clear";

export const MAX_NUMERIC_LENGTH = 15;

export function applyKey(value: string, key: KeypadKey): string {
  switch (key) {
    case "backspace":
      return value.slice(0, -1);
    case "clear":
      return "";
    case "-":
      return value === "" ? "-" : value;
    case ".":
      return value.includes(".") || value.length >= MAX_NUMERIC_LENGTH ? value : value + ".";
    default:
      return value.length >= MAX_NUMERIC_LENGTH ? value : value + key;
  }
}

/** What typed text becomes under the keypad's rules (a pasted "−1,5 m" becomes "-15"). */
export function sanitizeNumeric(typed: string): string {
  let value = "";
  for (const char of typed.replace(/\u2212/g, "-")) {
    if (/[0-9.-]/.test(char)) value = applyKey(value, char as KeypadKey);
  }
  return value;
}
