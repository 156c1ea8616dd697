import { CalendarClock, ClipboardList, Clock, ListChecks, Trophy } from "lucide-react";
import type { Route } from "./+types/mock-tests";
import { loadStudentTests } from "~/lib/mock-tests/student.server";
import { formatPrice } from "#common/format.ts";
import { PATTERNS, type PatternId } from "#common/mock-tests/patterns.ts";
import { formatMarks } from "#common/mock-tests/marking-text.ts";
import { resultsReleased, testAvailability } from "#common/mock-tests/test-availability.ts";
import { Badge } from "~/components/ui/badge";
import { Button, ButtonLink } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { PageHeader } from "~/components/ui/page-header";
import { EnrolButton, EnrolProvider } from "~/components/learning/enrol";
import { formatClassTime } from "~/components/learning/content-card";
import { resultPath, testPath } from "~/lib/mock-tests/student-paths";
import { SeriesCard } from "~/components/learning/test-offers";

export const meta: Route.MetaFunction = () => [{ title: "Mock Tests | Student" }];

export const loader = ({ context }: Route.LoaderArgs) => loadStudentTests(context);

type StudentTest = Route.ComponentProps["loaderData"]["tests"][number];

/** A score as a student reads it: 12, −3, 7.5 (a real minus sign). */
const formatScore = (score: number) => formatMarks(score).replace(/^\+/, "");

export default function MockTests({ loaderData }: Route.ComponentProps) {
  const { tests, series, checkout } = loaderData;
  const byId = new Map(tests.map((t) => [t._id, t]));
  const now = new Date(loaderData.now);
  return (
    <EnrolProvider checkout={checkout}>
      <div className="mx-auto max-w-6xl">
        <PageHeader
          title="Mock Tests"
          description="Timed tests in the exam's own pattern, with your score, rank and a question-wise review."
        />
        {series.length > 0 && (
          <section aria-labelledby="series-heading" className="mb-8">
            <h2 id="series-heading" className="mb-3 text-lg font-semibold tracking-tight">
              Test series
            </h2>
            <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
              {series.map((s) => (
                <li key={s._id} className="grid">
                  <SeriesCard series={s} tests={s.tests.map((t) => byId.get(t._id)!)} now={now} />
                </li>
              ))}
            </ul>
          </section>
        )}
        {tests.length === 0 ? (
          <EmptyState icon={<ClipboardList />} title="No mock tests are available to you yet.">
            <p className="text-sm text-muted-foreground">Tests your institute publishes will appear here.</p>
          </EmptyState>
        ) : (
          <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
            {tests.map((test) => (
              <li key={test._id}>
                <TestCard test={test} now={now} />
              </li>
            ))}
          </ul>
        )}
      </div>
    </EnrolProvider>
  );
}

function TestCard({ test, now }: { test: StudentTest; now: Date }) {
  const pattern = PATTERNS[test.pattern as PatternId]?.name ?? test.pattern;
  const released = resultsReleased(test, now);
  return (
    <article
      id={`test-${test._id}`}
      aria-labelledby={`test-${test._id}-title`}
      className="flex h-full flex-col gap-3 rounded-xl border bg-card p-5 text-card-foreground shadow-sm"
    >
      <div className="flex items-start justify-between gap-2">
        <div className="grid gap-1">
          <p className="text-xs font-semibold uppercase tracking-wide text-primary">
            {pattern}
            {test.practice ? " · Practice" : ""}
          </p>
          <h2 id={`test-${test._id}-title`} className="font-semibold leading-snug">
            {test.title}
          </h2>
        </div>
        <Badge tone={test.price === 0 ? "success" : "default"} className="shrink-0 whitespace-nowrap">
          {formatPrice(test.price)}
        </Badge>
      </div>
      {test.description && <p className="line-clamp-2 text-sm text-muted-foreground">{test.description}</p>}
      <dl className="grid grid-cols-3 gap-2 rounded-lg bg-muted/50 p-3 text-sm">
        <Fact icon={<Clock className="size-4" aria-hidden />} label="Duration" value={`${test.durationMinutes} min`} />
        <Fact
          icon={<ListChecks className="size-4" aria-hidden />}
          label="Questions"
          value={String(test.questionCount)}
        />
        <Fact icon={<Trophy className="size-4" aria-hidden />} label="Marks" value={formatScore(test.maxScore)} />
      </dl>
      <TestWindow opensAt={test.opensAt} closesAt={test.closesAt} />
      {test.attempts.length > 0 && (
        <ul aria-label="Your attempts" className="grid gap-1 border-t pt-3 text-sm">
          {test.attempts.map((attempt) => (
            <li key={attempt._id} className="flex flex-wrap items-center justify-between gap-2">
              <span>
                Attempt {attempt.number}
                {attempt.submittedAt ? (
                  released && attempt.score !== null ? (
                    <>
                      {" · "}
                      <span className="font-medium tabular-nums">
                        {formatScore(attempt.score)} / {formatScore(test.maxScore)}
                      </span>
                    </>
                  ) : (
                    " · Submitted"
                  )
                ) : (
                  " · In progress"
                )}
              </span>
              {attempt.submittedAt && (
                <ButtonLink to={resultPath(attempt._id)} variant="ghost" size="sm">
                  {released ? "View result" : "Result status"}
                </ButtonLink>
              )}
            </li>
          ))}
        </ul>
      )}
      <div className="mt-auto flex justify-end border-t pt-3">
        <TestAction test={test} now={now} />
      </div>
    </article>
  );
}

function Fact({ icon, label, value }: { icon: React.ReactNode; label: string; value: string }) {
  return (
    <div className="grid gap-0.5">
      <dt className="flex items-center gap-1 text-xs text-muted-foreground">
        {icon} {label}
      </dt>
      <dd className="font-medium tabular-nums">{value}</dd>
    </div>
  );
}

function TestWindow({ opensAt, closesAt }: { opensAt: string | null; closesAt: string | null }) {
  return (
    <p className="flex items-start gap-1.5 text-xs text-muted-foreground">
      <CalendarClock className="mt-px size-3.5 shrink-0" aria-hidden />
      {opensAt || closesAt ? (
        <span>
          {opensAt && <>Opens {formatClassTime(opensAt)}</>}
          {opensAt && closesAt && " · "}
          {closesAt && <>Closes {formatClassTime(closesAt)}</>}
        </span>
      ) : (
        <span>Take it any time</span>
      )}
    </p>
  );
}

function TestAction({ test, now }: { test: StudentTest; now: Date }) {
  const availability = testAvailability(test, now);
  switch (availability.kind) {
    case "resume":
      return (
        <ButtonLink to={testPath(test._id)} size="sm">
          Resume Test
        </ButtonLink>
      );
    case "buy":
      return <EnrolButton item={test} size="sm" />;
    case "not-open":
      return (
        <Button size="sm" disabled>
          Opens {formatClassTime(availability.opensAt)}
        </Button>
      );
    case "closed":
      return (
        <Button size="sm" variant="outline" disabled>
          Closed
        </Button>
      );
    case "used-up":
      return (
        <Button size="sm" variant="outline" disabled>
          No attempts left
        </Button>
      );
    case "start":
      return (
        <ButtonLink to={testPath(test._id)} size="sm">
          {availability.again ? "Take Again" : "Start Test"}
        </ButtonLink>
      );
  }
}
