import {
  QUESTION_STATES,
  QUESTION_STATE_LABELS,
  questionNumber,
  sectionCounts,
  stateOf,
  type ExamState,
  type QuestionRef,
} from "#common/mock-tests/exam-state.ts";
import { cn } from "~/lib/cn";
import { StateShape } from "./state-shape";

/** The legend with the current section's live counts, in the palette's shapes. */
export function PaletteLegend({ state }: { state: ExamState }) {
  const counts = sectionCounts(state, state.position.section);
  return (
    <ul className="grid grid-cols-2 gap-x-3 gap-y-2 text-xs" aria-label="Question states in this section">
      {QUESTION_STATES.map((s) => (
        <li key={s} className={cn("flex items-center gap-2", s === "answered-marked" && "col-span-2")}>
          <StateShape state={s} className="size-8">
            {counts[s]}
          </StateShape>
          <span>{QUESTION_STATE_LABELS[s]}</span>
        </li>
      ))}
    </ul>
  );
}

/** The numbered buttons of the current section (mock-tests.md §2.2: the current section only). */
export function PaletteButtons({ state, onGo }: { state: ExamState; onGo: (to: QuestionRef) => void }) {
  const { section: current, question: shown } = state.position;
  const section = state.sections[current];
  return (
    <nav aria-label={`${section.name} questions`}>
      <ol className="grid grid-cols-5 gap-2">
        {section.questions.map((question, index) => {
          const ref = { section: current, question: index };
          const number = questionNumber(state.sections, ref);
          const qState = stateOf(state, question._id);
          const isCurrent = index === shown;
          return (
            <li key={question._id}>
              <button
                type="button"
                onClick={() => onGo(ref)}
                aria-label={`Question ${number}, ${QUESTION_STATE_LABELS[qState]}`}
                aria-current={isCurrent ? "step" : undefined}
                className={cn(
                  "flex size-11 items-center justify-center rounded-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring",
                  isCurrent && "outline-2 outline-offset-2 outline-sky-600",
                )}
              >
                <StateShape state={qState} className="size-10">
                  {number}
                </StateShape>
              </button>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

/** The palette: legend, the section's name and its buttons. */
export function QuestionPalette({
  state,
  onGo,
  footer,
}: {
  state: ExamState;
  onGo: (to: QuestionRef) => void;
  footer?: React.ReactNode;
}) {
  return (
    <div className="grid content-start gap-4">
      <PaletteLegend state={state} />
      <div className="grid gap-2">
        <h2 className="rounded-md bg-sky-700 px-3 py-1.5 text-sm font-semibold text-white">
          {state.sections[state.position.section].name}
        </h2>
        <p className="text-xs text-muted-foreground">Choose a question</p>
        <PaletteButtons state={state} onGo={onGo} />
      </div>
      {footer}
    </div>
  );
}
