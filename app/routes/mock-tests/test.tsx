import { useRef, useState } from "react";
import { Form, useLocation, useNavigation } from "react-router";
import { Download, Pencil } from "lucide-react";
import type { Route } from "./+types/test";
import { orNotFound, redirectWithToast, refusalOr, refused, testsAreaContext } from "~/lib/mock-tests/area.server";
import { OPTION_LETTERS, answerFromForm, describeKey } from "~/lib/mock-tests/question-form";
import { onDesk, testsPaths } from "~/lib/mock-tests/area-paths";
import { PATTERNS, type PatternId } from "#common/mock-tests/patterns.ts";
import { QUESTION_TYPE_NAMES, describeMarking } from "#common/mock-tests/marking-text.ts";
import type { QuestionType } from "#common/mock-tests/marking.ts";
import { formatDate, formatPrice } from "#common/format.ts";
import { MathText } from "~/components/mock-tests/math-text";
import { TestStatusBadge } from "~/components/mock-tests/test-status";
import { Badge } from "~/components/ui/badge";
import { Button, ButtonLink, buttonClasses } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Confirm } from "~/components/ui/confirm";
import { EmptyState } from "~/components/ui/empty-state";
import { Input, Label, Select } from "~/components/ui/input";
import { PageHeader } from "~/components/ui/page-header";
import { Table, TBody, Td, Th, THead, Tr } from "~/components/ui/table";
import { BackLink } from "~/components/mock-tests/back-link";
import { formatTime } from "#common/time.ts";

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${loaderData?.test.title ?? "Test"} | Tests` }];

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { services, reader } = await testsAreaContext(context, request);
  const test = await orNotFound(() => services.mockTests.get(reader, params.id));
  const [paper, analysis, running] = await Promise.all([
    services.mockTests.paper(reader, params.id),
    services.attempts.analysis(reader, params.id),
    services.testsArea.running(reader, params.id),
  ]);
  return { test, paper, analysis, running, desk: reader.desk ?? null };
}

const TOASTS = {
  discard: "Draft discarded",
  publish: "Test published",
  close: "Test closed",
  release: "Results released",
  policy: "Key decision saved; every attempt has been scored again",
  "extra-time": "Extra time granted",
  "late-review": "Late answer decided; the student's result says so",
} as const;

/** The test's life (publish, close, release results), key decisions and extra time; each back here with a toast. */
export async function action({ context, request, params }: Route.ActionArgs) {
  const { services, reader, paths } = await testsAreaContext(context, request);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "") as keyof typeof TOASTS;
  const run: (() => Promise<unknown>) | undefined = {
    discard: () => services.mockTests.discard(reader, params.id),
    publish: () => services.mockTests.publish(reader, params.id),
    close: () => services.mockTests.close(reader, params.id),
    release: () => services.mockTests.publishResults(reader, params.id),
    policy: () =>
      services.mockTests.setPolicy(reader, params.id, String(form.get("questionId") ?? ""), policyFromForm(form)),
    "extra-time": () =>
      services.attempts.grantExtraTime(reader, String(form.get("attemptId") ?? ""), {
        minutes: Number(form.get("minutes") || Number.NaN),
      }),
    "late-review": () =>
      services.attempts.reviewLate(reader, params.id, String(form.get("lateId") ?? ""), {
        decision: String(form.get("decision") ?? ""),
      }),
  }[intent];
  if (!run) return refused("Unknown action");
  const done = await refusalOr(run);
  if (!done.ok) return done.response;
  redirectWithToast(intent === "discard" ? paths.list : paths.test(params.id), {
    kind: "success",
    title: TOASTS[intent],
  });
}

function policyFromForm(form: FormData) {
  const kind = String(form.get("kind") ?? "");
  const type = String(form.get("type") ?? "single") as QuestionType;
  if (kind === "any-of") return { kind, answers: form.getAll("anyOf").map(Number) };
  if (kind === "changed") return { kind, answer: answerFromForm(form, type, (index) => index) };
  return { kind };
}

type LoaderData = Route.ComponentProps["loaderData"];

export default function TestPage({ loaderData, actionData }: Route.ComponentProps) {
  const { test, paper, analysis, running } = loaderData;
  const paths = testsPaths(useLocation().pathname);
  const failure = actionData && !actionData.ok ? actionData : null;
  const sections = test.sections.map((s, index) => ({ ...s, questions: paper.filter((q) => q.section === index) }));
  const releaseWaits = test.resultRelease === "manual" && !test.resultsPublishedAt;
  return (
    <div className="mx-auto max-w-6xl">
      <BackLink>Tests</BackLink>
      <PageHeader
        title={test.title}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <TestStatusBadge status={test.status} />
            {PATTERNS[test.pattern as PatternId]?.name ?? test.pattern}
            {test.practice ? " · practice" : ""}
          </span>
        }
        actions={
          <>
            {test.status === "draft" && (
              <LifeAction
                intent="discard"
                label="Discard draft"
                title="Discard this draft?"
                description="The draft and its paper are thrown away. Questions stay in your question bank."
              />
            )}
            {test.status === "draft" && (
              <ButtonLink to={paths.editTest(test._id)} variant="outline">
                <Pencil className="size-4" aria-hidden /> Edit
              </ButtonLink>
            )}
            {test.status === "draft" && (
              <LifeAction
                intent="publish"
                label="Publish"
                title="Publish this test?"
                description="Students of the institute can then buy or take it. The paper cannot be changed afterwards."
              />
            )}
            {test.status === "published" && (
              <LifeAction
                intent="close"
                label="Close test"
                title="Close this test?"
                description="No new attempts can start; attempts under way finish on their own clock."
              />
            )}
            {releaseWaits && test.status !== "draft" && (
              <LifeAction
                intent="release"
                label="Release results"
                title="Release the results?"
                description="Every student who took the test can then see their score, rank and solutions."
              />
            )}
          </>
        }
      />
      {failure && (
        <p
          role="alert"
          className="mb-4 rounded-md border border-destructive/40 bg-destructive/10 p-3 text-sm text-destructive"
        >
          {failure.error}
        </p>
      )}

      <div className="mb-6 grid grid-cols-2 gap-3 md:grid-cols-4">
        <Summary label="Questions" value={String(test.questionCount)} />
        <Summary label="Marks" value={String(test.maxScore)} />
        <Summary label="Duration" value={`${test.durationMinutes} min`} />
        <Summary label="Price" value={formatPrice(test.price)} />
        <Summary
          label="Window"
          wide
          value={
            test.opensAt || test.closesAt
              ? `${test.opensAt ? formatDate(test.opensAt) : "Now"} – ${test.closesAt ? formatDate(test.closesAt) : "no end"}`
              : "Anytime"
          }
        />
        <Summary label="Institute" value={test.businessName ?? "None yet"} />
        <Summary
          label="Results"
          value={
            test.resultRelease === "immediate"
              ? "On submitting"
              : test.resultRelease === "after-window"
                ? "After the window"
                : test.resultsPublishedAt
                  ? "Released"
                  : "Waiting for you"
          }
        />
      </div>

      <Results test={test} analysis={analysis} running={running} desk={loaderData.desk} />

      <h2 className="mb-3 mt-8 text-lg font-semibold">Paper and keys</h2>
      <div className="grid gap-6 [&>*]:min-w-0">
        {sections.map((section) => (
          <section key={section.name} aria-label={section.name} className="grid gap-3">
            <div>
              <h3 className="font-semibold">
                {section.name}{" "}
                <span className="text-sm font-normal text-muted-foreground">
                  ({section.questions.length} questions)
                </span>
              </h3>
              <ul className="text-xs text-muted-foreground">
                {(
                  Object.entries(section.marking) as [QuestionType, NonNullable<(typeof section.marking)["single"]>][]
                ).map(([type, rule]) => (
                  <li key={type}>
                    {QUESTION_TYPE_NAMES[type]}: {describeMarking(type, rule)}
                  </li>
                ))}
              </ul>
            </div>
            {section.questions.length === 0 ? (
              <EmptyState title="No questions in this section." />
            ) : (
              section.questions.map((q, index) => (
                <PaperQuestion key={q._id} question={q} number={index + 1} editable={test.status !== "draft"} />
              ))
            )}
          </section>
        ))}
      </div>
    </div>
  );
}

function Summary({ label, value, wide }: { label: string; value: string; wide?: boolean }) {
  return (
    <div className={`rounded-xl border bg-card p-3 ${wide ? "col-span-2" : ""}`}>
      <p className="text-xs text-muted-foreground">{label}</p>
      <p className="mt-0.5 truncate font-semibold tabular-nums">{value}</p>
    </div>
  );
}

/** A button that asks first, then posts (the form posts as it is without JavaScript). */
function LifeAction({
  intent,
  label,
  title,
  description,
}: {
  intent: string;
  label: string;
  title: string;
  description: string;
}) {
  const form = useRef<HTMLFormElement>(null);
  const busy = useNavigation().formData?.get("intent") === intent;
  return (
    <Form method="post" ref={form}>
      <input type="hidden" name="intent" value={intent} />
      <Confirm
        title={title}
        description={description}
        confirmLabel={label}
        onConfirm={() => form.current?.requestSubmit()}
        trigger={
          <Button variant={intent === "publish" ? "default" : "outline"} disabled={busy}>
            {busy ? "Working..." : label}
          </Button>
        }
      />
    </Form>
  );
}

type PaperRow = LoaderData["paper"][number];

function PaperQuestion({ question, number, editable }: { question: PaperRow; number: number; editable: boolean }) {
  const policy = question.policy;
  return (
    <article className="rounded-xl border bg-card p-4" aria-label={`Question ${number}`}>
      <div className="mb-2 flex flex-wrap items-center gap-2 text-xs">
        <span className="font-semibold">Q{number}</span>
        <Badge tone="muted">{QUESTION_TYPE_NAMES[question.type]}</Badge>
        {question.tags?.chapter && <Badge tone="muted">{question.tags.chapter}</Badge>}
        <span className="ml-auto">
          Key: <strong>{describeKey(question.type, question.answer)}</strong>
        </span>
        {policy && <Badge tone="warning">{policyText(question.type, policy)}</Badge>}
      </div>
      <MathText source={question.text} className="text-sm" />
      {question.options && (
        <ol className="mt-2 grid gap-1 text-sm sm:grid-cols-2">
          {question.options.map((option, index) => (
            <li key={index}>
              ({OPTION_LETTERS[index]}) <MathText source={option} inline />
            </li>
          ))}
        </ol>
      )}
      {question.solution && (
        <details className="mt-2 text-sm">
          <summary className="cursor-pointer text-muted-foreground">Solution</summary>
          <MathText source={question.solution} className="mt-1" />
        </details>
      )}
      {editable && <KeyDecision question={question} />}
    </article>
  );
}

function policyText(type: QuestionType, policy: NonNullable<PaperRow["policy"]>) {
  if (policy.kind === "dropped") return "Dropped: full marks to all";
  if (policy.kind === "any-of") return `Any of ${policy.answers.map((a) => OPTION_LETTERS[a]).join(", ")} correct`;
  return `Key changed to ${describeKey(type, policy.answer)}`;
}

/** After the test: drop the question, accept several options, change the key, or undo; everyone is re-scored. */
function KeyDecision({ question }: { question: PaperRow }) {
  const [kind, setKind] = useState<string>(question.policy?.kind ?? "none");
  const options = question.options ?? [];
  return (
    <details className="mt-3 border-t pt-3 text-sm">
      <summary className="cursor-pointer font-medium">Key decision</summary>
      <Form method="post" className="mt-2 grid gap-3">
        <input type="hidden" name="intent" value="policy" />
        <input type="hidden" name="questionId" value={question._id} />
        <input type="hidden" name="type" value={question.type} />
        <div className="grid gap-1.5">
          <Label htmlFor={`kind-${question._id}`}>Decision</Label>
          <Select
            id={`kind-${question._id}`}
            name="kind"
            value={kind}
            onChange={(e) => setKind(e.target.value)}
            className="max-w-sm"
          >
            <option value="none">None (the key as written)</option>
            <option value="dropped">Dropped: full marks to everyone</option>
            {question.type === "single" && <option value="any-of">Several options correct</option>}
            <option value="changed">Key changed</option>
          </Select>
        </div>
        {kind === "any-of" && (
          <fieldset className="min-w-0 flex flex-wrap gap-3">
            <legend className="mb-1 text-xs text-muted-foreground">Options that count as correct</legend>
            {options.map((_, index) => (
              <label key={index} className="flex items-center gap-1.5">
                <input type="checkbox" name="anyOf" value={index} className="size-4 accent-primary" />{" "}
                {OPTION_LETTERS[index]}
              </label>
            ))}
          </fieldset>
        )}
        {kind === "changed" &&
          (question.type === "numerical" ? (
            <div className="flex flex-wrap items-end gap-2">
              <input type="hidden" name="numKind" value="range" />
              <div className="grid gap-1">
                <Label htmlFor={`min-${question._id}`}>From</Label>
                <Input id={`min-${question._id}`} name="numMin" inputMode="decimal" className="w-28" />
              </div>
              <div className="grid gap-1">
                <Label htmlFor={`max-${question._id}`}>To</Label>
                <Input id={`max-${question._id}`} name="numMax" inputMode="decimal" className="w-28" />
              </div>
              <p className="text-xs text-muted-foreground">For one exact value, give it as both ends.</p>
            </div>
          ) : (
            <fieldset className="min-w-0 flex flex-wrap gap-3">
              <legend className="mb-1 text-xs text-muted-foreground">
                The correct {question.type === "single" ? "option" : "options"}
              </legend>
              {options.map((_, index) => (
                <label key={index} className="flex items-center gap-1.5">
                  <input
                    type={question.type === "single" ? "radio" : "checkbox"}
                    name="answer"
                    value={index}
                    className="size-4 accent-primary"
                  />{" "}
                  {OPTION_LETTERS[index]}
                </label>
              ))}
            </fieldset>
          ))}
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" size="sm" variant="secondary">
            Save decision
          </Button>
          <span className="text-xs text-muted-foreground">Every attempt is scored and ranked again.</span>
        </div>
      </Form>
    </details>
  );
}

const LATE_DECISIONS = {
  counted: { label: "Counted", tone: "success" },
  held: { label: "Awaiting review", tone: "warning" },
  "not-counted": { label: "Not counted", tone: "destructive" },
  refused: { label: "Refused", tone: "destructive" },
} as const;

/**
 * Answers that reached the server after their sitting's deadline (issue 38 §2, decision 0034): who,
 * which question, what was decided and why; one held for review is counted or not from here.
 */
function LateAnswers({ lateAnswers }: { lateAnswers: LoaderData["analysis"]["lateAnswers"] }) {
  if (!lateAnswers.length) return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">
          Answers that arrived after time was up{" "}
          <span className="font-normal text-muted-foreground">({lateAnswers.length})</span>
        </CardTitle>
      </CardHeader>
      <CardContent>
        <Table>
          <THead>
            <tr>
              <Th>Student</Th>
              <Th>Question</Th>
              <Th>Decision</Th>
              <Th className="hidden md:table-cell">Why</Th>
            </tr>
          </THead>
          <TBody>
            {lateAnswers.map((late) => (
              <Tr key={late._id}>
                <Td>
                  {late.name ?? "—"}
                  <span className="block text-xs text-muted-foreground">{late.email}</span>
                </Td>
                <Td className="tabular-nums">Q{late.questionNumber}</Td>
                <Td>
                  <Badge tone={LATE_DECISIONS[late.decision].tone}>{LATE_DECISIONS[late.decision].label}</Badge>
                  {late.decision === "held" && (
                    <Form method="post" className="mt-2 flex flex-wrap gap-2">
                      <input type="hidden" name="intent" value="late-review" />
                      <input type="hidden" name="lateId" value={late._id} />
                      <Button size="sm" name="decision" value="count">
                        Count it
                      </Button>
                      <Button size="sm" variant="outline" name="decision" value="not-count">
                        Do not count
                      </Button>
                    </Form>
                  )}
                </Td>
                <Td className="hidden text-sm md:table-cell">{late.text}</Td>
              </Tr>
            ))}
          </TBody>
        </Table>
      </CardContent>
    </Card>
  );
}

function Results({ test, analysis, running, desk }: Pick<LoaderData, "test" | "analysis" | "running" | "desk">) {
  return (
    <div className="grid gap-6 [&>*]:min-w-0">
      <Card>
        <CardHeader className="flex-row flex-wrap items-center justify-between gap-2">
          <CardTitle className="text-base">
            Rank list{" "}
            <span className="font-normal text-muted-foreground">
              ({analysis.takers} {analysis.takers === 1 ? "taker" : "takers"})
            </span>
          </CardTitle>
          {analysis.takers > 0 && (
            <a
              href={onDesk(`/api/tests/${test._id}/rank-list.csv`, desk)}
              download
              className={buttonClasses("outline", "sm")}
            >
              <Download className="size-4" aria-hidden /> Rank list CSV
            </a>
          )}
        </CardHeader>
        <CardContent>
          {analysis.rankList.length === 0 ? (
            <p className="text-sm text-muted-foreground">No one has submitted this test yet.</p>
          ) : (
            <Table>
              <THead>
                <tr>
                  <Th>Rank</Th>
                  <Th>Student</Th>
                  <Th>Score</Th>
                  <Th className="hidden sm:table-cell">Percentile</Th>
                  <Th className="hidden md:table-cell">Submitted</Th>
                </tr>
              </THead>
              <TBody>
                {analysis.rankList.map((row) => (
                  <Tr key={row.attemptId}>
                    <Td className="tabular-nums">{row.rank ?? "—"}</Td>
                    <Td>
                      {row.name}
                      <span className="block text-xs text-muted-foreground">{row.email}</span>
                    </Td>
                    <Td className="tabular-nums">
                      {row.score} / {test.maxScore}
                    </Td>
                    <Td className="hidden tabular-nums sm:table-cell">{row.percentile ?? "—"}</Td>
                    <Td className="hidden text-sm md:table-cell">
                      {formatDate(row.submittedAt)}
                      {row.submittedBy === "clock" ? " (time up)" : ""}
                    </Td>
                  </Tr>
                ))}
              </TBody>
            </Table>
          )}
        </CardContent>
      </Card>

      <LateAnswers lateAnswers={analysis.lateAnswers} />

      {analysis.takers > 0 && (
        <Card>
          <CardHeader>
            <CardTitle className="text-base">Question analysis</CardTitle>
          </CardHeader>
          <CardContent>
            <Table>
              <THead>
                <tr>
                  <Th>#</Th>
                  <Th>Correct</Th>
                  <Th>Choices</Th>
                  <Th className="hidden sm:table-cell">Average time</Th>
                </tr>
              </THead>
              <TBody>
                {analysis.questions.map((q, index) => (
                  <Tr key={q._id}>
                    <Td>
                      Q{index + 1}
                      <span className="block text-xs text-muted-foreground">{q.section}</span>
                    </Td>
                    <Td className="tabular-nums">{q.correctPercent}%</Td>
                    <Td className="text-sm tabular-nums">
                      {q.options.length
                        ? q.options.map((n, i) => `${OPTION_LETTERS[i]}: ${n}`).join(" · ")
                        : `${q.attempted} answered`}
                    </Td>
                    <Td className="hidden tabular-nums sm:table-cell">{q.averageSeconds} s</Td>
                  </Tr>
                ))}
              </TBody>
            </Table>
          </CardContent>
        </Card>
      )}

      {running.length > 0 && (
        <Card>
          <CardHeader>
            <CardTitle className="text-base">In progress</CardTitle>
          </CardHeader>
          <CardContent>
            <ul className="divide-y">
              {running.map((sitting) => (
                <li key={sitting.attemptId} className="flex flex-wrap items-center justify-between gap-3 py-3 text-sm">
                  <span>
                    {sitting.name} <span className="text-muted-foreground">({sitting.email})</span>
                    <span className="block text-xs text-muted-foreground">
                      Ends {formatTime(sitting.deadline, "time")}
                      {sitting.extraMinutes ? ` · ${sitting.extraMinutes} extra minutes so far` : ""}
                    </span>
                  </span>
                  <Form method="post" className="flex items-end gap-2">
                    <input type="hidden" name="intent" value="extra-time" />
                    <input type="hidden" name="attemptId" value={sitting.attemptId} />
                    <Input
                      name="minutes"
                      type="number"
                      min={1}
                      max={240}
                      defaultValue={10}
                      aria-label={`Extra minutes for ${sitting.name}`}
                      className="h-8 w-20"
                    />
                    <Button type="submit" size="sm" variant="outline">
                      Grant extra time
                    </Button>
                  </Form>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      )}
    </div>
  );
}
