import { describe, expect, it } from "vitest";
import { BasePage, MIN_RUN, OWN, pageDelta } from "./page-delta.ts";

/** The page made again from its runs: what an answer is composed from. */
function rebuilt(base: BasePage, runs: number[], own: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (let i = 0; i < runs.length; i += 2) {
    const [from, length] = [runs[i], runs[i + 1]];
    if (from === OWN) {
      parts.push(own.subarray(at, at + length));
      at += length;
    } else parts.push(base.bytes.subarray(from, from + length));
  }
  expect(at).toBe(own.length);
  return Buffer.concat(parts);
}

const markup = "<div class=\"card\"><p>The template's markup, the same for every institute.</p></div>";

describe("pageDelta", () => {
  it("writes a page as runs of its base and its own bytes, which make it again", () => {
    const base = new BasePage(Buffer.from(`<title>Alpha Classes</title>${markup.repeat(20)}<h1>Alpha Classes</h1>${markup}<a href="mailto:info@alpha.test">`));
    const page = Buffer.from(`<title>Beta Institute of Physics</title>${markup.repeat(20)}<h1>Beta Institute of Physics</h1>${markup}<a href="mailto:info@beta.test">`);
    const { runs, own } = pageDelta(base, page);
    expect(rebuilt(base, runs, own).equals(page)).toBe(true);
    expect(own.toString()).toContain("Beta");
    // Only the names and the host are its own.
    expect(own.length).toBeLessThan(80);
    for (let i = 0; i < runs.length; i += 2) if (runs[i] !== OWN) expect(runs[i + 1]).toBeGreaterThanOrEqual(MIN_RUN);
  });

  it("keeps a page that shares nothing, or is shorter than a window, as its own bytes", () => {
    const base = new BasePage(Buffer.from(markup.repeat(5)));
    for (const text of ["x".repeat(500), "tiny", ""]) {
      const page = Buffer.from(text);
      const { runs, own } = pageDelta(base, page);
      expect(own.equals(page)).toBe(true);
      expect(runs).toEqual(text ? [OWN, page.length] : []);
    }
  });

  it("makes again pages of random edits to their base, byte for byte", () => {
    let seed = 7;
    const random = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n);
    const original = Buffer.from(Array.from({ length: 4000 }, () => "<>abc de\"fg=/".charCodeAt(random(13))));
    const base = new BasePage(original);
    for (let round = 0; round < 50; round++) {
      let page = Buffer.from(original);
      for (let edit = 0; edit < 10; edit++) {
        const at = random(page.length);
        const inserted = Buffer.from("x".repeat(random(40)));
        page = Buffer.concat([page.subarray(0, at), inserted, page.subarray(at + random(40))]);
      }
      const { runs, own } = pageDelta(base, page);
      expect(rebuilt(base, runs, own).equals(page)).toBe(true);
    }
  });
});
