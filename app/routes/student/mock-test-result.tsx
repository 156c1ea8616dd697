import { useMemo } from "react";
import { useRevalidator } from "react-router";
import { ArrowLeft, Hourglass } from "lucide-react";
import "katex/dist/katex.min.css";
import type { Route } from "./+types/mock-test-result";
import { loadAttemptResult } from "~/lib/mock-tests/student.server";
import type { AttemptAnswer } from "#common/mock-tests/attempt.ts";
import { formatMarks } from "#common/mock-tests/marking-text.ts";
import { renderMarkdown } from "#common/mock-tests/render.ts";
import { formatClassTime } from "~/components/learning/content-card";
import { describeCorrectAnswer } from "~/components/mock-tests/solution-panel";
import { optionLetter, Rendered } from "~/components/mock-tests/question-content";
import { LateAnswersNote } from "~/components/mock-tests/late-answers-note";
import { useKeptAnswers } from "~/components/mock-tests/use-kept-answers";
import { Badge } from "~/components/ui/badge";
import { ButtonLink } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { PageHeader } from "~/components/ui/page-header";
import { Table, TBody, Td, Th, THead, Tr } from "~/components/ui/table";
import { cn } from "~/lib/cn";

/**
 * An attempt's result (mock-tests.md §4): score and maximum, per section, accuracy, marks lost to
 * negative marking, time, rank and percentile among the test's takers (never a predicted national
 * rank), and the question-wise review. Before the institute releases it, the server's reason.
 */

export const meta: Route.MetaFunction = () => [{ title: "Result | Mock Tests | Student" }];

export const loader = ({ context, params }: Route.LoaderArgs) => loadAttemptResult(context, params.attemptId);

type Result = NonNullable<Route.ComponentProps["loaderData"]["result"]>;
type ReviewQuestion = Result["questions"][number];

const BACK = (
  <ButtonLink to="/student/mock-tests" variant="outline" size="sm">
    <ArrowLeft className="size-4" aria-hidden /> Mock Tests
  </ButtonLink>
);

export default function MockTestResult({ loaderData, params }: Route.ComponentProps) {
  const { result, withheld, lateAnswers } = loaderData;
  const revalidator = useRevalidator();
  useKeptAnswers(params.attemptId, () => void revalidator.revalidate());
  if (!result)
    return (
      <div className="mx-auto max-w-3xl">
        <PageHeader title="Result" actions={BACK} />
        <EmptyState icon={<Hourglass />} title={<span role="status">{withheld}</span>} />
        <LateAnswersNote lateAnswers={lateAnswers} />
      </div>
    );
  return (
    <div className="mx-auto grid max-w-5xl gap-6">
      <PageHeader
        title={result.title}
        description={`Submitted ${formatClassTime(result.submittedAt)}${
          result.submittedBy === "clock" ? " (automatically, when the time was up)" : ""
        }`}
        actions={BACK}
      />
      <Overview result={result} />
      <LateAnswersNote lateAnswers={lateAnswers} />
      <Subjects result={result} />
      <Sections result={result} />
      <Review questions={result.questions} />
    </div>
  );
}

/** A score without a plus sign: 12, −3, 7.5. */
const score = (marks: number) => formatMarks(marks).replace(/^\+/, "");

/** "1 h 02 min", "12 min 05 s", "40 s". */
function formatDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const pad = (n: number) => String(n).padStart(2, "0");
  if (h) return `${h} h ${pad(m)} min`;
  if (m) return `${m} min ${pad(s)} s`;
  return `${s} s`;
}

function Stat({ label, value, detail }: { label: string; value: string; detail?: string }) {
  return (
    <div className="grid content-start gap-1 rounded-xl border bg-card p-4">
      <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{label}</dt>
      <dd className="text-2xl font-semibold tabular-nums">{value}</dd>
      {detail && <dd className="text-sm text-muted-foreground">{detail}</dd>}
    </div>
  );
}

