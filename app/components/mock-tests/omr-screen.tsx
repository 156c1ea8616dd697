import { useState } from "react";
import { ClipboardList } from "lucide-react";
import type { AttemptAnswer, AttemptQuestion } from "#common/mock-tests/attempt.ts";
import { isAnswered, questionNumber, type ExamState } from "#common/mock-tests/exam-state.ts";
import { sanitizeNumeric } from "~/lib/mock-tests/keypad";
import { cn } from "~/lib/cn";
import { Drawer } from "./drawer";
import { ExamHeader, TimeAlertBanner } from "./exam-header";
import { PaperQuestion } from "./question-paper";
import { optionLetter, ViewIn } from "./question-content";
import type { ExamSession } from "./use-exam-session";

/** The answer after a bubble is pressed: filled if it was empty, emptied if it was filled. */
export function toggleBubble(question: AttemptQuestion, answer: AttemptAnswer, option: number): AttemptAnswer {
  if (question.type === "multiple") {
    const chosen = Array.isArray(answer) ? answer : [];
    const next = chosen.includes(option) ? chosen.filter((i) => i !== option) : [...chosen, option];
    return next.length ? next.sort((a, b) => a - b) : null;
  }
  return answer === option ? null : option;
}

function filled(answer: AttemptAnswer, option: number): boolean {
  return Array.isArray(answer) ? answer.includes(option) : answer === option;
}

/** One row of the sheet: the question's number and its bubbles (or a box for a numerical answer). */
function SheetRow({
  question,
  number,
  answer,
  onAnswer,
}: {
  question: AttemptQuestion;
  number: number;
  answer: AttemptAnswer;
  onAnswer: (answer: AttemptAnswer) => void;
}) {
  const [typed, setTyped] = useState<string | null>(null);
  const optionCount = question.options?.length ?? 0;
  return (
    <li className="flex items-center gap-3 py-1">
      <span className="w-9 text-right text-sm font-semibold tabular-nums">{number}</span>
      {question.type === "numerical" ? (
        <input
          type="text"
          inputMode="decimal"
          aria-label={`Question ${number}, your answer`}
          value={typed ?? (typeof answer === "string" ? answer : "")}
          onChange={(event) => setTyped(sanitizeNumeric(event.target.value))}
          onBlur={() => {
            if (typed !== null) onAnswer(typed === "" ? null : typed);
            setTyped(null);
          }}
          onKeyDown={(event) => event.key === "Enter" && (event.target as HTMLInputElement).blur()}
          className="h-9 w-32 rounded-md border border-input bg-background px-2 tabular-nums"
        />
      ) : (
        <div className="flex gap-2" role="group" aria-label={`Question ${number}`}>
          {Array.from({ length: optionCount }, (_, option) => {
            const on = filled(answer, option);
            return (
              <button
                key={option}
                type="button"
                aria-pressed={on}
                aria-label={`Question ${number}, option ${optionLetter(option)}`}
                onClick={() => onAnswer(toggleBubble(question, answer, option))}
                className={cn(
                  "flex size-8 items-center justify-center rounded-full border-2 text-xs font-semibold",
                  "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring",
                  on
                    ? "border-slate-900 bg-slate-900 text-white dark:border-slate-100 dark:bg-slate-100 dark:text-slate-900"
                    : "border-slate-500 bg-white text-slate-700 hover:bg-slate-100 dark:bg-slate-900 dark:text-slate-200",
                )}
              >
                {optionLetter(option)}
              </button>
            );
          })}
        </div>
      )}
    </li>
  );
}

/** The bubble sheet: every question of the paper, each bubble saved as it is filled. */
export function BubbleSheet({
  state,
  onAnswer,
}: {
  state: ExamState;
  onAnswer: (questionId: string, answer: AttemptAnswer) => void;
}) {
  const answered = Object.values(state.saved).filter((r) => isAnswered(r.answer)).length;
  const total = state.sections.reduce((n, s) => n + s.questions.length, 0);
  return (
    <div className="grid gap-4">
      <p className="text-sm text-muted-foreground">
        {answered} of {total} answered
      </p>
      {state.sections.map((section, s) => (
        <section key={section.name} aria-label={`${section.name} answers`}>
          <h3 className="mb-1 text-sm font-semibold">{section.name}</h3>
          <ol>
            {section.questions.map((question, q) => (
              <SheetRow
                key={question._id}
                question={question}
                number={questionNumber(state.sections, { section: s, question: q })}
                answer={state.saved[question._id]?.answer ?? null}
                onAnswer={(answer) => onAnswer(question._id, answer)}
              />
            ))}
          </ol>
        </section>
      ))}
    </div>
  );
}

/**
 * NEET's OMR mode (mock-tests.md §2): the paper as a booklet to scroll, and a bubble sheet with the
 * question's bubbles, filled or not. There are no per-question save states: every bubble is saved
 * as it is filled or emptied.
 */
export function OmrScreen({ session, onSubmitClick }: { session: ExamSession; onSubmitClick: () => void }) {
  const { attempt, state, dispatch } = session;
  const [sheetOpen, setSheetOpen] = useState(false);
  const hasHindi = state.sections.some((s) => s.questions.some((q) => q.hindi));
  const onAnswer = (questionId: string, answer: AttemptAnswer) => dispatch({ type: "answer", questionId, answer });
  const submitButton = (
    <button
      type="button"
      onClick={onSubmitClick}
      className="inline-flex h-9 items-center rounded-md border border-green-800 bg-green-700 px-4 text-sm font-semibold text-white hover:bg-green-800"
    >
      SUBMIT
    </button>
  );
  return (
    <div className="flex h-dvh flex-col bg-background text-foreground">
      <ExamHeader title={attempt.title} candidate={attempt.candidate} msLeft={session.msLeft} status={session.status}>
        <button
          type="button"
          onClick={() => setSheetOpen(true)}
          className="inline-flex items-center gap-2 rounded-md border px-3 py-1.5 text-sm font-medium lg:hidden"
        >
          <ClipboardList className="size-4" aria-hidden /> Answer sheet
        </button>
        {submitButton}
      </ExamHeader>
      {session.alert !== null && <TimeAlertBanner minutes={session.alert} onDismiss={session.dismissAlert} />}
      <div className="flex min-h-0 flex-1">
        <main className="min-w-0 flex-1 overflow-y-auto p-4 sm:p-6" aria-label="Test booklet">
          {hasHindi && <ViewIn language={session.language} onLanguage={session.setLanguage} className="mb-4" />}
          {state.sections.map((section, s) => (
            <section key={section.name} className="mb-8" aria-labelledby={`booklet-${s}`}>
              <h2 id={`booklet-${s}`} className="mb-3 rounded-md bg-muted px-3 py-2 font-semibold">
                {section.name}
              </h2>
              <ol className="grid gap-4">
                {section.questions.map((question, q) => (
                  <PaperQuestion
                    key={question._id}
                    question={question}
                    number={questionNumber(state.sections, { section: s, question: q })}
                    language={session.language}
                  />
                ))}
              </ol>
            </section>
          ))}
        </main>
        <aside aria-label="Answer sheet" className="hidden w-80 shrink-0 overflow-y-auto border-l bg-card p-4 lg:block">
          <h2 className="mb-2 font-semibold">Answer sheet</h2>
          <BubbleSheet state={state} onAnswer={onAnswer} />
        </aside>
      </div>
      <Drawer open={sheetOpen} onOpenChange={setSheetOpen} title="Answer sheet">
        <BubbleSheet state={state} onAnswer={onAnswer} />
      </Drawer>
    </div>
  );
}
