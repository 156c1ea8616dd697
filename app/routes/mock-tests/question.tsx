import type { Route } from "./+types/question";
import {
  bankChoices,
  orNotFound,
  postedBank,
  redirectWithToast,
  refusalOr,
  refused,
  testsAreaContext,
} from "~/lib/mock-tests/area.server";
import { defaultBank } from "~/lib/mock-tests/banks";
import { editorField, formValuesOf, questionFromForm } from "~/lib/mock-tests/question-form";
import type { QuestionJson } from "#common/mock-tests/question.ts";
import { QuestionEditor } from "~/components/mock-tests/question-editor";
import { Field } from "~/components/ui/field";
import { Select } from "~/components/ui/input";
import { PageHeader } from "~/components/ui/page-header";
import { BackLink } from "~/components/mock-tests/back-link";

export const meta: Route.MetaFunction = ({ params }) => [
  { title: `${params.id ? "Edit question" : "New question"} | Tests` },
];

/**
 * A new question (into a bank the person picks), or one of the viewer's own to edit (a
 * teammate's opens read-only in the bank).
 */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { services, reader, paths } = await testsAreaContext(context, request);
  const [facets, stored, banks] = await Promise.all([
    services.testsArea.facets(reader),
    params.id ? orNotFound(() => services.questionBank.get(reader, params.id!)) : null,
    bankChoices(services, reader),
  ]);
  if (stored && stored.authorId !== reader.id)
    redirectWithToast(paths.bank, { kind: "error", title: "Only its author can edit a question" });
  const {
    _id: _,
    authorId: __,
    businessId,
    createdAt: ___,
    updatedAt: ____,
    ...question
  } = stored ?? ({} as Record<string, never>);
  return {
    desk: reader.desk ?? null,
    question: stored ? (question as QuestionJson) : null,
    subjects: facets.subjects,
    chapters: [...new Set(facets.chapters.map((c) => c.chapter))],
    banks,
    bank: stored ? (businessId ?? "own") : defaultBank(banks, new URL(request.url).searchParams.get("bank")),
  };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const { services, reader, paths } = await testsAreaContext(context, request);
  const form = await request.formData();
  if (form.get("intent") === "delete") {
    if (!params.id) return refused("Nothing to delete");
    const removed = await refusalOr(() => services.questionBank.remove(reader, params.id!));
    if (!removed.ok) return removed.response;
    redirectWithToast(paths.bank, { kind: "success", title: "Question deleted" });
  }
  const question = questionFromForm(form);
  const saved = await refusalOr(() =>
    params.id
      ? services.questionBank.update(reader, params.id, question)
      : services.questionBank.create(reader, question, postedBank(form)),
  );
  if (!saved.ok) return saved.response;
  redirectWithToast(paths.bank, {
    kind: "success",
    title: params.id ? "Question saved" : "Question added to the bank",
  });
}

export default function QuestionPage({ loaderData, actionData, params }: Route.ComponentProps) {
  const failure = actionData && !actionData.ok ? actionData : null;
  const errors: Record<string, string> = {};
  for (const issue of failure?.issues ?? []) {
    const field = editorField(issue.field, issue.message);
    errors[field] ??= issue.message;
  }
  const formError = failure
    ? failure.issues.length === 0
      ? failure.error
      : (errors.form ?? "Please correct the fields marked below.")
    : null;
  const { banks, bank } = loaderData;
  const bankName = banks.find((b) => b.value === bank)?.name ?? "";
  return (
    <div className="mx-auto max-w-6xl">
      <BackLink>Question bank</BackLink>
      <PageHeader
        title={params.id ? "Edit question" : "New question"}
        description="Tests keep the copy of a question they were built with; changes here apply to tests made from now on."
      />
      <QuestionEditor
        values={formValuesOf(loaderData.question)}
        errors={errors}
        formError={formError}
        subjects={loaderData.subjects}
        chapters={loaderData.chapters}
        submitLabel={params.id ? "Save question" : "Add question"}
        bank={bank}
        desk={loaderData.desk}
        bankField={
          params.id ? (
            <p className="text-sm text-muted-foreground">
              In <span className="font-medium text-foreground">{bankName}</span>. To use it in another bank, copy it
              from the question bank.
            </p>
          ) : (
            <Field
              label="Question bank"
              hint="An institute's bank is shared with everyone on its team; your own is yours alone."
            >
              <Select name="bank" defaultValue={bank}>
                {banks.map((b) => (
                  <option key={b.value} value={b.value}>
                    {b.name}
                  </option>
                ))}
              </Select>
            </Field>
          )
        }
      />
    </div>
  );
}
