import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type * as v from "valibot";
import { parseInput, type InputIssue } from "#common/validation/storable.ts";

/** An error whose message is safe and meant to be shown to the person (the product's words). */
export class HttpError extends Error {
  readonly status: ContentfulStatusCode;
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    status: ContentfulStatusCode,
    message: string,
    extra: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = status;
    this.extra = extra;
    this.headers = headers;
  }
}

/** The API's one error shape (DESIGN §5). */
export function errorBody(message: string, extra: Record<string, unknown> = {}) {
  return { success: false as const, error: message, message, ...extra };
}

export function fail(c: Context, status: ContentfulStatusCode, message: string, extra?: Record<string, unknown>) {
  return c.json(errorBody(message, extra), status);
}

export const badRequest = (message: string, extra?: Record<string, unknown>) => new HttpError(400, message, extra);
export const unauthorized = (message = "Please sign in to continue.") => new HttpError(401, message);
export const forbidden = (message = "You do not have access to this.") => new HttpError(403, message);
export const notFound = (message = "Not found") => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);

/** A 400 naming the fields, with the first message as the headline. */
export function validationError(issues: readonly InputIssue[]): HttpError {
  return new HttpError(400, issues[0]?.message ?? "Invalid input", { issues });
}

/** Validates `input` (and that all its text can be stored, ./storable.ts); bad input is a 400. */
export function parseWith<TSchema extends v.GenericSchema>(schema: TSchema, input: unknown): v.InferOutput<TSchema> {
  const result = parseInput(schema, input);
  if (!result.success) throw validationError(result.issues);
  return result.output;
}

/** A JSON body as it came (whatever its content type, as the API has always read it); malformed JSON is a 400, never a 500. */
export async function jsonBody(c: Context): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw badRequest("The request body must be valid JSON.");
  }
}

/** A body that may be left out: none is `{}`; malformed JSON is a 400, never a 500. */
export async function optionalBody(c: Context): Promise<unknown> {
  const raw = await c.req.text();
  if (!raw.trim()) return {};
  try {
    return JSON.parse(raw);
  } catch {
    throw badRequest("The request body must be valid JSON.");
  }
}
