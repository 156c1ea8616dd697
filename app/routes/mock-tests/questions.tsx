import { Form, Link, useLocation, useNavigation, useSubmit } from "react-router";
import { Copy, Download, FilePlus2, Pencil, Trash2, Upload } from "lucide-react";
import type { Route } from "./+types/questions";
import {
  bankChoices,
  postedBank,
  redirectWithToast,
  refusalOr,
  refused,
  testsAreaContext,
} from "~/lib/mock-tests/area.server";
import { defaultBank } from "~/lib/mock-tests/banks";
import { describeKey } from "~/lib/mock-tests/question-form";
import { QUESTION_TYPE_NAMES } from "#common/mock-tests/marking-text.ts";
import { QUESTION_TYPES, type QuestionType } from "#common/mock-tests/marking.ts";
import { MathText } from "~/components/mock-tests/math-text";
import { DIFFICULTIES, DIFFICULTY_NAMES } from "~/components/mock-tests/question-editor";
import { Badge } from "~/components/ui/badge";
import { Button, ButtonLink, buttonClasses } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Confirm } from "~/components/ui/confirm";
import { EmptyState } from "~/components/ui/empty-state";
import { Input, Label, Select } from "~/components/ui/input";
import { PageHeader } from "~/components/ui/page-header";
import { onDesk } from "~/lib/mock-tests/area-paths";

export const meta: Route.MetaFunction = () => [{ title: "Question bank | Tests" }];

const PAGE_SIZE = 20;
/** The largest file the import takes, as the API's (a ZIP of a sheet and its images: 32 MB; a sheet alone: 8 MB). */
const MAX_FILE_BYTES = 32 * 1024 * 1024;
const FILTERS = ["bank", "subject", "chapter", "difficulty", "type", "q"] as const;

function filtersOf(url: URL, banks: { value: string }[]) {
  const filter: Partial<Record<(typeof FILTERS)[number], string>> = {};
  for (const name of FILTERS) {
    const value = url.searchParams.get(name)?.trim().slice(0, 200);
    if (value) filter[name] = value;
  }
  if (filter.bank && !banks.some((b) => b.value === filter.bank)) delete filter.bank;
  if (filter.difficulty && !(DIFFICULTIES as readonly string[]).includes(filter.difficulty)) delete filter.difficulty;
  if (filter.type && !(QUESTION_TYPES as readonly string[]).includes(filter.type)) delete filter.type;
  return filter;
}