function Overview({ result }: { result: Result }) {
  const attempted = result.correct + result.partial + result.incorrect;
  const standing =
    result.rank !== null && result.takers !== null && result.percentile !== null
      ? { value: String(result.rank), detail: `${result.percentile} percentile among ${result.takers} takers` }
      : { value: "—", detail: "Only a first attempt at a ranked test is ranked." };
  return (
    <section aria-label="Your score">
      <dl className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <Stat label="Score" value={`${score(result.score)} / ${score(result.maxScore)}`} />
        <Stat label="Rank" value={standing.value} detail={standing.detail} />
        <Stat
          label="Accuracy"
          value={result.accuracy === null ? "—" : `${Math.round(result.accuracy * 1000) / 10}%`}
          detail={`${result.correct} correct of ${attempted} attempted`}
        />
        <Stat label="Time taken" value={formatDuration(result.seconds)} />
      </dl>
      <dl className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-5">
        {(
          [
            ["Correct", result.correct],
            ["Partly correct", result.partial],
            ["Incorrect", result.incorrect],
            ["Unattempted", result.unattempted],
            ["Marks lost to negative marking", result.negative],
          ] as const
        ).map(([label, value]) => (
          <div key={label} className="grid gap-0.5 rounded-lg bg-muted/50 p-3">
            <dt className="text-xs text-muted-foreground">{label}</dt>
            <dd className="font-semibold tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

type Totals = Result["sections"][number];

/** One table of totals (by subject or by section), with the time spent on each. */
function TotalsTable({ label, rows }: { label: string; rows: Totals[] }) {
  return (
    <Table>
      <THead>
        <tr>
          <Th>{label}</Th>
          <Th className="text-right">Score</Th>
          <Th className="text-right">Correct</Th>
          <Th className="text-right">Incorrect</Th>
          <Th className="text-right">Unattempted</Th>
          <Th className="text-right">Negative marks</Th>
          <Th className="text-right">Time spent</Th>
        </tr>
      </THead>
      <TBody>
        {rows.map((row) => (
          <Tr key={row.name}>
            <Td className="font-medium">{row.name}</Td>
            <Td className="text-right tabular-nums">
              {score(row.score)} / {score(row.maxScore)}
            </Td>
            <Td className="text-right tabular-nums">{row.correct + row.partial}</Td>
            <Td className="text-right tabular-nums">{row.incorrect}</Td>
            <Td className="text-right tabular-nums">{row.unattempted}</Td>
            <Td className="text-right tabular-nums">{row.negative}</Td>
            <Td className="text-right tabular-nums">{formatDuration(row.seconds)}</Td>
          </Tr>
        ))}
      </TBody>
    </Table>
  );
}

/** Totals by subject: a subject takes in its sections (Physics Section A and B), or its questions of a mixed one. */
function Subjects({ result }: { result: Result }) {
  const subjects = result.subjects ?? [];
  if (!subjects.length) return null;
  return (
    <section aria-labelledby="subjects-title" className="grid gap-3">
      <h2 id="subjects-title" className="text-lg font-semibold">
        Subjects
      </h2>
      <TotalsTable label="Subject" rows={subjects} />
    </section>
  );
}

function Sections({ result }: { result: Result }) {
  return (
    <section aria-labelledby="sections-title" className="grid gap-3">
      <h2 id="sections-title" className="text-lg font-semibold">
        Sections
      </h2>
      <TotalsTable label="Section" rows={result.sections} />
    </section>
  );
}

const OUTCOMES: Record<string, { label: string; tone: "success" | "destructive" | "muted" | "warning" }> = {
  correct: { label: "Correct", tone: "success" },
  partial: { label: "Partly correct", tone: "warning" },
  incorrect: { label: "Incorrect", tone: "destructive" },
  unanswered: { label: "Not answered", tone: "muted" },
  dropped: { label: "Dropped: full marks to all", tone: "success" },
  "not-evaluated": { label: "Not evaluated (beyond the questions to attempt)", tone: "muted" },
};

/** The student's answer in words: "(B)", "(A), (C)", the typed value, or "Not answered". */
function describeAnswer(answer: AttemptAnswer): string {
  if (answer === null || (Array.isArray(answer) && answer.length === 0) || answer === "") return "Not answered";
  if (typeof answer === "string") return answer;
  return (Array.isArray(answer) ? answer : [answer]).map((i) => `(${optionLetter(i)})`).join(", ");
}

function correctAnswerText(question: ReviewQuestion): string {
  if (question.policy?.kind === "dropped") return "Dropped (full marks to everyone)";
  if (question.policy?.kind === "any-of")
    return `Any of ${question.policy.answers.map((i) => `(${optionLetter(i)})`).join(", ")}`;
  return describeCorrectAnswer(question, question.correctAnswer);
}

function chosen(answer: AttemptAnswer, index: number): boolean {
  return answer === index || (Array.isArray(answer) && answer.includes(index));
}

function keyed(question: ReviewQuestion, index: number): boolean {
  if (question.policy?.kind === "any-of") return question.policy.answers.includes(index);
  const key = question.correctAnswer;
  return key === index || (Array.isArray(key) && (key as unknown[]).includes(index));
}

function Review({ questions }: { questions: ReviewQuestion[] }) {
  return (
    <section aria-labelledby="review-title" className="grid gap-3">
      <h2 id="review-title" className="text-lg font-semibold">
        Question-wise review
      </h2>
      <ol className="grid gap-4">
        {questions.map((question, index) => (
          <li key={question._id}>
            <ReviewCard question={question} number={index + 1} />
          </li>
        ))}
      </ol>
    </section>
  );
}

function ReviewCard({ question, number }: { question: ReviewQuestion; number: number }) {
  const html = useMemo(
    () => ({
      text: renderMarkdown(question.text),
      options: question.options?.map(renderMarkdown),
      solution: question.solution ? renderMarkdown(question.solution) : null,
    }),
    [question],
  );
  const outcome = OUTCOMES[question.outcome] ?? { label: question.outcome, tone: "muted" as const };
  return (
    <article aria-label={`Question ${number}`} className="grid gap-3 rounded-xl border bg-card p-4 sm:p-5">
      <header className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-semibold">
          Question {number} <span className="font-normal text-muted-foreground">· {question.section}</span>
        </h3>
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <Badge tone={outcome.tone}>{outcome.label}</Badge>
          <span className="font-semibold tabular-nums" aria-label="Marks">
            {formatMarks(question.marks)}
          </span>
          <span className="text-muted-foreground tabular-nums" aria-label="Time spent">
            {formatDuration(question.seconds)}
          </span>
        </div>
      </header>
      <Rendered html={html.text} className="leading-relaxed" />
      {html.options && (
        <ol className="grid gap-1.5">
          {html.options.map((option, i) => (
            <li
              key={i}
              className={cn(
                "flex items-start gap-2 rounded-md border px-3 py-2 text-sm",
                keyed(question, i) && "border-green-600 bg-green-50 dark:bg-green-950/40",
                chosen(question.answer, i) && !keyed(question, i) && "border-red-600 bg-red-50 dark:bg-red-950/40",
              )}
            >
              <span className="font-semibold">({optionLetter(i)})</span>
              <Rendered html={option} className="flex-1" />
              {chosen(question.answer, i) && <span className="text-xs font-medium">Your answer</span>}
            </li>
          ))}
        </ol>
      )}
      <dl className="grid gap-1 text-sm sm:grid-cols-2">
        <div>
          <dt className="inline font-medium">Your answer: </dt>
          <dd className="inline">{describeAnswer(question.answer)}</dd>
        </div>
        <div>
          <dt className="inline font-medium">Correct answer: </dt>
          <dd className="inline">{correctAnswerText(question)}</dd>
        </div>
      </dl>
      {html.solution && (
        <details className="rounded-lg border border-sky-200 bg-sky-50 p-3 dark:border-sky-900 dark:bg-sky-950/40">
          <summary className="cursor-pointer text-sm font-semibold">Solution</summary>
          <Rendered html={html.solution} className="mt-2 leading-relaxed" />
        </details>
      )}
    </article>
  );
}
