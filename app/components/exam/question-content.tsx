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

/** The Markdown renderer's HTML (raw HTML in the source is already escaped, links checked). */
export function Rendered({ html, inline, className }: { html: string; inline?: boolean; className?: string }) {
  const Tag = inline ? "span" : "div";
  return <Tag className={cn("exam-rendered", className)} dangerouslySetInnerHTML={{ __html: html }} />;
}

/** Question text whose images open larger when clicked (mock-tests.md §2.2: zoomable images). */
export function ZoomableRendered({ html, className }: { html: string; className?: string }) {
  const [zoomed, setZoomed] = useState<{ src: string; alt: string } | null>(null);
  return (
    <>
      <div
        className={cn("exam-rendered [&_img]:max-w-full [&_img]:cursor-zoom-in", className)}
        onClick={(event) => {
          const target = event.target as HTMLElement;
          if (target instanceof HTMLImageElement)
            setZoomed({ src: target.currentSrc || target.src, alt: target.alt || "Figure" });
        }}
        dangerouslySetInnerHTML={{ __html: html }}
      />
      <Dialog open={zoomed !== null} onOpenChange={(open) => !open && setZoomed(null)}>
        {zoomed && (
          <DialogContent title={zoomed.alt} className="sm:max-w-[min(96vw,64rem)]">
            <img src={zoomed.src} alt={zoomed.alt} className="h-auto w-full" />
          </DialogContent>
        )}
      </Dialog>
    </>
  );
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
