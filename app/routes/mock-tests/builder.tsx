import { useEffect, useState } from "react";
import { TIE_BREAK_KINDS, TIE_BREAK_LABELS } from "#common/mock-tests/policies.ts";
import { Form, useFetcher, useLocation, useNavigation } from "react-router";
import { Plus, Trash2, X } from "lucide-react";
import type { Route } from "./+types/builder";
import {
  orNotFound,
  redirectWithToast,
  refusalOr,
  refused,
  testsAreaContext,
  type TestsAreaFailure,
} from "~/lib/mock-tests/area.server";
import { testsPaths } from "~/lib/mock-tests/area-paths";
import {
  createTestBody,
  draftFor,
  draftFromTest,
  patternCount,
  perChapterRules,
  sectionTotal,
  sectionsOf,
  type Difficulty,
  type DrawRuleDraft,
  type SectionDraft,
  type TestDraft,
} from "~/lib/mock-tests/builder";
import {
  PATTERN_IDS,
  PATTERNS,
  pickerSubject,
  sectionTakesSubject,
  type PatternId,
} from "#common/mock-tests/patterns.ts";
import { QUESTION_TYPE_NAMES, describeMarking } from "#common/mock-tests/marking-text.ts";
import { QUESTION_TYPES, type QuestionType } from "#common/mock-tests/marking.ts";
import { NO_TEAMS_HINT } from "#common/validation/team.ts";
import { MathText } from "~/components/mock-tests/math-text";
import { DIFFICULTIES, DIFFICULTY_NAMES } from "~/components/mock-tests/question-editor";
import { Button, ButtonLink } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input, Label, Select } from "~/components/ui/input";
import { PageHeader } from "~/components/ui/page-header";
import type { loader as bankLoader } from "./questions";
import { BackLink } from "~/components/mock-tests/back-link";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.saved ? `Edit ${loaderData.saved.title} | Tests` : "New test | Tests" },
];

/** The builder drafts a new test (/tests/new) or changes a draft (/tests/{id}/edit). */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { services, reader, site } = await testsAreaContext(context, request);
  const [assignable, saved] = await Promise.all([
    services.team.assignableBusinesses(reader, "tests.write"),
    params.id ? savedDraft(services, reader, params.id) : null,
  ]);
  // On an institute's domain, or at the one chosen in the header, a test can only be that institute's.
  const businesses = assignable.filter(
    (b) => (site.kind !== "tenant" || b._id === site.center.id) && (!reader.desk || b._id === reader.desk),
  );
  // A test is built from its institute's bank and the builder's own: the draw rules offer those
  // banks' chapters, for whichever institute the test is set to ("" for none).
  const institutes = ["", ...businesses.map((b) => b._id)];
  const facets = Object.fromEntries(
    await Promise.all(
      institutes.map(async (id) => [id, await services.testsArea.facets(reader, { usableIn: id || null })] as const),
    ),
  );
  return { businesses, facets, saved, isOwner: reader.role === "business" };
}

async function savedDraft(
  services: Awaited<ReturnType<typeof testsAreaContext>>["services"],
  reader: Awaited<ReturnType<typeof testsAreaContext>>["reader"],
  id: string,
) {
  const test = await orNotFound(() => services.mockTests.get(reader, id));
  if (test.status !== "draft") return { ...test, draft: null, lost: 0 };
  const { draft, lost } = draftFromTest(test, await services.mockTests.paper(reader, id));
  return { ...test, draft, lost };
}

/** The builder's draft arrives as the API's JSON body; the service checks all of it. */
export async function action({ context, request, params }: Route.ActionArgs) {
  const { services, reader, paths } = await testsAreaContext(context, request);
  const form = await request.formData();
  let body: unknown;
  try {
    body = JSON.parse(String(form.get("payload") ?? ""));
  } catch {
    return refused("The test could not be read; please try again.");
  }
  const saved = await refusalOr(() =>
    params.id ? services.mockTests.update(reader, params.id, body) : services.mockTests.create(reader, body),
  );
  if (!saved.ok) return saved.response;
  redirectWithToast(paths.test(saved.value._id), {
    kind: "success",
    title: params.id ? "Draft saved" : "Test saved as a draft",
    description: saved.value.title,
  });
}

const RELEASES = [
  ["immediate", "Immediately after submitting"],
  ["after-window", "After the window closes"],
  ["manual", "When I publish them"],
] as const;

