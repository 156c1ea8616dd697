import type { ContentType } from "#common/validation/content.ts";

/** The four institute website designs. */
export const TEMPLATE_IDS = ["t1", "t2", "t3", "t4"] as const;
export type TemplateId = (typeof TEMPLATE_IDS)[number];

export function isTemplateId(value: unknown): value is TemplateId {
  return typeof value === "string" && (TEMPLATE_IDS as readonly string[]).includes(value);
}

export const TEMPLATE_INFO: Record<
  TemplateId,
  { name: string; description: string; swatch: [string, string, string] }
> = {
  t1: {
    name: "Template 1 · Heritage",
    description: "Classic and trustworthy: navy and gold, serif headings, a centred hero.",
    swatch: ["#1e3a5f", "#c9a227", "#f8f5ee"],
  },
  t2: {
    name: "Template 2 · Horizon",
    description: "Modern and confident: a dark split hero, teal accents, results up front.",
    swatch: ["#0f172a", "#14b8a6", "#ecfeff"],
  },
  t3: {
    name: "Template 3 · Spark",
    description: "Bold and energetic: big type, warm orange, chunky cards.",
    swatch: ["#c2410c", "#111827", "#fff7ed"],
  },
  t4: {
    name: "Template 4 · Calm",
    description: "Minimal and airy: cream paper, violet accents, a quiet timeline.",
    swatch: ["#6d28d9", "#f5f0e6", "#1f2937"],
  },
};

export interface Program {
  name: string;
  description?: string;
}

export interface Testimonial {
  name: string;
  text: string;
  result?: string;
}

export interface CatalogItem {
  id: string;
  title: string;
  description: string;
  /** Rupees; 0 is free. */
  price: number;
  type: ContentType;
  startsAt?: string | null;
  /** A test that opens later: when (ISO). */
  opensAt?: string | null;
  /** A test whose window has passed: shown as closed, no longer offered. */
  closed?: boolean;
  /** A series: how many tests it opens. */
  testCount?: number;
  /** False (else absent) for a paid item while the institute has no payment account connected: 'Not on sale yet'. */
  onSale?: false;
}

/** Everything a template renders: the institute's details, with the spec's samples as defaults. */
export interface SiteData {
  instituteName: string;
  tagline: string;
  address: string;
  phone: string;
  email: string;
  programs: Program[];
  testimonials: Testimonial[];
  logoUrl: string | null;
  /** A #rrggbb colour that replaces the template's accent. */
  brandColor: string | null;
  catalog: { live: CatalogItem[]; courses: CatalogItem[]; materials: CatalogItem[]; tests: CatalogItem[] };
}

/** Why Apply is refused without an active plan (spec §2 Templates), on the button and from the API. */
export const NEEDS_PLAN = "Purchase a plan to apply this template";
