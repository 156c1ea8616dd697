import { useId, useMemo, useState } from "react";
import type { AttemptQuestion } from "#common/mock-tests/attempt.ts";
import { renderInline, renderMarkdown } from "#common/mock-tests/render.ts";
import { Dialog, DialogContent } from "~/components/ui/dialog";
import { cn } from "~/lib/cn";

export type ExamLanguage = "en" | "hi";
export const LANGUAGE_NAMES: Record<ExamLanguage, string> = { en: "English", hi: "Hindi" };

/** A question's text and options in a language; English where it has no Hindi version. */
export function questionIn(question: AttemptQuestion, language: ExamLanguage): { text: string; options?: string[] } {
  if (language === "hi" && question.hindi)
    return { text: question.hindi.text, options: question.hindi.options ?? question.options };
  return { text: question.text, options: question.options };
}

/** (A), (B), … as on the paper and the OMR sheet. */
export function optionLetter(index: number): string {
  return String.fromCharCode(65 + index);
}

/** The question's text and options as HTML, rendered once per question and language. */
export function useRenderedQuestion(question: AttemptQuestion, language: ExamLanguage) {
  return useMemo(() => {
    const shown = questionIn(question, language);
    return { text: renderMarkdown(shown.text), options: shown.options?.map(renderInline) };
  }, [question, language]);
}

/**
 * The Markdown renderer's HTML (raw HTML in the source is already escaped, links checked). Its
 * figures fit the width (app.css) and open larger on tap (mock-tests.md §2.2: zoomable images),
 * in the question, its options and its solution alike; tapping a figure in an option opens it
 * without choosing the option.
 */
export function Rendered({ html, inline, className }: { html: string; inline?: boolean; className?: string }) {
  const [zoomed, setZoomed] = useState<{ src: string; alt: string; width: number } | null>(null);
  const Tag = inline ? "span" : "div";
  return (
    <>
      <Tag
        className={cn("exam-rendered", className)}
        onClick={(event) => {
          const target = event.target as HTMLElement;
          if (!(target instanceof HTMLImageElement)) return;
          event.preventDefault();
          event.stopPropagation();
          setZoomed({ src: target.currentSrc || target.src, alt: target.alt || "Figure", width: target.naturalWidth });
        }}
        dangerouslySetInnerHTML={{ __html: html }}
      />
      {zoomed && (
        <Dialog open onOpenChange={(open) => !open && setZoomed(null)}>
          {/* React passes a portal's events to its parents: they must not reach an option's label. */}
          <span onClick={(event) => event.stopPropagation()}>
            <DialogContent
              title={zoomed.alt}
              className="w-[calc(100vw-1rem)] max-w-none p-3 sm:max-w-[min(96vw,64rem)]"
            >
              {/* At its own size (at least the dialog's width): on a phone the student pans across it. */}
              <div className="max-h-[78vh] overflow-auto overscroll-contain">
                <img
                  src={zoomed.src}
                  alt={zoomed.alt}
                  style={{ width: zoomed.width || undefined }}
                  className="h-auto min-w-full max-w-none"
                />
              </div>
            </DialogContent>
          </span>
        </Dialog>
      )}
    </>
  );
}

/** Question text with zoomable figures (every Rendered is: kept for its callers). */
export function ZoomableRendered({ html, className }: { html: string; className?: string }) {
  return <Rendered html={html} className={className} />;
}

/** The language switch of the question paper (mock-tests.md §2: "View in"). */
export function ViewIn({
  language,
  onLanguage,
  className,
}: {
  language: ExamLanguage;
  onLanguage: (language: ExamLanguage) => void;
  className?: string;
}) {
  const id = useId();
  return (
    <div className={cn("flex items-center gap-2 text-sm", className)}>
      <label htmlFor={id}>View in</label>
      <select
        id={id}
        value={language}
        onChange={(event) => onLanguage(event.target.value as ExamLanguage)}
        className="h-9 rounded-md border border-input bg-background px-2"
      >
        {(Object.keys(LANGUAGE_NAMES) as ExamLanguage[]).map((code) => (
          <option key={code} value={code}>
            {LANGUAGE_NAMES[code]}
          </option>
        ))}
      </select>
    </div>
  );
}
