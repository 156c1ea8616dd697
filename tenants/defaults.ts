import type { Program, SiteData, Testimonial } from "./types.ts";
import type { SiteLink } from "./shared/site-nav";

/** The spec's sample content, shown until the institute fills in its own. */
export const DEFAULT_PROGRAMS: Program[] = [
  {
    name: "JEE Main/Advanced",
    description: "Two-year and one-year classroom programmes for IIT-JEE with weekly tests and doubt sessions.",
  },
  {
    name: "NEET UG",
    description: "Biology, Chemistry and Physics for medical aspirants, with NCERT-first teaching and full mock tests.",
  },
  {
    name: "Boards IX–XII",
    description: "CBSE, ICSE and State Board coaching for classes IX to XII: concepts, practice and revision.",
  },
];

/**
 * Sample testimonials, with exam ranks no student of the institute earned: never shown to visitors
 * (issue 38 §6). The owner sees them in Website Details, marked as samples, and may confirm them
 * (they become the institute's own, to edit) or write their own; until then the site has none.
 */
export const DEFAULT_TESTIMONIALS: Testimonial[] = [
  {
    name: "Ananya Ghosh",
    result: "JEE Advanced AIR 1,284",
    text: "The faculty made Physics click for me. Weekly tests kept me honest and the doubt sessions were gold.",
  },
  {
    name: "Rohit Sen",
    result: "NEET UG 668/720",
    text: "Small batches and teachers who actually know your name. The mock tests felt exactly like the real exam.",
  },
  {
    name: "Meera Iyer",
    result: "CBSE XII 96.4%",
    text: "Clear notes, regular revision and a calm atmosphere. My Board preparation was never stressful.",
  },
];

/** The institute's programs, or the spec's samples while it lists none. */
export function shownPrograms(listed: Program[] | undefined): Program[] {
  return listed?.length ? listed : DEFAULT_PROGRAMS;
}

export function defaultTagline(instituteName: string, programs: Program[] = DEFAULT_PROGRAMS): string {
  return `${instituteName}: coaching for ${inWords(programFocus(programs))} that turns effort into results.`;
}

/**
 * What the institute coaches for, in a word per program ("JEE Main/Advanced" → "JEE"), at most
 * four: the templates' hero lines follow the programs the institute lists, not the samples.
 */
export function programFocus(programs: Program[]): string[] {
  const words = programs.map((program) => program.name.trim().split(/[\s/,]+/)[0]).filter(Boolean);
  return [...new Set(words)].slice(0, 4);
}

/** "JEE, NEET and Boards". */
export function inWords(items: string[]): string {
  return items.length < 2 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/** A template's links, without one to a section the site does not show (no testimonials yet). */
export function siteLinks(links: SiteLink[], data: Pick<SiteData, "testimonials">): SiteLink[] {
  return links.filter((l) => l.href !== "#testimonials" || data.testimonials.length > 0);
}