/**
 * The bank's page of questions (also what the test builder's picker loads, with `for`: the
 * institute whose test it builds, or "own", whose usable questions it lists).
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, viewer, reader } = await testsAreaContext(context, request);
  const url = new URL(request.url);
  const banks = await bankChoices(services, reader);
  const filter = filtersOf(url, banks);
  // Only one of the person's own banks is taken ("own" or an institute they hold a role in).
  const usableFor = banks.find((b) => b.value === url.searchParams.get("for"))?.value;
  const scope = {
    bank: filter.bank,
    ...(usableFor ? { usableIn: usableFor === "own" ? null : usableFor } : {}),
  };
  const page = Math.max(1, Math.min(50_000, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1));
  const [{ questions, total }, facets] = await Promise.all([
    services.questionBank.list(reader, { ...filter, ...scope, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE }),
    services.testsArea.facets(reader, scope),
  ]);
  const bankName = new Map(banks.map((b) => [b.value, b.name]));
  return {
    viewerId: viewer.id,
    desk: reader.desk ?? null,
    banks,
    newBank: defaultBank(banks, filter.bank ?? null),
    filter,
    page,
    pages: Math.max(1, Math.ceil(total / PAGE_SIZE)),
    total,
    questions: questions.map((q) => ({
      _id: q._id,
      type: q.type,
      text: q.text,
      options: q.options ?? [],
      key: describeKey(q.type, q.answer),
      tags: q.tags ?? {},
      hindi: Boolean(q.hindi),
      bank: bankName.get(q.businessId ?? "own") ?? "",
      mine: q.authorId === viewer.id,
    })),
    facets,
  };
}

/** Import a file (all its rows or none), copy questions to another bank, or delete one of the viewer's questions. */
export async function action({ context, request }: Route.ActionArgs) {
  const { services, reader, paths } = await testsAreaContext(context, request);
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent === "delete") {
    const removed = await refusalOr(() => services.questionBank.remove(reader, String(form.get("id") ?? "")));
    if (!removed.ok) return removed.response;
    redirectWithToast(paths.bank, { kind: "success", title: "Question deleted" });
  }
  if (intent === "copy") {
    const ids = form.getAll("ids").map(String);
    if (ids.length === 0) return refused("Choose the questions to copy");
    const to = String(form.get("to") ?? "");
    const copied = await refusalOr(() => services.questionBank.copy(reader, { questions: ids, to }));
    if (!copied.ok) return copied.response;
    const banks = await bankChoices(services, reader);
    const count = copied.value.length;
    redirectWithToast(`${paths.bank}?${new URLSearchParams({ bank: to })}`, {
      kind: "success",
      title: `${count} ${count === 1 ? "question" : "questions"} copied`,
      description: `To ${banks.find((b) => b.value === to)?.name ?? "the bank"}`,
    });
  }
  if (intent !== "import") return refused("Unknown action");
  const file = form.get("file");
  if (!(file instanceof File) || file.size === 0) return refused("Choose a question file to import");
  if (file.size > MAX_FILE_BYTES)
    return refused("The file is too large (at most 32 MB for a ZIP, 8 MB for a sheet).", 413);
  const imported = await refusalOr(async () =>
    services.questionBank.import(
      reader,
      { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) },
      postedBank(form),
    ),
  );
  if (!imported.ok) return imported.response;
  const count = imported.value.length;
  redirectWithToast(paths.bank, {
    kind: "success",
    title: `${count} ${count === 1 ? "question" : "questions"} imported`,
    description: file.name,
  });
}

