/** WCAG relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two #rrggbb colours (1 to 21). */
export function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

/** WCAG AA for body text. */
export const READABLE = 4.5;

/** The darkest page background of the four templates: brand-coloured text must read on it. */
const DARKEST_PAPER = "#f7f3ea";

/**
 * Text colour for buttons and bands filled with `hex`: white, the templates' near-black, or black,
 * the first that reads on it (one of them always does).
 */
export function onColor(hex: string): string {
  const choices = ["#ffffff", "#111827", "#000000"];
  return choices.find((text) => contrast(text, hex) >= READABLE) ?? "#000000";
}

/** `hex` for links and headings on the page: as chosen when it reads there, else darkened until it does. */
export function inkFor(hex: string): string {
  const channels = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  for (let keep = 1; keep > 0; keep -= 0.05) {
    const ink = `#${channels
      .map((c) =>
        Math.round(c * keep)
          .toString(16)
          .padStart(2, "0"),
      )
      .join("")}`;
    if (contrast(ink, DARKEST_PAPER) >= READABLE) return ink;
  }
  return "#000000";
}

/** The institute's colour replaces the template's accent (only a #rrggbb value ever gets here). */
export function brandStyle(brandColor: string | null): React.CSSProperties | undefined {
  if (!brandColor || !/^#[0-9a-f]{6}$/i.test(brandColor)) return undefined;
  const brand = brandColor.toLowerCase();
  return {
    ["--brand" as string]: brand,
    ["--brand-ink" as string]: inkFor(brand),
    ["--on-brand" as string]: onColor(brand),
  };
}
