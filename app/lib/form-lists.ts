/**
 * Reads indexed rows (`programs.0.name`, `programs.0.description`, …) from a form into an array,
 * skipping rows left entirely blank, so list editors work with or without JavaScript.
 */
export function readRows<K extends string>(form: FormData, prefix: string, keys: readonly K[]): Record<K, string>[] {
  const rows = new Map<number, Record<K, string>>();
  for (const [name, value] of form.entries()) {
    const match = new RegExp(`^${prefix}\\.(\\d{1,3})\\.(\\w+)$`).exec(name);
    if (!match || typeof value !== "string" || !keys.includes(match[2] as K)) continue;
    const index = Number(match[1]);
    const row = rows.get(index) ?? (Object.fromEntries(keys.map((k) => [k, ""])) as Record<K, string>);
    row[match[2] as K] = value;
    rows.set(index, row);
  }
  return [...rows.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, row]) => row)
    .filter((row) => keys.some((k) => row[k].trim() !== ""));
}
