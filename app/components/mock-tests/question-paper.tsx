import type { AttemptQuestion, AttemptSection } from "#common/mock-tests/attempt.ts";
import { QUESTION_TYPE_NAMES } from "#common/mock-tests/marking-text.ts";
import { Dialog, DialogContent } from "~/components/ui/dialog";
import { optionLetter, Rendered, useRenderedQuestion, type ExamLanguage } from "./question-content";

/** One question of the paper, read-only. */
export function PaperQuestion({
  question,
  number,
  language,
  children,
}: {
  question: AttemptQuestion;
  number: number;
  language: ExamLanguage;
  children?: React.ReactNode;
}) {
  const rendered = useRenderedQuestion(question, language);
  return (
    <li className="grid gap-2 border-b pb-4 last:border-b-0" lang={question.hindi ? language : "en"}>
      <p className="text-sm font-semibold" lang="en">
        Question No. {number}{" "}
        <span className="font-normal text-muted-foreground">· {QUESTION_TYPE_NAMES[question.type]}</span>
      </p>
      <Rendered html={rendered.text} className="leading-relaxed" />
      {rendered.options && (
        <ol className="grid gap-1 pl-1">
          {rendered.options.map((html, index) => (
            <li key={index} className="flex gap-2">
              <span className="font-medium">({optionLetter(index)})</span>
              <Rendered html={html} inline />
            </li>
          ))}
        </ol>
      )}
      {children}
    </li>
  );
}

/** 'Question Paper': the current section's questions, read-only (mock-tests.md §2.2). */
export function QuestionPaperDialog({
  open,
  onOpenChange,
  section,
  firstNumber,
  language,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  section: AttemptSection;
  firstNumber: number;
  language: ExamLanguage;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title={`Question Paper — ${section.name}`} className="sm:max-w-3xl">
        <ol className="grid gap-4">
          {section.questions.map((question, index) => (
            <PaperQuestion key={question._id} question={question} number={firstNumber + index} language={language} />
          ))}
        </ol>
      </DialogContent>
    </Dialog>
  );
}
