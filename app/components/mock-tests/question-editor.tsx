import { useState, type ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { QUESTION_TYPE_NAMES } from "#common/mock-tests/marking-text.ts";
import { QUESTION_TYPES, type QuestionType } from "#common/mock-tests/marking.ts";
import { MAX_DECIMAL_PLACES } from "#common/mock-tests/question.ts";
import { OPTION_LETTERS, type NumericalKind, type QuestionFormValues } from "~/lib/mock-tests/question-form";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input, Label, Select, Textarea } from "~/components/ui/input";
import { MathText } from "./math-text";
import { ImageButton, withFigure } from "./image-button";

export const DIFFICULTIES = ["easy", "medium", "hard"] as const;
export const DIFFICULTY_NAMES = { easy: "Easy", medium: "Medium", hard: "Hard" } as const;

/**
 * The question editor: a plain form (it posts without JavaScript) beside a live preview of the
 * text, options and solution rendered as students will see them.
 */
export function QuestionEditor({
  values,
  errors,
  formError,
  subjects,
  chapters,
  submitLabel,
  bankField,
  bank,
  desk,
}: {
  values: QuestionFormValues;
  /** The server's messages by the editor's field names (see editorField). */
  errors: Record<string, string>;
  formError: string | null;
  subjects: string[];
  chapters: string[];
  submitLabel: string;
  /** Which bank the question goes to (or is in), shown first. */
  bankField?: ReactNode;
  /** The bank a figure is uploaded to when the form has no bank field (an existing question's). */
  bank?: string;
  /** The institute the page works on, which the figure's upload names (`onDesk`). */
  desk?: string | null;
}) {
  const busy = useNavigation().state === "submitting";
  const [type, setType] = useState<QuestionType>(values.type);
  const [text, setText] = useState(values.text);
  const [options, setOptions] = useState(values.options);
  const [solution, setSolution] = useState(values.solution);
  const [numKind, setNumKind] = useState<NumericalKind>(values.numKind);
  const choice = type !== "numerical";

  return (
    <Form
      method="post"
      className="grid content-start gap-5 lg:grid-cols-[minmax(0,1fr)_minmax(0,0.9fr)] lg:gap-x-6 [&>*]:lg:col-start-1"
      noValidate
    >
      {formError && (
        <p
          role="alert"
          className="rounded-md border border-destructive/40 bg-destructive/10 p-3 text-sm text-destructive"
        >
          {formError}
        </p>
      )}
      <Card>
        <CardContent className="grid gap-4 pt-6">
          {bankField}
          <Field label="Type" error={errors.type}>
            <Select name="type" value={type} onChange={(e) => setType(e.target.value as QuestionType)}>
              {QUESTION_TYPES.map((t) => (
                <option key={t} value={t}>
                  {QUESTION_TYPE_NAMES[t]}
                </option>
              ))}
            </Select>
          </Field>
          <Field
            label="Question"
            hint="Markdown; write maths in LaTeX between $…$ (inline) or $$…$$ (on its own line)."
            error={errors.text}
          >
            <Textarea name="text" rows={6} value={text} onChange={(e) => setText(e.target.value)} />
          </Field>
          <ImageButton
            label="Add an image to the question"
            bank={bank}
            desk={desk}
            onInsert={(figure) => setText((current) => withFigure(current, figure))}
          />
        </CardContent>
      </Card>
      {/* Beside the form on a wide screen; on a phone right under the question, where it is typed. */}
      <aside
        className="lg:sticky lg:top-20 lg:col-start-2! lg:row-span-6 lg:row-start-1 lg:self-start"
        aria-label="Preview"
      >
        <Card>
          <CardHeader>
            <CardTitle className="text-base">Preview</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-4 text-sm" data-testid="question-preview">
            {text.trim() ? (
              <MathText source={text} />
            ) : (
              <p className="text-muted-foreground">The question appears here as students will see it.</p>
            )}
            {choice && (
              <ol className="grid gap-2">
                {options.map((option, index) =>
                  option.trim() ? (
                    <li key={OPTION_LETTERS[index]} className="flex gap-2 rounded-md border p-2">
                      <span className="font-medium">({OPTION_LETTERS[index]})</span>
                      <MathText source={option} inline />
                    </li>
                  ) : null,
                )}
              </ol>
            )}
            {solution.trim() && (
              <div className="border-t pt-3">
                <p className="mb-1 font-medium">Solution</p>
                <MathText source={solution} />
              </div>
            )}
          </CardContent>
        </Card>
      </aside>

      {choice ? (
        <Card>
          <CardHeader>
            <CardTitle className="text-base">Options and answer</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-3">
            <p className="text-sm text-muted-foreground">
              {type === "single" ? "Choose the one correct option." : "Tick every correct option."} Leave the boxes you
              do not need empty.
            </p>
            {options.map((option, index) => (
              <div key={OPTION_LETTERS[index]} className="flex items-center gap-3">
                <label className="flex shrink-0 items-center gap-1.5 text-sm font-medium">
                  <input
                    type={type === "single" ? "radio" : "checkbox"}
                    name="answer"
                    value={index}
                    defaultChecked={values.correct.includes(index)}
                    aria-label={`Option ${OPTION_LETTERS[index]} is correct`}
                    className="size-4 accent-primary"
                  />
                  {OPTION_LETTERS[index]}
                </label>
                <Input
                  name="option"
                  aria-label={`Option ${OPTION_LETTERS[index]}`}
                  value={option}
                  onChange={(e) => setOptions((list) => list.map((o, i) => (i === index ? e.target.value : o)))}
                />
                <ImageButton
                  compact
                  label={`Add an image to option ${OPTION_LETTERS[index]}`}
                  bank={bank}
                  desk={desk}
                  onInsert={(figure) =>
                    setOptions((list) => list.map((o, i) => (i === index ? `${o.trimEnd()} ${figure}`.trim() : o)))
                  }
                />
              </div>
            ))}
            {(errors.options || errors.answer) && (
              <p role="alert" className="text-sm text-destructive">
                {errors.options ?? errors.answer}
              </p>
            )}
          </CardContent>
        </Card>
      ) : (
        <Card>
          <CardHeader>
            <CardTitle className="text-base">Numerical answer</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-4">
            <fieldset className="min-w-0 flex flex-wrap gap-4 text-sm">
              <legend className="sr-only">Kind of answer</legend>
              {(
                [
                  ["exact", "An exact value"],
                  ["tolerance", "A value with a tolerance"],
                  ["range", "A range"],
                ] as const
              ).map(([kind, label]) => (
                <label key={kind} className="flex items-center gap-2">
                  <input
                    type="radio"
                    name="numKind"
                    value={kind}
                    checked={numKind === kind}
                    onChange={() => setNumKind(kind)}
                    className="size-4 accent-primary"
                  />
                  {label}
                </label>
              ))}
            </fieldset>
            <div className="grid gap-4 sm:grid-cols-2">
              {numKind === "range" ? (
                <>
                  <Field label="From">
                    <Input name="numMin" inputMode="decimal" defaultValue={values.numMin} />
                  </Field>
                  <Field label="To">
                    <Input name="numMax" inputMode="decimal" defaultValue={values.numMax} />
                  </Field>
                </>
              ) : (
                <>
                  <Field label="Value">
                    <Input name="numValue" inputMode="decimal" defaultValue={values.numValue} />
                  </Field>
                  {numKind === "tolerance" && (
                    <Field label="Tolerance (±)">
                      <Input name="numTolerance" inputMode="decimal" defaultValue={values.numTolerance} />
                    </Field>
                  )}
                </>
              )}
            </div>
            {errors.answer && (
              <p role="alert" className="text-sm text-destructive">
                {errors.answer}
              </p>
            )}
            <div className="grid gap-4 sm:grid-cols-2">
              <Field
                label="Decimal places"
                hint={`Optional: a typed answer is brought to this many places (0–${MAX_DECIMAL_PLACES}) before it is compared.`}
                error={errors.decimals}
              >
                <Input name="decimalPlaces" inputMode="numeric" defaultValue={values.decimalPlaces} />
              </Field>
              <Field label="Decimal rule">
                <Select name="decimalMode" defaultValue={values.decimalMode}>
                  <option value="round">Round</option>
                  <option value="truncate">Truncate</option>
                </Select>
              </Field>
            </div>
          </CardContent>
        </Card>
      )}

      <Card>
        <CardContent className="grid gap-4 pt-6">
          <Field label="Solution" hint="Optional; shown in practice mode and after results." error={errors.solution}>
            <Textarea name="solution" rows={4} value={solution} onChange={(e) => setSolution(e.target.value)} />
          </Field>
          <ImageButton
            label="Add an image to the solution"
            bank={bank}
            desk={desk}
            onInsert={(figure) => setSolution((current) => withFigure(current, figure))}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Subject" error={errors.subject}>
              <Input name="subject" list="bank-subjects" defaultValue={values.subject} />
            </Field>
            <Field label="Chapter" error={errors.chapter}>
              <Input name="chapter" list="bank-chapters" defaultValue={values.chapter} />
            </Field>
            <Field label="Topic" error={errors.topic}>
              <Input name="topic" defaultValue={values.topic} />
            </Field>
            <Field label="Difficulty" error={errors.difficulty}>
              <Select name="difficulty" defaultValue={values.difficulty}>
                <option value="">Not set</option>
                {DIFFICULTIES.map((d) => (
                  <option key={d} value={d}>
                    {DIFFICULTY_NAMES[d]}
                  </option>
                ))}
              </Select>
            </Field>
          </div>
          <datalist id="bank-subjects">
            {subjects.map((s) => (
              <option key={s} value={s} />
            ))}
          </datalist>
          <datalist id="bank-chapters">
            {chapters.map((c) => (
              <option key={c} value={c} />
            ))}
          </datalist>
        </CardContent>
      </Card>

      <details className="rounded-xl border bg-card p-4" open={Boolean(values.hindiText) || Boolean(errors.hindiText)}>
        <summary className="cursor-pointer text-sm font-medium">Hindi version (optional)</summary>
        <div className="mt-4 grid gap-3">
          <Field label="Hindi text" error={errors.hindiText}>
            <Textarea name="hindiText" rows={4} defaultValue={values.hindiText} lang="hi" />
          </Field>
          {choice &&
            values.hindiOptions.map((option, index) => (
              <div key={OPTION_LETTERS[index]} className="flex items-center gap-3">
                <Label className="w-4 shrink-0">{OPTION_LETTERS[index]}</Label>
                <Input
                  name="hindiOption"
                  lang="hi"
                  aria-label={`Hindi option ${OPTION_LETTERS[index]}`}
                  defaultValue={option}
                />
              </div>
            ))}
        </div>
      </details>

      <div className="flex justify-end">
        <Button type="submit" disabled={busy}>
          {busy ? "Saving..." : submitLabel}
        </Button>
      </div>
    </Form>
  );
}
