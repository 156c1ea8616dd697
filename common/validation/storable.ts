import * as v from "valibot";
import { findListForObject } from "./plain-objects.ts";

// U+0000, a high surrogate not followed by a low one, or a low one not preceded by a high one
// (String.prototype.isWellFormed is newer than some browsers the forms run in).
// eslint-disable-next-line no-control-regex
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:^|[^\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Text the database can keep. PostgreSQL refuses U+0000 in text (the statement fails), and a lone
 * surrogate (half of an emoji, \uD800–\uDFFF unpaired) has no UTF-8 form, so it would be stored
 * as something else. Either is bad input: refused with the field's name, never a 500.
 */
export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

export const unstorableMessage = (label: string) => `${label} contains characters that cannot be stored.`;

/** A list sent where an object belongs (the whole JSON body, or one field of it). */
export const listForObjectMessage = (field?: string) =>
  field ? `${field} must be an object, not a list.` : "The request body must be a JSON object, not a list.";

/** The rule for one field, where its name is known ("Full name contains characters that cannot be stored."). */
export const storable = (label: string) => v.check(isStorableText, unstorableMessage(label));

export interface InputIssue {
  /** Where in the input, as dotted keys ("testimonials.0.text"); absent for the whole input. */
  field?: string;
  message: string;
}

export type InputResult<T> = { success: true; output: T } | { success: false; issues: InputIssue[] };

const MAX_DEPTH = 64;

/**
 * The path of the first string (value or key) anywhere in `value` that cannot be stored, or null.
 * Looks inside plain objects and arrays only: files, dates and other objects are not text.
 */
export function findUnstorable(value: unknown, path: (string | number)[] = []): (string | number)[] | null {
  if (typeof value === "string") return isStorableText(value) ? null : path;
  if (path.length > MAX_DEPTH || value === null || typeof value !== "object") return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorable(value[i], [...path, i]);
      if (found) return found;
    }
    return null;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return null;
  for (const [key, item] of Object.entries(value)) {
    if (!isStorableText(key)) return [...path, key];
    const found = findUnstorable(item, [...path, key]);
    if (found) return found;
  }
  return null;
}

/**
 * Every input (API bodies and queries, page forms) is read through here: the schema's rules,
 * then the two rules no schema may forget: a list is never taken for an object (valibot's
 * objects would take one), and every piece of text in the result can be stored.
 */
export function parseInput<TSchema extends v.GenericSchema>(
  schema: TSchema,
  input: unknown,
): InputResult<v.InferOutput<TSchema>> {
  const list = findListForObject(schema, input);
  if (list) {
    const field = list.join(".") || undefined;
    return { success: false, issues: [{ field, message: listForObjectMessage(field) }] };
  }
  const result = v.safeParse(schema, input);
  if (!result.success) {
    return {
      success: false,
      issues: result.issues.map((issue) => ({
        field: issue.path?.map((p) => String(p.key)).join(".") || undefined,
        message: issue.message,
      })),
    };
  }
  const at = findUnstorable(result.output);
  if (at) {
    const field = at.join(".") || undefined;
    return { success: false, issues: [{ field, message: unstorableMessage(field ?? "The input") }] };
  }
  return { success: true, output: result.output };
}
