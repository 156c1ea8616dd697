import { useEffect, useRef, useState } from "react";
import { FileText, LayoutGrid, PanelRightClose, PanelRightOpen } from "lucide-react";
import {
  currentQuestion,
  isAnswered,
  isFirstQuestion,
  isLastQuestion,
  questionNumber,
  type ExamAction,
} from "#common/mock-tests/exam-state.ts";
import { cn } from "~/lib/cn";
import { ActionBar, type ExamCommand } from "./action-bar";
import { Drawer } from "./drawer";
import { ExamHeader, TimeAlertBanner } from "./exam-header";
import { QuestionPalette } from "./palette";
import { QuestionPane } from "./question-pane";
import { QuestionPaperDialog } from "./question-paper";
import { SectionTabs } from "./section-tabs";
import { SolutionPanel } from "./solution-panel";
import type { ExamSession } from "./use-exam-session";

const COMMANDS: Record<Exclude<ExamCommand, "submit">, ExamAction> = {
  "save-next": { type: "save", mark: false, then: "next" },
  "save-mark": { type: "save", mark: true, then: "next" },
  check: { type: "save", mark: false, then: "stay" },
  clear: { type: "clear" },
  "mark-next": { type: "mark-next" },
  back: { type: "back" },
  next: { type: "next" },
};

/**
 * The NTA computer-based screen (mock-tests.md §2.2): header with the countdown, section tabs,
 * the question on the left, the palette on the right (collapsible; a drawer on a phone), the
 * action bar below. Practice mode is the same screen with the solution after each check.
 */
export function CbtScreen({ session, onSubmitClick }: { session: ExamSession; onSubmitClick: () => void }) {
  const { attempt, state, dispatch } = session;
  const practice = attempt.mode === "practice";
  const [paletteShown, setPaletteShown] = useState(true);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [paperOpen, setPaperOpen] = useState(false);
  const mainRef = useRef<HTMLElement>(null);

  const question = currentQuestion(state);
  const section = state.sections[state.position.section];
  const number = questionNumber(state.sections, state.position);
  const locked = practice && isAnswered(state.saved[question._id]?.answer ?? null);
  const solution = session.solutions[question._id];

  useEffect(() => {
    mainRef.current?.scrollTo?.({ top: 0 });
  }, [question._id]);

  const onCommand = (command: ExamCommand) => {
    if (command === "submit") onSubmitClick();
    else dispatch(COMMANDS[command]);
  };
  const goAndClose: typeof dispatch = (action) => {
    dispatch(action);
    setDrawerOpen(false);
  };

  const paletteFooter = (
    <button
      type="button"
      onClick={() => setPaperOpen(true)}
      className="inline-flex items-center justify-center gap-2 rounded-md border border-slate-400 px-3 py-2 text-sm font-medium hover:bg-muted"
    >
      <FileText className="size-4" aria-hidden /> Question Paper
    </button>
  );

  return (
    <div className="flex h-dvh flex-col bg-background text-foreground">
      <ExamHeader title={attempt.title} candidate={attempt.candidate} msLeft={session.msLeft} status={session.status}>
        <button
          type="button"
          onClick={() => setDrawerOpen(true)}
          className="inline-flex items-center gap-2 rounded-md border px-3 py-1.5 text-sm font-medium lg:hidden"
        >
          <LayoutGrid className="size-4" aria-hidden /> Questions
        </button>
      </ExamHeader>
      {session.alert !== null && <TimeAlertBanner minutes={session.alert} onDismiss={session.dismissAlert} />}
      <SectionTabs state={state} onSection={(index) => dispatch({ type: "section", section: index })} />

      <div className="flex min-h-0 flex-1">
        <main ref={mainRef} className="min-w-0 flex-1 overflow-y-auto p-4 sm:p-6">
          <QuestionPane
            question={question}
            number={number}
            marking={section.marking[question.type]}
            draft={state.draft}
            onDraft={(answer) => dispatch({ type: "draft", answer })}
            language={session.language}
            onLanguage={session.setLanguage}
            keyboard={practice}
            locked={locked}
            checked={practice && solution?.kind === "shown" ? solution.solution : undefined}
          />
          {practice && solution && (
            <div className="mt-4">
              <SolutionPanel question={question} state={solution} />
            </div>
          )}
        </main>

        <aside
          aria-label="Question palette"
          className={cn("relative hidden shrink-0 border-l bg-card lg:flex", paletteShown ? "w-80" : "w-0")}
        >
          <button
            type="button"
            onClick={() => setPaletteShown((shown) => !shown)}
            aria-expanded={paletteShown}
            aria-controls="exam-palette"
            aria-label={paletteShown ? "Hide the question palette" : "Show the question palette"}
            className="absolute left-0 top-1/2 z-10 flex h-14 w-6 -translate-x-full -translate-y-1/2 items-center justify-center rounded-l-md border border-r-0 bg-card text-muted-foreground hover:text-foreground"
          >
            {paletteShown ? (
              <PanelRightClose className="size-4" aria-hidden />
            ) : (
              <PanelRightOpen className="size-4" aria-hidden />
            )}
          </button>
          <div id="exam-palette" hidden={!paletteShown} className="w-80 overflow-y-auto p-4">
            <QuestionPalette state={state} onGo={(to) => dispatch({ type: "go", to })} footer={paletteFooter} />
          </div>
        </aside>
      </div>

      {session.notice && (
        <p
          role="status"
          className="border-t bg-amber-50 px-4 py-2 text-sm text-amber-950 dark:bg-amber-950 dark:text-amber-100"
        >
          {session.notice}
        </p>
      )}
      <ActionBar
        practice={practice}
        onCommand={onCommand}
        canBack={!isFirstQuestion(state)}
        canNext={!isLastQuestion(state)}
        locked={locked}
      />

      <Drawer open={drawerOpen} onOpenChange={setDrawerOpen} title="Question palette">
        <QuestionPalette state={state} onGo={(to) => goAndClose({ type: "go", to })} footer={paletteFooter} />
      </Drawer>
      <QuestionPaperDialog
        open={paperOpen}
        onOpenChange={setPaperOpen}
        section={section}
        firstNumber={questionNumber(state.sections, { section: state.position.section, question: 0 })}
        language={session.language}
      />
    </div>
  );
}
