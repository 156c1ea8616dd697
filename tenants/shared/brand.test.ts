import { describe, expect, it } from "vitest";
import { TEMPLATES } from "../index";
import { TEMPLATE_IDS } from "../types";
import { READABLE, brandStyle, contrast, inkFor, onColor } from "./brand";

/** A template's own colours, from the `.tN{--name:#rrggbb;…}` rule of its stylesheet. */
function colours(id: string): Record<string, string> {
  const rule = new RegExp(`\\.${id}\\{([^}]*)\\}`).exec(TEMPLATES[id as keyof typeof TEMPLATES].css)![1];
  const hex = (value: string) => (value === "#fff" ? "#ffffff" : value);
  return Object.fromEntries(
    [...rule.matchAll(/--([\w-]+):(#[0-9a-f]{3,6})\b/gi)].map(([, name, value]) => [name, hex(value)]),
  );
}

/** Every 17th step of each channel: 4,096 colours an institute might pick. */
const PICKS = Array.from(
  { length: 16 ** 3 },
  (_, n) => `#${[n >> 8, (n >> 4) & 15, n & 15].map((c) => (c * 17).toString(16).padStart(2, "0")).join("")}`,
);

describe("the templates' colours read as WCAG AA asks (4.5:1)", () => {
  it.each(TEMPLATE_IDS)("%s: button text on its accent, body, muted and accent text on its paper", (id) => {
    const c = colours(id);
    expect(contrast(c["on-brand"], c.brand)).toBeGreaterThanOrEqual(READABLE);
    for (const text of ["ink", "muted", "brand-ink"])
      expect(contrast(c[text], c.paper), text).toBeGreaterThanOrEqual(READABLE);
  });
});

describe("an institute's own brand colour", () => {
  it("gets button text that reads on it, whatever the colour", () => {
    for (const pick of PICKS) expect(contrast(onColor(pick), pick), pick).toBeGreaterThanOrEqual(READABLE);
    expect(onColor("#be123c")).toBe("#ffffff");
    expect(onColor("#facc15")).toBe("#111827");
  });

  it("is kept for text when it reads on the page, and darkened only as far as it must be otherwise", () => {
    for (const pick of PICKS) expect(contrast(inkFor(pick), "#f7f3ea"), pick).toBeGreaterThanOrEqual(READABLE);
    expect(inkFor("#be123c")).toBe("#be123c");
    const yellow = inkFor("#facc15");
    expect(yellow).not.toBe("#000000");
    expect(contrast(yellow, "#f7f3ea")).toBeLessThan(READABLE + 1);
  });

  it("is set on the site as accent, text and button-text colours", () => {
    expect(brandStyle("#FACC15")).toEqual({
      "--brand": "#facc15",
      "--brand-ink": inkFor("#facc15"),
      "--on-brand": "#111827",
    });
    expect(brandStyle("red")).toBeUndefined();
    expect(brandStyle(null)).toBeUndefined();
  });
});
