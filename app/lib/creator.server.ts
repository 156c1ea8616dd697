import { data, type RouterContextProvider } from "react-router";
import { HttpError } from "../../server/http/errors.ts";
import type { Reader } from "../../server/services/content-access.ts";
import { getRequestContext } from "./context.server";
import { getViewer } from "./session.server";

export { toContentJson } from "../../server/services/content.ts";

type Ctx = Readonly<RouterContextProvider>;

/** The creator studio's services and the signed-in creator (the area's middleware has checked the role). */
export function creatorContext(context: Ctx): {
  services: ReturnType<typeof getRequestContext>["services"];
  creator: Reader;
} {
  const viewer = getViewer(context)!;
  return { services: getRequestContext(context).services, creator: { id: viewer.id, role: viewer.role } };
}

export type ActionResult<T = Record<string, never>> = ({ ok: true } & T) | { ok: false; error: string };

/** Runs a page action; the service's HttpErrors (the product's words) come back as `{ ok: false, error }` with their status. */
export async function tryAction<T extends object>(run: () => Promise<T>) {
  try {
    return { ok: true as const, ...(await run()) };
  } catch (error) {
    if (error instanceof HttpError) return data({ ok: false as const, error: error.message }, { status: error.status });
    throw error;
  }
}

/** A loader's 404/403 from the service becomes the matching error response (rendered by the error boundary). */
export async function orRespond<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof HttpError) throw data({ message: error.message }, { status: error.status });
    throw error;
  }
}
