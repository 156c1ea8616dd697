/** Text colour that stays readable on `hex` (WCAG relative luminance). */
export function onColor(hex: string): string {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return luminance > 0.4 ? "#111827" : "#ffffff";
}

/** The institute's colour replaces the template's accent (only a #rrggbb value ever gets here). */
export function brandStyle(brandColor: string | null): React.CSSProperties | undefined {
  if (!brandColor || !/^#[0-9a-f]{6}$/i.test(brandColor)) return undefined;
  return { ["--brand" as string]: brandColor, ["--brand-ink" as string]: brandColor, ["--on-brand" as string]: onColor(brandColor) };
}
