import { MAX_OPTIONS, type AnswerKey, type QuestionJson } from "#common/mock-tests/question.ts";
import type { QuestionType } from "#common/mock-tests/marking.ts";

/**
 * The question editor's form (it posts without JavaScript too) read into the API's question JSON.
 * Blank option boxes are left out and the answer's option numbers follow the options that remain;
 * numbers that do not parse are passed on as typed, so the server's checks name the problem.
 */

export const OPTION_LETTERS = "ABCDEF".slice(0, MAX_OPTIONS);
export const NUMERICAL_KINDS = ["exact", "tolerance", "range"] as const;
export type NumericalKind = (typeof NUMERICAL_KINDS)[number];

type Form = Pick<FormData, "get" | "getAll">;

const text = (form: Form, name: string) => String(form.get(name) ?? "").trim();
const numberOrText = (raw: string): number | string => {
  const value = raw.trim().replace("−", "-");
  return value !== "" && Number.isFinite(Number(value)) ? Number(value) : raw.trim();
};

/** The answer fields of a question of `type` with `optionCount` boxes, as the key. */
export function answerFromForm(form: Form, type: QuestionType, keep: (index: number) => number | null): unknown {
  if (type === "numerical") {
    const kind = (text(form, "numKind") || "exact") as NumericalKind;
    if (kind === "range") return { min: numberOrText(text(form, "numMin")), max: numberOrText(text(form, "numMax")) };
    const value = numberOrText(text(form, "numValue"));
    if (kind === "tolerance") return { value, tolerance: numberOrText(text(form, "numTolerance")) };
    return value;
  }
  const chosen = form
    .getAll("answer")
    .map((raw) => keep(Number(raw)))
    .filter((index): index is number => index !== null);
  if (type === "single") return chosen.length === 1 ? chosen[0] : chosen.length === 0 ? null : chosen;
  return chosen;
}

/** The form as question JSON (not yet checked: the server's schema does that). */
export function questionFromForm(form: Form): Record<string, unknown> {
  const type = (text(form, "type") || "single") as QuestionType;
  const boxes = form.getAll("option").map((o) => String(o).trim());
  const hindiBoxes = form.getAll("hindiOption").map((o) => String(o).trim());
  const kept = boxes.map((option, index) => ({ option, index })).filter((o) => o.option !== "");
  const keep = (index: number) => {
    const at = kept.findIndex((o) => o.index === index);
    return at === -1 ? null : at;
  };
  const question: Record<string, unknown> = { type, text: text(form, "text") };
  if (type !== "numerical") question.options = kept.map((o) => o.option);
  question.answer = answerFromForm(form, type, keep);
  const places = text(form, "decimalPlaces");
  if (type === "numerical" && places !== "")
    question.decimals = { places: numberOrText(places), mode: text(form, "decimalMode") || "round" };
  const solution = text(form, "solution");
  if (solution) question.solution = solution;
  const tags = Object.fromEntries(
    (["subject", "chapter", "topic", "difficulty"] as const)
      .map((name) => [name, text(form, name)] as const)
      .filter(([, value]) => value !== ""),
  );
  if (Object.keys(tags).length) question.tags = tags;
  const hindiText = text(form, "hindiText");
  if (hindiText) {
    const hindiOptions = kept.map((o) => hindiBoxes[o.index] ?? "");
    question.hindi = {
      text: hindiText,
      ...(type !== "numerical" && hindiOptions.some(Boolean) ? { options: hindiOptions } : {}),
    };
  }
  return question;
}

/** The editor's starting values for a stored question (or a new one). */
export interface QuestionFormValues {
  type: QuestionType;
  text: string;
  options: string[];
  /** Option numbers that are correct (single and multiple). */
  correct: number[];
  numKind: NumericalKind;
  numValue: string;
  numTolerance: string;
  numMin: string;
  numMax: string;
  decimalPlaces: string;
  decimalMode: "round" | "truncate";
  solution: string;
  subject: string;
  chapter: string;
  topic: string;
  difficulty: string;
  hindiText: string;
  hindiOptions: string[];
}

const padded = (list: string[] | undefined) => Array.from({ length: MAX_OPTIONS }, (_, index) => list?.[index] ?? "");

export function formValuesOf(question: QuestionJson | null): QuestionFormValues {
  const key = question?.answer as AnswerKey | undefined;
  const numerical = question?.type === "numerical" ? key : undefined;
  const range = numerical && typeof numerical === "object" && "min" in numerical ? numerical : null;
  const tolerance = numerical && typeof numerical === "object" && "value" in numerical ? numerical : null;
  return {
    type: question?.type ?? "single",
    text: question?.text ?? "",
    options: padded(question?.options ?? []),
    correct: question?.type === "single" ? [key as number] : question?.type === "multiple" ? (key as number[]) : [],
    numKind: range ? "range" : tolerance ? "tolerance" : "exact",
    numValue: tolerance
      ? String(tolerance.value)
      : typeof numerical === "number"
        ? String(numerical)
        : Array.isArray(numerical)
          ? String(numerical[0])
          : "",
    numTolerance: tolerance?.tolerance !== undefined ? String(tolerance.tolerance) : "",
    numMin: range ? String(range.min) : "",
    numMax: range ? String(range.max) : "",
    decimalPlaces: question?.decimals ? String(question.decimals.places) : "",
    decimalMode: question?.decimals?.mode ?? "round",
    solution: question?.solution ?? "",
    subject: question?.tags?.subject ?? "",
    chapter: question?.tags?.chapter ?? "",
    topic: question?.tags?.topic ?? "",
    difficulty: question?.tags?.difficulty ?? "",
    hindiText: question?.hindi?.text ?? "",
    hindiOptions: padded(question?.hindi?.options),
  };
}

/** A key as a person reads it: "B", "A, C", "9.8 ± 0.05", "2.25 to 2.35". */
export function describeKey(type: QuestionType, key: unknown): string {
  if (type === "single" && typeof key === "number") return OPTION_LETTERS[key] ?? String(key);
  if (type === "multiple" && Array.isArray(key)) return key.map((k: number) => OPTION_LETTERS[k] ?? k).join(", ");
  if (typeof key === "number") return String(key);
  if (Array.isArray(key)) return key.join(" or ");
  if (key && typeof key === "object" && "min" in key && "max" in key) return `${String(key.min)} to ${String(key.max)}`;
  if (key && typeof key === "object" && "value" in key)
    return "tolerance" in key && key.tolerance !== undefined
      ? `${String(key.value)} ± ${String(key.tolerance)}`
      : String(key.value);
  return "—";
}

/** Server issues ("tags.subject", "options.2", none) as the editor's field names. */
export function editorField(field: string | undefined, message: string): string {
  const head = field?.split(".")[0];
  if (head === "tags") return field!.split(".")[1] ?? "form";
  if (head === "hindi") return "hindiText";
  if (head === "options") return "options";
  if (head === "decimals") return "decimals";
  if (head) return head;
  // Whole-question checks: the key and the options are what they are about.
  if (/answer|option/i.test(message)) return /Hindi/.test(message) ? "hindiText" : "answer";
  if (/decimal/i.test(message)) return "decimals";
  return "form";
}
