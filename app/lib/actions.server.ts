import { data } from "react-router";
import { HttpError } from "../../server/http/errors.ts";

export interface ActionFailure {
  ok: false;
  error: string;
}

/**
 * Runs a service call for an action: a refusal in the product's words (HttpError) becomes
 * `{ ok: false, error }` with its status, for the page to show; anything else is a real fault.
 */
export async function tryService<T>(
  run: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; response: ReturnType<typeof data<ActionFailure>> }> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    if (error instanceof HttpError) {
      return {
        ok: false,
        response: data({ ok: false as const, error: error.message }, { status: error.status, headers: error.headers }),
      };
    }
    throw error;
  }
}

export function failure(error: string, status = 400) {
  return data<ActionFailure>({ ok: false, error }, { status });
}

/** A service call for a loader: its value, or a refusal's words (HttpError) to show on the page. */
export async function tryRead<T>(
  run: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; error: string }> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    if (error instanceof HttpError) return { ok: false, error: error.message };
    throw error;
  }
}
