import { useState } from "react";
import { CircleCheck, LoaderCircle } from "lucide-react";
import "katex/dist/katex.min.css";
import type { AttemptView } from "#common/mock-tests/attempt.ts";
import { submitSummary } from "#common/mock-tests/exam-state.ts";
import { Button } from "~/components/ui/button";
import { saveStatusText, type SaveStatus } from "~/lib/mock-tests/save-queue";
import { CbtScreen } from "./cbt-screen";
import { OmrScreen } from "./omr-screen";
import type { ExamLanguage } from "./question-content";
import { SubmitDialog } from "./submit-dialog";
import { LateAnswersNote } from "./late-answers-note";
import { useExamSession, type ExamSessionOptions, type SubmitPhase } from "./use-exam-session";

export interface ExamScreenProps {
  attempt: AttemptView;
  /** Called once with the server's `result` after the submit (the student's Yes or the clock at zero). */
  onSubmitted: (result: unknown) => void;
  /** The default language chosen on the instructions page (English unless Hindi was chosen). */
  language?: ExamLanguage;
  /** For tests: the fetch and the storage the screen uses instead of the browser's. */
  fetch?: ExamSessionOptions["fetch"];
  storage?: ExamSessionOptions["storage"];
}

/** Covers the screen while the submit goes out, so that nothing more can change. */
function SubmitOverlay({
  phase,
  status,
  onRetry,
}: {
  phase: Exclude<SubmitPhase, { kind: "answering" }>;
  /** While answers wait in the queue, the submit waits for them: say why. */
  status: SaveStatus;
  onRetry: () => void;
}) {
  const waitingForAnswers = status.kind === "offline" || status.kind === "retrying" || status.kind === "signed-out";
  return (
    <div className="fixed inset-0 z-[60] flex items-center justify-center bg-background/90 p-4">
      <div role="alert" className="grid max-w-md gap-3 rounded-xl border bg-card p-6 text-center shadow-xl">
        {phase.kind === "submitting" && (
          <>
            <LoaderCircle className="mx-auto size-8 animate-spin text-primary" aria-hidden />
            <p className="font-semibold">
              {phase.by === "clock" ? "Time is up. Submitting your test…" : "Submitting your test…"}
            </p>
            {waitingForAnswers ? (
              <p className="text-sm text-muted-foreground">{saveStatusText(status)}</p>
            ) : (
              phase.retrying && (
                <p className="text-sm text-muted-foreground">
                  The server cannot be reached. Your answers are kept on this device; trying again…
                </p>
              )
            )}
          </>
        )}
        {phase.kind === "failed" && (
          <>
            <p className="font-semibold">The test could not be submitted.</p>
            <p className="text-sm text-muted-foreground">{phase.message}</p>
            <Button onClick={onRetry}>Try again</Button>
          </>
        )}
        {phase.kind === "submitted" && (
          <>
            <CircleCheck className="mx-auto size-8 text-green-700" aria-hidden />
            <p className="font-semibold">Your test has been submitted.</p>
            <LateAnswersNote lateAnswers={phase.lateAnswers} />
          </>
        )}
      </div>
    </div>
  );
}

function RunningExam(props: ExamScreenProps) {
  const session = useExamSession({ ...props, language: props.language ?? "en" });
  const [confirming, setConfirming] = useState(false);
  const omr = props.attempt.mode === "omr";
  const Screen = omr ? OmrScreen : CbtScreen;
  return (
    <>
      <Screen session={session} onSubmitClick={() => setConfirming(true)} />
      <SubmitDialog
        open={confirming && session.phase.kind === "answering"}
        onOpenChange={setConfirming}
        rows={submitSummary(session.state)}
        omr={omr}
        onYes={() => {
          setConfirming(false);
          session.submit();
        }}
      />
      {session.phase.kind !== "answering" && (
        <SubmitOverlay phase={session.phase} status={session.status} onRetry={session.submit} />
      )}
    </>
  );
}

/**
 * The test screen for one attempt: the NTA computer-based screen, the OMR booklet or practice mode,
 * as the attempt's mode says. Mount it after the instructions (ExamInstructions): its clock runs
 * from the server's deadline at once.
 */
export function ExamScreen(props: ExamScreenProps) {
  if (props.attempt.status === "submitted")
    return (
      <div className="mx-auto grid max-w-md gap-2 p-6 text-center">
        <CircleCheck className="mx-auto size-8 text-green-700" aria-hidden />
        <h1 className="text-lg font-semibold">{props.attempt.title}</h1>
        <p>This test has been submitted. No changes are allowed after submission.</p>
      </div>
    );
  return <RunningExam key={props.attempt._id} {...props} />;
}
