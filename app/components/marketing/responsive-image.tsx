/**
 * The artwork made by scripts/make-images.ts: AVIF first, WebP for older browsers, several
 * widths each. Only the first hero image is loaded eagerly and with high priority.
 */
export const HERO_WIDTHS = [640, 1024, 1600, 1920] as const;
export const ABOUT_WIDTHS = [480, 960] as const;

function srcSet(base: string, widths: readonly number[], ext: "avif" | "webp") {
  return widths.map((w) => `${base}-${w}.${ext} ${w}w`).join(", ");
}

export function ResponsiveImage({
  base,
  widths,
  sizes,
  width,
  height,
  alt,
  eager = false,
  className,
}: {
  /** e.g. /images/hero/hero-1 */
  base: string;
  widths: readonly number[];
  sizes: string;
  width: number;
  height: number;
  alt: string;
  eager?: boolean;
  className?: string;
}) {
  return (
    <picture>
      <source type="image/avif" srcSet={srcSet(base, widths, "avif")} sizes={sizes} />
      <source type="image/webp" srcSet={srcSet(base, widths, "webp")} sizes={sizes} />
      <img
        src={`${base}-${widths[Math.min(1, widths.length - 1)]}.webp`}
        alt={alt}
        width={width}
        height={height}
        sizes={sizes}
        loading={eager ? "eager" : "lazy"}
        decoding="async"
        fetchPriority={eager ? "high" : "auto"}
        className={className}
      />
    </picture>
  );
}
