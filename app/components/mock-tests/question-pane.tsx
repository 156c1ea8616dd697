import { useId } from "react";
import type { AttemptAnswer, AttemptQuestion, PracticeSolution } from "#common/mock-tests/attempt.ts";
import type { MarkingRule } from "#common/mock-tests/marking.ts";
import { formatMarks, QUESTION_TYPE_NAMES } from "#common/mock-tests/marking-text.ts";
import { cn } from "~/lib/cn";
import { NumericAnswer } from "./numeric-answer";
import {
  optionLetter,
  Rendered,
  useRenderedQuestion,
  ViewIn,
  ZoomableRendered,
  type ExamLanguage,
} from "./question-content";

/** The question on screen: number, type and marks, the language switch, the text and the answer. */
export function QuestionPane({
  question,
  number,
  marking,
  draft,
  onDraft,
  language,
  onLanguage,
  keyboard,
  locked,
  checked,
}: {
  question: AttemptQuestion;
  number: number;
  marking?: MarkingRule;
  /** Practice mode once the answer is checked: the correct options, and whether the choice was wrong. */
  checked?: PracticeSolution;
  draft: AttemptAnswer;
  onDraft: (answer: AttemptAnswer) => void;
  language: ExamLanguage;
  onLanguage: (language: ExamLanguage) => void;
  /** The physical keyboard types numerical answers (practice mode). */
  keyboard: boolean;
  /** Practice mode after the solution is shown: the answer cannot change. */
  locked?: boolean;
}) {
  const languageId = useId();
  const shownLanguage = question.hindi ? language : "en";
  const rendered = useRenderedQuestion(question, shownLanguage);
  return (
    <article aria-labelledby={`${languageId}-title`} className="grid content-start gap-4" lang={shownLanguage}>
      <header className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 border-b pb-3" lang="en">
        <div className="flex flex-wrap items-baseline gap-x-4 gap-y-1">
          <h2 id={`${languageId}-title`} className="text-lg font-semibold">
            Question No. {number}
          </h2>
          <span className="text-sm text-muted-foreground">{QUESTION_TYPE_NAMES[question.type]}</span>
          {marking && (
            <span className="text-sm">
              Marks:{" "}
              <span className="font-medium text-green-700 dark:text-green-400">{formatMarks(marking.correct)}</span>
              {" / "}
              <span className="font-medium text-red-700 dark:text-red-400">{formatMarks(marking.incorrect)}</span>
            </span>
          )}
        </div>
        {question.hindi && <ViewIn language={language} onLanguage={onLanguage} />}
      </header>
      <ZoomableRendered html={rendered.text} className="prose-exam text-base leading-relaxed" />
      {question.type === "numerical" ? (
        <NumericAnswer
          key={question._id}
          value={typeof draft === "string" ? draft : ""}
          onChange={(value) => onDraft(value === "" ? null : value)}
          keyboard={keyboard}
          disabled={locked}
        />
      ) : (
        <OptionList
          question={question}
          number={number}
          options={rendered.options ?? []}
          draft={draft}
          onDraft={onDraft}
          locked={locked}
          checked={checked}
        />
      )}
    </article>
  );
}

/** Radio buttons (one correct) or checkboxes (one or more); clicking a chosen radio again unchooses it. */
function OptionList({
  question,
  number,
  options,
  draft,
  onDraft,
  locked,
  checked,
}: {
  question: AttemptQuestion;
  number: number;
  options: string[];
  draft: AttemptAnswer;
  onDraft: (answer: AttemptAnswer) => void;
  locked?: boolean;
  checked?: PracticeSolution;
}) {
  const multiple = question.type === "multiple";
  const chosen = new Set(Array.isArray(draft) ? draft : typeof draft === "number" ? [draft] : []);
  const key = checked?.correctAnswer;
  const keyed = new Set(Array.isArray(key) ? (key as number[]) : typeof key === "number" ? [key] : []);
  const mark = (index: number): "correct" | "wrong" | null =>
    !checked || checked.outcome === "dropped"
      ? null
      : keyed.has(index)
        ? "correct"
        : chosen.has(index)
          ? "wrong"
          : null;
  const toggle = (index: number) => {
    if (!multiple) return onDraft(chosen.has(index) ? null : index);
    const next = chosen.has(index) ? [...chosen].filter((i) => i !== index) : [...chosen, index];
    onDraft(next.length ? next.sort((a, b) => a - b) : null);
  };
  return (
    <fieldset className="grid gap-2" disabled={locked}>
      <legend className="sr-only">
        {multiple ? `Choose one or more options for question ${number}` : `Choose one option for question ${number}`}
      </legend>
      {options.map((html, index) => (
        <label
          key={index}
          className={cn(
            "flex cursor-pointer items-start gap-3 rounded-lg border p-3 hover:bg-muted/50",
            chosen.has(index) && !mark(index) && "border-sky-600 bg-sky-50 dark:bg-sky-950/40",
            mark(index) === "correct" && "border-2 border-green-700 bg-green-50 dark:bg-green-950/40",
            mark(index) === "wrong" && "border-2 border-red-700 bg-red-50 dark:bg-red-950/40",
          )}
          data-mark={mark(index) ?? undefined}
        >
          <input
            type={multiple ? "checkbox" : "radio"}
            name={`answer-${question._id}`}
            value={index}
            checked={chosen.has(index)}
            onChange={() => {}}
            onClick={() => toggle(index)}
            className="mt-1 size-4 shrink-0 accent-sky-700"
          />
          <span className="font-medium">({optionLetter(index)})</span>
          <Rendered html={html} inline className="min-w-0 flex-1" />
          {mark(index) === "wrong" && (
            <span className="shrink-0 text-xs font-semibold text-red-700 dark:text-red-400">Your answer: wrong</span>
          )}
          {mark(index) === "correct" && (
            <span className="shrink-0 text-xs font-semibold text-green-800 dark:text-green-400">
              {chosen.has(index) ? "Your answer: correct" : "Correct answer"}
            </span>
          )}
        </label>
      ))}
    </fieldset>
  );
}
