import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./types.ts";
import { errorBody } from "../http/errors.ts";
import { simplePage } from "../http/html.ts";
import { isStorableText, unstorableMessage } from "#common/validation/storable.ts";

/**
 * Path segments and query values reach services (ids, searches) as text, so an address whose text
 * cannot be stored is refused here, for the API and the pages alike: a 400 naming the query
 * parameter. Decoding an address never yields a lone surrogate (invalid UTF-8 stays %-encoded),
 * so the one thing to look for is U+0000, which only %00 decodes to.
 */
export function refuseUnstorableAddresses() {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (!c.req.url.includes("%00")) return next();
    const part = unstorablePart(c);
    if (!part) return next();
    const message = unstorableMessage(part.field ?? "The address");
    if (c.req.path.startsWith("/api/")) return c.json(errorBody(message, { issues: [{ ...part, message }] }), 400);
    return c.html(simplePage("Bad request", "This address cannot be opened", message), 400);
  });
}

/** The query parameter whose text cannot be stored, `{}` for the path (or a parameter's name), else null. */
function unstorablePart(c: Context): { field?: string } | null {
  if (!isStorableText(c.req.path)) return {};
  for (const [key, values] of Object.entries(c.req.queries())) {
    if (!isStorableText(key)) return {};
    if (values.some((value) => !isStorableText(value))) return { field: key };
  }
  return null;
}
