import { useState } from "react";
import { Link, useFetcher, useNavigate, type ShouldRevalidateFunctionArgs } from "react-router";
import { ArrowLeft } from "lucide-react";
import type { Route } from "./+types/mock-test";
import { requireRoles } from "~/lib/session.server";
import { loadTestStart, startAttempt } from "~/lib/mock-tests/student.server";
import { resultPath } from "~/lib/mock-tests/student-paths";
import { ExamInstructions } from "~/components/mock-tests/instructions";
import { ExamScreen } from "~/components/mock-tests/exam-screen";
import type { ExamLanguage } from "~/components/mock-tests/question-content";
import { EnrolButton, EnrolProvider } from "~/components/learning/enrol";
import { ButtonLink } from "~/components/ui/button";
import { Badge } from "~/components/ui/badge";
import { Dialog, DialogContent } from "~/components/ui/dialog";
import { formatRupees } from "#common/format.ts";

/**
 * A test's own full screen (issue 29 §3): the instructions and the declaration, then the exam
 * screen. The sitting (and its clock) starts only at 'I am ready to begin'; a sitting under way is
 * resumed straight away with the time that is left.
 */

// A visitor is asked to sign in (or sign up) as a student of this site and comes back here.
export const middleware: Route.MiddlewareFunction[] = [requireRoles(["student"], { wrongRole: "own" })];

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.test.title ?? "Mock Test"} | Student` },
];

export const loader = ({ context, params }: Route.LoaderArgs) => loadTestStart(context, params.testId);

export const action = ({ context, params }: Route.ActionArgs) => startAttempt(context, params.testId);

// The sitting started by the action is already on screen: loading the page again would only repeat it.
export const shouldRevalidate = ({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) =>
  formMethod ? false : defaultShouldRevalidate;

export default function MockTest({ loaderData }: Route.ComponentProps) {
  const { test, paper, candidate, checkout } = loaderData;
  const fetcher = useFetcher<typeof action>();
  const navigate = useNavigate();
  const [language, setLanguage] = useState<ExamLanguage>("en");
  const [dismissed, setDismissed] = useState<unknown>(null);

  const answer = fetcher.data;
  const attempt = (answer?.ok ? answer.attempt : null) ?? loaderData.attempt;
  if (attempt)
    return (
      <ExamScreen
        attempt={attempt}
        language={language}
        onSubmitted={() => navigate(resultPath(attempt._id), { replace: true })}
      />
    );

  if (loaderData.over) return <TestOver title={test.title} over={loaderData.over} result={loaderData.lastSubmitted} />;

  const refusal = answer && !answer.ok ? answer : null;
  // Once bought (the page reloads its data after the payment), the student can begin again.
  const refusalShown = refusal !== null && dismissed !== answer && !(refusal.status === 402 && test.entitled);
  return (
    <EnrolProvider checkout={checkout}>
      {/* The instructions are the page's main content (a landmark for screen readers; axe-core). */}
      <main className="min-h-dvh bg-muted/30">
        <div className="mx-auto flex max-w-4xl items-center px-4 pt-4 sm:px-6">
          <Link
            to="/student/mock-tests"
            className="inline-flex items-center gap-1.5 text-sm text-muted-foreground hover:text-foreground"
          >
            <ArrowLeft className="size-4" aria-hidden /> Mock Tests
          </Link>
        </div>
        <ExamInstructions
          paper={paper}
          candidate={candidate}
          beginning={fetcher.state !== "idle"}
          onBegin={(chosen) => {
            setLanguage(chosen);
            void fetcher.submit(null, { method: "post" });
          }}
        />
      </main>
      <Dialog open={refusalShown} onOpenChange={(open) => !open && setDismissed(answer)}>
        {refusal && (
          <DialogContent
            role="alertdialog"
            title={refusal.status === 402 ? refusal.error : "This test cannot be started"}
            description={
              refusal.status === 402
                ? `This test costs ${formatRupees(test.price)}. Once you have bought it, you can begin.`
                : refusal.error
            }
          >
            <div className="flex flex-wrap justify-end gap-2">
              <ButtonLink to="/student/mock-tests" variant="outline">
                Back to Mock Tests
              </ButtonLink>
              {refusal.status === 402 && <EnrolButton item={test} />}
              {refusal.status === 409 && loaderData.lastSubmitted && (
                <ButtonLink to={resultPath(loaderData.lastSubmitted)}>View your result</ButtonLink>
              )}
            </div>
          </DialogContent>
        )}
      </Dialog>
    </EnrolProvider>
  );
}

/**
 * A test that has closed, or whose attempts the student has used (the institute's site links its
 * free test here for everyone): what is so, and their result, instead of instructions to begin.
 */
function TestOver({ title, over, result }: { title: string; over: "closed" | "used-up"; result: string | null }) {
  return (
    <main className="grid min-h-dvh place-items-center bg-muted/30 px-4">
      <section
        aria-labelledby="test-over-title"
        className="grid w-full max-w-md gap-4 rounded-xl border bg-card p-6 text-card-foreground shadow-sm"
      >
        <div className="flex items-start justify-between gap-3">
          <h1 id="test-over-title" className="text-xl font-semibold leading-snug">
            {title}
          </h1>
          <Badge tone="muted" className="shrink-0">
            {result ? "Attempted" : "Closed"}
          </Badge>
        </div>
        <p className="text-sm text-muted-foreground">
          {over === "closed" ? "This test has closed." : "You have used all your attempts at this test."}
        </p>
        <div className="flex flex-wrap justify-end gap-2">
          <ButtonLink to="/student/mock-tests" variant="outline">
            Back to Mock Tests
          </ButtonLink>
          {result && <ButtonLink to={resultPath(result)}>View your result</ButtonLink>}
        </div>
      </section>
    </main>
  );
}
