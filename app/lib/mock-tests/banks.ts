/** A question bank as the Tests area's pages offer it: "own" (the person's own) or an institute's id, and its name. */
export interface BankChoice {
  value: string;
  name: string;
}

/**
 * The bank a new question or an import goes to unless the person picks another: the one asked
 * for, if it is theirs; else their first institute's (an institute's tests are built from its
 * bank); else their own.
 */
export function defaultBank(banks: readonly BankChoice[], asked: string | null): string {
  if (asked && banks.some((b) => b.value === asked)) return asked;
  return (banks.find((b) => b.value !== "own") ?? banks[0])?.value ?? "own";
}
