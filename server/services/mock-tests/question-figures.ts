import type { QuestionJson } from "#common/mock-tests/question.ts";
import { QUESTION_IMAGE_PATH } from "#common/mock-tests/render.ts";

/**
 * Figures named in an imported question's Markdown (`![alt](target)`, or `![alt](<a name.png>)`
 * for a name with spaces): a file of the ZIP the sheet came in, an http(s) address fetched once
 * at import, or an image this server already keeps. The import replaces each with the address
 * of the copy it stored (QuestionImageService).
 */

const FIGURE = /!\[([^\]]*)\]\(\s*(?:<([^>\n]+)>|([^)\s]+))(\s+"[^"\n]*")?\s*\)/g;

export const isRemoteFigure = (target: string) => /^https?:\/\//i.test(target);
export const isStoredFigure = (target: string) => QUESTION_IMAGE_PATH.test(target);

/** The Markdown fields of a question: its text, options, solution and their Hindi versions. */
function mapTexts(question: QuestionJson, map: (text: string) => string): QuestionJson {
  return {
    ...question,
    text: map(question.text),
    options: question.options?.map(map),
    solution: question.solution === undefined ? undefined : map(question.solution),
    hindi: question.hindi && {
      ...question.hindi,
      text: map(question.hindi.text),
      options: question.hindi.options?.map(map),
    },
  };
}

/** Every figure target the question names, in order, once each. */
export function figureTargets(question: QuestionJson): string[] {
  const found = new Set<string>();
  mapTexts(question, (text) => {
    for (const match of text.matchAll(FIGURE)) found.add((match[2] ?? match[3]).trim());
    return text;
  });
  return [...found];
}

/** The question with each figure's target replaced by `replace(target)` (kept where it answers undefined). */
export function replaceFigures(question: QuestionJson, replace: (target: string) => string | undefined): QuestionJson {
  return mapTexts(question, (text) =>
    text.replace(FIGURE, (whole, alt: string, bracketed: string | undefined, plain: string | undefined) => {
      const url = replace((bracketed ?? plain ?? "").trim());
      return url === undefined ? whole : `![${alt}](${url})`;
    }),
  );
}