export default function TestBuilder({ loaderData, actionData }: Route.ComponentProps) {
  const { businesses, facets, saved } = loaderData;
  if (saved && !saved.draft) return <PublishedAlready test={saved} />;
  return (
    <Builder
      key={saved?._id ?? "new"}
      businesses={businesses}
      facets={facets}
      saved={saved}
      failure={actionData && !actionData.ok ? actionData : null}
    />
  );
}

/** A published test's paper is what its students sat: it is not changed here. */
function PublishedAlready({ test }: { test: { _id: string; title: string } }) {
  const paths = testsPaths(useLocation().pathname);
  return (
    <div className="mx-auto max-w-5xl">
      <BackLink>Tests</BackLink>
      <PageHeader title={`Edit ${test.title}`} />
      <EmptyState title="This test is already published">
        <p>Its paper is what students take, so it cannot be changed. Close it and draft a new one instead.</p>
        <ButtonLink to={paths.test(test._id)} variant="outline" className="mt-3">
          Back to the test
        </ButtonLink>
      </EmptyState>
    </div>
  );
}

type LoaderData = Route.ComponentProps["loaderData"];

function Builder({
  businesses,
  facets,
  saved,
  failure,
}: {
  businesses: LoaderData["businesses"];
  facets: LoaderData["facets"];
  saved: LoaderData["saved"];
  failure: TestsAreaFailure | null;
}) {
  const busy = useNavigation().state === "submitting";
  const [draft, setDraft] = useState<TestDraft>(() => saved?.draft ?? draftFor("custom", businesses[0]?._id ?? ""));
  const set = (patch: Partial<TestDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const setSection = (index: number, patch: Partial<SectionDraft>) =>
    setDraft((d) => ({ ...d, sections: d.sections.map((s, i) => (i === index ? { ...s, ...patch } : s)) }));

  const choosePattern = (pattern: PatternId) =>
    setDraft((d) => ({
      ...d,
      pattern,
      durationMinutes: PATTERNS[pattern].durationMinutes,
      sections: sectionsOf(pattern),
    }));

  return (
    <div className="mx-auto max-w-5xl">
      <BackLink>Tests</BackLink>
      <PageHeader
        title={saved ? `Edit ${saved.title}` : "New test"}
        description={
          saved
            ? "Change anything before you publish. Questions already in the test keep the version it was built with."
            : "Start from an exam pattern, fill each section from the institute's question bank and your own, and save it as a draft."
        }
      />
      <Form method="post" className="grid grid-cols-1 gap-6">
        <input type="hidden" name="payload" value={JSON.stringify(createTestBody(draft))} />
        {failure && (
          <p
            role="alert"
            className="rounded-md border border-destructive/40 bg-destructive/10 p-3 text-sm text-destructive"
          >
            {failure.error}
          </p>
        )}
        {saved && saved.lost > 0 && (
          <p role="status" className="rounded-md border bg-accent p-3 text-sm text-accent-foreground">
            {saved.lost === 1 ? "1 question" : `${saved.lost} questions`} of this draft{" "}
            {saved.lost === 1 ? "is" : "are"} no longer in any bank and will be left out when you save.
          </p>
        )}

        <Card>
          <CardHeader>
            <CardTitle className="text-base">Pattern and settings</CardTitle>
          </CardHeader>
          <CardContent className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <Field label="Pattern" hint={patternHint(draft.pattern)}>
              <Select value={draft.pattern} onChange={(e) => choosePattern(e.target.value as PatternId)}>
                {PATTERN_IDS.map((id) => (
                  <option key={id} value={id}>
                    {PATTERNS[id].name}
                  </option>
                ))}
              </Select>
            </Field>
            <Field label="Title">
              <Input value={draft.title} onChange={(e) => set({ title: e.target.value })} maxLength={200} />
            </Field>
            <Field
              label="Institute"
              hint={businesses.length === 0 ? NO_TEAMS_HINT : "Students of this institute can take it."}
            >
              <Select value={draft.businessId} onChange={(e) => set({ businessId: e.target.value })}>
                <option value="">No institute yet</option>
                {businesses.map((b) => (
                  <option key={b._id} value={b._id}>
                    {b.name}
                  </option>
                ))}
              </Select>
            </Field>
            <Field label="Duration (minutes)">
              <Input
                type="number"
                min={1}
                max={600}
                value={draft.durationMinutes}
                onChange={(e) => set({ durationMinutes: Number(e.target.value) })}
              />
            </Field>
            <fieldset className="min-w-0 grid gap-2">
              <legend className="mb-1.5 text-sm font-medium">Price</legend>
              <div className="flex flex-wrap items-center gap-4 text-sm">
                <Radio name="price-kind" checked={!draft.paid} onChange={() => set({ paid: false })} label="Free" />
                <Radio name="price-kind" checked={draft.paid} onChange={() => set({ paid: true })} label="Paid" />
                {draft.paid && (
                  <Input
                    type="number"
                    min={1}
                    aria-label="Price in rupees"
                    className="w-32"
                    value={draft.price || ""}
                    onChange={(e) => set({ price: Number(e.target.value) })}
                  />
                )}
              </div>
            </fieldset>
            <fieldset className="min-w-0 grid gap-2">
              <legend className="mb-1.5 text-sm font-medium">When it can be taken</legend>
              <div className="flex flex-wrap gap-4 text-sm">
                <Radio
                  name="window"
                  checked={!draft.scheduled}
                  onChange={() => set({ scheduled: false })}
                  label="Anytime"
                />
                <Radio
                  name="window"
                  checked={draft.scheduled}
                  onChange={() => set({ scheduled: true })}
                  label="Between two times"
                />
              </div>
              {draft.scheduled && (
                <div className="grid gap-2 sm:grid-cols-2">
                  <Field label="Opens">
                    <Input
                      type="datetime-local"
                      value={draft.opensAt}
                      onChange={(e) => set({ opensAt: e.target.value })}
                    />
                  </Field>
                  <Field label="Closes">
                    <Input
                      type="datetime-local"
                      value={draft.closesAt}
                      onChange={(e) => set({ closesAt: e.target.value })}
                    />
                  </Field>
                </div>
              )}
            </fieldset>
            <Field label="Attempts allowed">
              <Input
                type="number"
                min={1}
                max={20}
                value={draft.attemptsAllowed}
                onChange={(e) => set({ attemptsAllowed: Number(e.target.value) })}
              />
            </Field>
            <Field label="Results shown">
              <Select
                value={draft.resultRelease}
                onChange={(e) => set({ resultRelease: e.target.value as TestDraft["resultRelease"] })}
              >
                {RELEASES.map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </Select>
            </Field>
            <label className="flex items-start gap-2 text-sm sm:col-span-2">
              <input
                type="checkbox"
                checked={draft.practice}
                onChange={(e) => set({ practice: e.target.checked })}
                className="mt-0.5 size-4 accent-primary"
              />
              <span>
                <span className="font-medium">Practice mode</span>
                <span className="block text-muted-foreground">
                  Students may see a question&apos;s solution as soon as they answer it.
                </span>
              </span>
            </label>
            <fieldset className="grid gap-2 text-sm sm:col-span-2">
              <legend className="font-medium">Equal scores are ranked by</legend>
              <p className="text-muted-foreground">
                Applied in this order; with none ticked, equal scores share a rank. Percentiles stay on the score alone.
              </p>
              <div className="grid gap-1.5 sm:grid-cols-2">
                {TIE_BREAK_KINDS.map((kind) => (
                  <label key={kind} className="flex items-center gap-2">
                    <input
                      type="checkbox"
                      checked={(draft.tieBreaks ?? []).includes(kind)}
                      onChange={(e) =>
                        set({
                          tieBreaks: e.target.checked
                            ? [...(draft.tieBreaks ?? []), kind]
                            : (draft.tieBreaks ?? []).filter((k) => k !== kind),
                        })
                      }
                      className="size-4 accent-primary"
                    />
                    {TIE_BREAK_LABELS[kind][0].toUpperCase() + TIE_BREAK_LABELS[kind].slice(1)}
                  </label>
                ))}
              </div>
            </fieldset>
          </CardContent>
        </Card>

        {draft.sections.map((section, index) => (
          <SectionEditor
            key={`${draft.pattern}-${index}`}
            section={section}
            index={index}
            facets={facets[draft.businessId] ?? facets[""]}
            usableFor={draft.businessId || "own"}
            taken={new Set(draft.sections.flatMap((s) => s.picked.map((q) => q._id)))}
            onChange={(patch) => setSection(index, patch)}
            onRemove={
              draft.pattern === "custom" && draft.sections.length > 1
                ? () => setDraft((d) => ({ ...d, sections: d.sections.filter((_, i) => i !== index) }))
                : undefined
            }
          />
        ))}
        {draft.pattern === "custom" && (
          <Button
            variant="outline"
            className="justify-self-start"
            onClick={() =>
              setDraft((d) => ({
                ...d,
                sections: [...d.sections, { ...sectionsOf("custom")[0], name: `Section ${d.sections.length + 1}` }],
              }))
            }
          >
            <Plus className="size-4" aria-hidden /> Add section
          </Button>
        )}

        <div className="flex flex-wrap items-center justify-end gap-3 border-t pt-4">
          <p className="text-sm text-muted-foreground">
            {countOf(
              draft.sections.reduce((sum, s) => sum + sectionTotal(s), 0),
              "question",
            )}{" "}
            in {countOf(draft.sections.length, "section")}
          </p>
          <Button type="submit" disabled={busy}>
            {busy ? "Saving..." : saved ? "Save draft" : "Create draft"}
          </Button>
        </div>
      </Form>
    </div>
  );
}

/** "1 question", "2 questions". */
function countOf(n: number, noun: string) {
  return `${n} ${n === 1 ? noun : `${noun}s`}`;
}

function patternHint(pattern: PatternId) {
  const p = PATTERNS[pattern];
  return `${p.sections.length} ${p.sections.length === 1 ? "section" : "sections"}, ${p.durationMinutes} minutes${p.mode === "omr" ? ", OMR sheet" : ""}`;
}

function Radio({
  name,
  checked,
  onChange,
  label,
}: {
  name: string;
  checked: boolean;
  onChange: () => void;
  label: string;
}) {
  return (
    <label className="flex items-center gap-2">
      <input type="radio" name={name} checked={checked} onChange={onChange} className="size-4 accent-primary" />
      {label}
    </label>
  );
}

type Facets = LoaderData["facets"][string];

function SectionEditor({
  section,
  index,
  facets,
  usableFor,
  taken,
  onChange,
  onRemove,
}: {
  section: SectionDraft;
  index: number;
  facets: Facets;
  /** The test's institute ("own": none): the picker lists its bank and the builder's own. */
  usableFor: string;
  taken: Set<string>;
  onChange: (patch: Partial<SectionDraft>) => void;
  onRemove?: () => void;
}) {
  const wanted = patternCount(section);
  const total = sectionTotal(section);
  const types = Object.keys(section.marking) as QuestionType[];
  return (
    <Card aria-label={`Section ${index + 1}`} role="group">
      <CardHeader className="gap-3">
        <div className="flex flex-wrap items-end gap-3">
          <Field label={`Section ${index + 1} name`} className="min-w-0 flex-1">
            <Input value={section.name} onChange={(e) => onChange({ name: e.target.value })} />
          </Field>
          <p className="pb-2 text-sm tabular-nums text-muted-foreground">
            {total} {total === 1 ? "question" : "questions"}
            {wanted ? ` of ${wanted}` : ""}
          </p>
          {onRemove && (
            <Button variant="ghost" size="sm" onClick={onRemove} aria-label={`Remove section ${index + 1}`}>
              <Trash2 className="size-4" aria-hidden />
            </Button>
          )}
        </div>
        <ul className="grid gap-1 text-xs text-muted-foreground">
          {types.map((type) => (
            <li key={type}>
              <span className="font-medium text-foreground">
                {QUESTION_TYPE_NAMES[type]}
                {section.counts[type] ? ` (${section.counts[type]})` : ""}:
              </span>{" "}
              {describeMarking(type, section.marking[type]!)}
            </li>
          ))}
          {section.attemptAny ? <li>Any {section.attemptAny} of the questions count.</li> : null}
        </ul>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-5 md:grid-cols-2">
        <QuestionPicker section={section} facets={facets} usableFor={usableFor} taken={taken} onChange={onChange} />
        <RuleEditor section={section} facets={facets} onChange={onChange} />
      </CardContent>
    </Card>
  );
}

/** Pick by hand: the bank's page, searched and filtered, with a checkbox per question. */
function QuestionPicker({
  section,
  facets,
  usableFor,
  taken,
  onChange,
}: {
  section: SectionDraft;
  facets: Facets;
  usableFor: string;
  taken: Set<string>;
  onChange: (patch: Partial<SectionDraft>) => void;
}) {
  const fetcher = useFetcher<typeof bankLoader>();
  const bank = testsPaths(useLocation().pathname).bank;
  const [q, setQ] = useState("");
  // A section's own subject, or the bank's name for it (NEET's Botany and Zoology are filed under Biology).
  const [subject, setSubject] = useState(() => pickerSubject(section.subject, facets.subjects));
  const [chapter, setChapter] = useState("");
  // Only the types the section marks: a NEET section takes single-correct questions alone.
  const allowed = QUESTION_TYPES.filter((t) => section.marking[t]);
  const onlyType = allowed.length === 1 ? allowed[0] : "";
  const { load } = fetcher;
  useEffect(() => {
    const params = new URLSearchParams(
      Object.entries({ q, subject, chapter, type: onlyType, for: usableFor }).filter(([, v]) => v),
    );
    const timer = setTimeout(() => load(`${bank}?${params}`), 250);
    return () => clearTimeout(timer);
  }, [q, subject, chapter, onlyType, usableFor, load, bank]);
  const mine = new Set(section.picked.map((p) => p._id));
  const results = (fetcher.data?.questions ?? []).filter((question) => allowed.includes(question.type as QuestionType));
  const toggle = (question: { _id: string; text: string; type: string }, on: boolean) =>
    onChange({
      picked: on
        ? [...section.picked, { _id: question._id, text: question.text, type: question.type as QuestionType }]
        : section.picked.filter((p) => p._id !== question._id),
    });
  return (
    <div className="grid grid-cols-1 content-start gap-2">
      <h3 className="text-sm font-semibold">Pick questions</h3>
      <div className="grid grid-cols-2 gap-2">
        <Input
          type="search"
          placeholder="Search the bank"
          aria-label="Search the bank"
          className="col-span-2"
          value={q}
          onChange={(e) => setQ(e.target.value)}
        />
        <Select aria-label="Subject" value={subject} onChange={(e) => setSubject(e.target.value)}>
          <option value="">All subjects</option>
          {facets.subjects.map((s) => (
            <option key={s}>{s}</option>
          ))}
        </Select>
        <Select aria-label="Chapter" value={chapter} onChange={(e) => setChapter(e.target.value)}>
          <option value="">All chapters</option>
          {[...new Set(facets.chapters.filter((c) => !subject || c.subject === subject).map((c) => c.chapter))].map(
            (c) => (
              <option key={c}>{c}</option>
            ),
          )}
        </Select>
      </div>
      <ul
        className="max-h-72 divide-y overflow-y-auto rounded-md border"
        aria-label="Questions in the bank"
        aria-busy={fetcher.state === "loading"}
      >
        {results.length === 0 && (
          <li className="p-3 text-sm text-muted-foreground">
            {fetcher.state === "idle" && fetcher.data ? "No questions match." : "Loading..."}
          </li>
        )}
        {results.map((question) => (
          <li key={question._id}>
            <label className="flex cursor-pointer items-start gap-2 p-2 text-sm hover:bg-muted/50">
              <input
                type="checkbox"
                className="mt-1 size-4 shrink-0 accent-primary"
                checked={mine.has(question._id)}
                disabled={!mine.has(question._id) && taken.has(question._id)}
                onChange={(e) => toggle(question, e.target.checked)}
              />
              <span className="min-w-0">
                <MathText source={question.text} className="line-clamp-2 py-1" />
                <span className="text-xs text-muted-foreground">
                  {QUESTION_TYPE_NAMES[question.type as QuestionType]}
                  {question.tags.chapter ? ` · ${question.tags.chapter}` : ""}
                  {question.tags.difficulty ? ` · ${DIFFICULTY_NAMES[question.tags.difficulty]}` : ""}
                </span>
              </span>
            </label>
          </li>
        ))}
      </ul>
      <p className="text-xs text-muted-foreground">{section.picked.length} picked by hand</p>
      {section.picked.length > 0 && (
        <ol aria-label="Picked questions" className="grid gap-1 rounded-md border p-2 text-sm">
          {section.picked.map((picked, at) => (
            <li key={picked._id} className="flex items-start gap-2">
              <span className="pt-1 tabular-nums text-muted-foreground">{at + 1}.</span>
              <MathText source={picked.text} className="line-clamp-2 min-w-0 flex-1 py-1" />
              <Button
                variant="ghost"
                size="sm"
                aria-label={`Take out picked question ${at + 1}`}
                onClick={() => toggle(picked, false)}
              >
                <X className="size-4" aria-hidden />
              </Button>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

/** Draw by rule: N questions at random per chapter × difficulty (or any tags), at creation. */
function RuleEditor({
  section,
  facets,
  onChange,
}: {
  section: SectionDraft;
  facets: Facets;
  onChange: (patch: Partial<SectionDraft>) => void;
}) {
  const [chapters, setChapters] = useState<string[]>([]);
  const [levels, setLevels] = useState<Difficulty[]>([]);
  const [count, setCount] = useState(1);
  const allowed = QUESTION_TYPES.filter((t) => section.marking[t]);
  // A section that marks one type draws only that type (NEET: single-correct).
  const [type, setType] = useState<QuestionType | "">(allowed.length === 1 ? allowed[0] : "");
  const available = facets.chapters.filter((c) => sectionTakesSubject(section.subject, c.subject));
  const setRule = (at: number, patch: Partial<DrawRuleDraft>) =>
    onChange({ rules: section.rules.map((r, i) => (i === at ? { ...r, ...patch } : r)) });
  const addRules = () => {
    const chosen = available.filter((c) => chapters.includes(`${c.subject ?? ""}/${c.chapter}`));
    if (chosen.length === 0) return;
    onChange({ rules: [...section.rules, ...perChapterRules(chosen, levels, count, type)] });
    setChapters([]);
  };
  return (
    <div className="grid grid-cols-1 content-start gap-2">
      <h3 className="text-sm font-semibold">Draw by rule</h3>
      <fieldset className="grid min-w-0 grid-cols-1 gap-2 rounded-md border p-3">
        <legend className="px-1 text-xs text-muted-foreground">N questions per chapter × difficulty</legend>
        {available.length === 0 ? (
          <p className="text-sm text-muted-foreground">Tag questions with chapters to draw by chapter.</p>
        ) : (
          <div className="flex max-h-32 flex-wrap gap-x-4 gap-y-1 overflow-y-auto text-sm">
            {available.map((c) => {
              const key = `${c.subject ?? ""}/${c.chapter}`;
              return (
                <label key={key} className="flex items-center gap-1.5">
                  <input
                    type="checkbox"
                    className="size-4 accent-primary"
                    checked={chapters.includes(key)}
                    onChange={(e) =>
                      setChapters((list) => (e.target.checked ? [...list, key] : list.filter((k) => k !== key)))
                    }
                  />
                  {c.chapter}
                </label>
              );
            })}
          </div>
        )}
        <div className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
          {DIFFICULTIES.map((d) => (
            <label key={d} className="flex items-center gap-1.5">
              <input
                type="checkbox"
                className="size-4 accent-primary"
                checked={levels.includes(d)}
                onChange={(e) => setLevels((list) => (e.target.checked ? [...list, d] : list.filter((l) => l !== d)))}
              />
              {DIFFICULTY_NAMES[d]}
            </label>
          ))}
        </div>
        <div className="flex flex-wrap items-end gap-2">
          <div className="grid gap-1">
            <Label htmlFor={`${section.name}-n`} className="text-xs">
              Questions each
            </Label>
            <Input
              id={`${section.name}-n`}
              type="number"
              min={1}
              max={200}
              className="w-24"
              value={count}
              onChange={(e) => setCount(Math.max(1, Number(e.target.value) || 1))}
            />
          </div>
          <Select
            aria-label="Question type to draw"
            className="w-auto"
            value={type}
            onChange={(e) => setType(e.target.value as QuestionType | "")}
          >
            {allowed.length > 1 && <option value="">Any type</option>}
            {allowed.map((t) => (
              <option key={t} value={t}>
                {QUESTION_TYPE_NAMES[t]}
              </option>
            ))}
          </Select>
          <Button variant="secondary" size="sm" onClick={addRules} disabled={chapters.length === 0}>
            Add rules
          </Button>
        </div>
      </fieldset>
      {section.rules.length > 0 && (
        <ul className="grid grid-cols-1 gap-1 text-sm" aria-label="Draw rules">
          {section.rules.map((rule, at) => (
            <li key={at} className="flex items-center gap-2 rounded-md bg-muted/50 px-2 py-1">
              <div className="w-20 shrink-0">
                <Input
                  type="number"
                  min={1}
                  max={200}
                  aria-label="How many to draw"
                  className="h-8"
                  value={rule.count}
                  onChange={(e) => setRule(at, { count: Math.max(1, Number(e.target.value) || 1) })}
                />
              </div>
              <span className="min-w-0 flex-1 truncate">
                from{" "}
                {[
                  rule.chapter || rule.subject || "any chapter",
                  rule.difficulty && DIFFICULTY_NAMES[rule.difficulty],
                  rule.type && QUESTION_TYPE_NAMES[rule.type],
                ]
                  .filter(Boolean)
                  .join(" · ")}
              </span>
              <Button
                variant="ghost"
                size="sm"
                aria-label="Remove rule"
                onClick={() => onChange({ rules: section.rules.filter((_, i) => i !== at) })}
              >
                <Trash2 className="size-4" aria-hidden />
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
