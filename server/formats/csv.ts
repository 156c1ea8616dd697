/** Rows as CSV that Excel opens as they are: a BOM, CRLF line ends, formula-safe cells. */
export function toCsv(lines: string[][]): string {
  return "\ufeff" + lines.map((cells) => cells.map(csvCell).join(",")).join("\r\n") + "\r\n";
}

function csvCell(value: string): string {
  // A cell starting with = + - @ would run as a formula in a spreadsheet.
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