export default function QuestionBank({ loaderData, actionData }: Route.ComponentProps) {
  const { filter, page, pages, total, questions, facets, banks, newBank } = loaderData;
  const location = useLocation();
  const submit = useSubmit();
  const importing = useNavigation().formData?.get("intent") === "import";
  const failure = actionData && !actionData.ok ? actionData : null;
  const exportQuery = new URLSearchParams(filter as Record<string, string>);
  const exportHref = (format: string) =>
    onDesk(
      `/api/questions/export?${new URLSearchParams({ ...Object.fromEntries(exportQuery), format })}`,
      loaderData.desk,
    );
  const pageHref = (to: number) => {
    const params = new URLSearchParams(location.search);
    params.set("page", String(to));
    return `?${params}`;
  };
  const chapters = [
    ...new Set(facets.chapters.filter((c) => !filter.subject || c.subject === filter.subject).map((c) => c.chapter)),
  ];

  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader
        title="Question bank"
        description={
          banks.length > 1
            ? "Your own questions and your institutes' banks. A test is built from its institute's bank and your own; copy questions to use them in another institute's tests."
            : banks[0]?.value !== "own"
              ? `${banks[0]?.name}'s question bank. Its tests are built from it, by hand or by rule.`
              : "Your own questions. Your tests are built from them, by hand or by rule."
        }
        actions={
          <>
            <ButtonLink to=".." relative="path" variant="outline">
              Tests
            </ButtonLink>
            <ButtonLink to={`new?${new URLSearchParams({ bank: newBank })}`}>
              <FilePlus2 className="size-4" aria-hidden /> New question
            </ButtonLink>
          </>
        }
      />

      <div className="mb-6 grid gap-4 lg:grid-cols-[1.3fr_1fr]">
        <Card>
          <CardHeader>
            <CardTitle className="text-base">Import questions</CardTitle>
          </CardHeader>
          <CardContent>
            <Form method="post" encType="multipart/form-data" className="grid gap-3">
              <input type="hidden" name="intent" value="import" />
              {banks.length > 1 ? (
                <div className="grid gap-1.5">
                  <Label htmlFor="import-bank">Into</Label>
                  <Select id="import-bank" name="bank" defaultValue={newBank}>
                    {banks.map((b) => (
                      <option key={b.value} value={b.value}>
                        {b.name}
                      </option>
                    ))}
                  </Select>
                </div>
              ) : (
                <input type="hidden" name="bank" value={newBank} />
              )}
              <Label htmlFor="question-file">
                CSV, XLSX or JSON file, a ZIP of a sheet and its images, or a Word file
              </Label>
              <div className="flex flex-wrap gap-2">
                <Input
                  id="question-file"
                  name="file"
                  type="file"
                  accept=".csv,.xlsx,.json,.zip,.docx"
                  className="min-w-0 flex-1"
                  required
                />
                <Button type="submit" disabled={importing}>
                  <Upload className="size-4" aria-hidden /> {importing ? "Importing..." : "Import"}
                </Button>
              </div>
              <p className="text-xs text-muted-foreground">
                Every row is checked first; if any row has a problem, nothing is imported. Export a file to see the
                columns. A sheet shows a figure with ![Figure](name.png), naming a file in its ZIP or an https://
                address.
              </p>
            </Form>
            {failure && (
              <div role="alert" className="mt-3 rounded-md border border-destructive/40 bg-destructive/10 p-3 text-sm">
                <p className="font-medium text-destructive">{failure.error}</p>
                {failure.problems.length > 0 && (
                  <ul className="mt-2 list-disc space-y-1 pl-5" aria-label="Problems in the file">
                    {failure.problems.map((p) => (
                      <li key={`${p.where}:${p.message}`}>
                        {p.where}: {p.message}
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle className="text-base">Export</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-3">
            <p className="text-sm text-muted-foreground">
              {Object.keys(filter).length ? "The questions matching the filters" : "The whole bank"}, in the
              import&apos;s format.
            </p>
            <div className="flex flex-wrap gap-2">
              {(["csv", "xlsx", "json"] as const).map((format) => (
                <a key={format} href={exportHref(format)} download className={buttonClasses("outline", "sm")}>
                  <Download className="size-4" aria-hidden /> {format.toUpperCase()}
                </a>
              ))}
            </div>
          </CardContent>
        </Card>
      </div>

      <Form
        method="get"
        className="mb-4 grid grid-cols-2 gap-3 rounded-xl border bg-card p-4 md:grid-cols-[1.3fr_1fr_1fr_0.8fr_0.9fr_1.2fr_auto]"
      >
        {banks.length > 1 && (
          <FilterSelect
            name="bank"
            label="Bank"
            value={filter.bank}
            options={banks.map((b) => [b.value, b.name])}
            all="All banks"
          />
        )}
        <FilterSelect
          name="subject"
          label="Subject"
          value={filter.subject}
          options={facets.subjects.map((s) => [s, s])}
        />
        <FilterSelect name="chapter" label="Chapter" value={filter.chapter} options={chapters.map((c) => [c, c])} />
        <FilterSelect
          name="difficulty"
          label="Difficulty"
          value={filter.difficulty}
          options={DIFFICULTIES.map((d) => [d, DIFFICULTY_NAMES[d]])}
        />
        <FilterSelect
          name="type"
          label="Type"
          value={filter.type}
          options={QUESTION_TYPES.map((t) => [t, QUESTION_TYPE_NAMES[t]])}
        />
        <div className="col-span-2 grid gap-1.5 md:col-span-1">
          <Label htmlFor="bank-q">Search</Label>
          <Input id="bank-q" name="q" type="search" defaultValue={filter.q ?? ""} placeholder="Words in the question" />
        </div>
        <div className="col-span-2 flex items-end gap-2 md:col-span-1">
          <Button type="submit" variant="secondary">
            Filter
          </Button>
          {Object.keys(filter).length > 0 && (
            <Link to="?" className={buttonClasses("ghost")}>
              Clear
            </Link>
          )}
        </div>
      </Form>

      <p className="mb-3 text-sm text-muted-foreground" aria-live="polite">
        {total} {total === 1 ? "question" : "questions"}
        {pages > 1 ? ` · page ${page} of ${pages}` : ""}
      </p>

      {banks.length > 1 && questions.length > 0 && (
        <Form
          id="copy-questions"
          method="post"
          className="mb-3 flex flex-wrap items-end gap-2 rounded-xl border bg-card p-3 text-sm"
        >
          <input type="hidden" name="intent" value="copy" />
          <p className="basis-full text-muted-foreground">
            Tick questions below to copy them into another bank; the copies are yours to edit there.
          </p>
          <div className="grid gap-1.5">
            <Label htmlFor="copy-to">Copy to</Label>
            <Select id="copy-to" name="to" defaultValue={banks.find((b) => b.value !== filter.bank)?.value}>
              {banks.map((b) => (
                <option key={b.value} value={b.value}>
                  {b.name}
                </option>
              ))}
            </Select>
          </div>
          <Button type="submit" variant="secondary">
            <Copy className="size-4" aria-hidden /> Copy selected
          </Button>
        </Form>
      )}

      {questions.length === 0 ? (
        <EmptyState
          title={
            Object.keys(filter).length
              ? "No questions match these filters."
              : "No questions yet. Write one or import a file."
          }
        />
      ) : (
        <ul className="grid gap-3">
          {questions.map((q, index) => (
            <li key={q._id} className="rounded-xl border bg-card p-4">
              <div className="mb-2 flex flex-wrap items-center gap-2 text-xs">
                {banks.length > 1 && (
                  <input
                    type="checkbox"
                    name="ids"
                    value={q._id}
                    form="copy-questions"
                    aria-label={`Select question ${(page - 1) * PAGE_SIZE + index + 1} to copy`}
                    className="size-4 accent-primary"
                  />
                )}
                <Badge tone="muted">{q.bank}</Badge>
                <Badge>{QUESTION_TYPE_NAMES[q.type as QuestionType]}</Badge>
                {q.tags.subject && <Badge tone="muted">{q.tags.subject}</Badge>}
                {q.tags.chapter && <Badge tone="muted">{q.tags.chapter}</Badge>}
                {q.tags.difficulty && <Badge tone="warning">{DIFFICULTY_NAMES[q.tags.difficulty]}</Badge>}
                {q.hindi && <Badge tone="muted">Hindi</Badge>}
                <span className="ml-auto text-muted-foreground">Answer: {q.key}</span>
              </div>
              <MathText source={q.text} className="text-sm [&_.katex-display]:overflow-x-auto" />
              {q.options.length > 0 && (
                <ol className="mt-2 grid gap-1 text-sm text-muted-foreground sm:grid-cols-2">
                  {q.options.map((option, index) => (
                    <li key={index} className="min-w-0 break-words">
                      ({String.fromCharCode(65 + index)}) <MathText source={option} inline />
                    </li>
                  ))}
                </ol>
              )}
              {q.mine && (
                <div className="mt-3 flex justify-end gap-2">
                  <ButtonLink to={q._id} variant="outline" size="sm">
                    <Pencil className="size-4" aria-hidden /> Edit
                  </ButtonLink>
                  <Confirm
                    title="Delete this question?"
                    description="It leaves your bank; tests already built keep their copy."
                    onConfirm={() => submit({ intent: "delete", id: q._id }, { method: "post" })}
                    trigger={
                      <Button variant="outline" size="sm" aria-label="Delete question">
                        <Trash2 className="size-4" aria-hidden /> Delete
                      </Button>
                    }
                  />
                </div>
              )}
            </li>
          ))}
        </ul>
      )}

      {pages > 1 && (
        <nav aria-label="Pages" className="mt-4 flex items-center justify-center gap-2">
          {page > 1 && (
            <Link to={pageHref(page - 1)} className={buttonClasses("outline", "sm")}>
              Previous
            </Link>
          )}
          <span className="text-sm text-muted-foreground">
            Page {page} of {pages}
          </span>
          {page < pages && (
            <Link to={pageHref(page + 1)} className={buttonClasses("outline", "sm")}>
              Next
            </Link>
          )}
        </nav>
      )}
    </div>
  );
}

function FilterSelect({
  name,
  label,
  value,
  options,
  all = "All",
}: {
  name: string;
  label: string;
  value: string | undefined;
  options: (readonly [string, string])[];
  all?: string;
}) {
  return (
    <div className="grid min-w-0 gap-1.5">
      <Label htmlFor={`bank-${name}`}>{label}</Label>
      <Select id={`bank-${name}`} name={name} defaultValue={value ?? ""}>
        <option value="">{all}</option>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </Select>
    </div>
  );
}
