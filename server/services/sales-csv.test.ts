import { describe, expect, it } from "vitest";
import { salesCsv } from "./sales-csv.ts";

describe("salesCsv", () => {
  it("writes a header and one line per content, quoting and defusing formulas", () => {
    const csv = salesCsv([
      { contentId: "a", title: 'Physics, "Live"', totalSales: 3, totalEarnings: 1497 },
      { contentId: "b", title: "=HYPERLINK(1)", totalSales: 0, totalEarnings: 0 },
    ]);
    expect(csv).toBe(
      '\ufeffTitle,Orders,Earnings (INR)\r\n"Physics, ""Live""",3,1497.00\r\n\'=HYPERLINK(1),0,0.00\r\n',
    );
  });
});
