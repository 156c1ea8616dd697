import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../http-types.ts";
import { errorBody } from "../errors.ts";
import { simplePage } from "../pages/html.ts";
import { isStorableText, unstorableMessage } from "../../app/lib/validation/storable.ts";

/**
 * Path segments and query values reach services (ids, searches) as text, so an address whose text
 * cannot be stored is refused here, for the API and the pages alike: a 400 naming the query
 * parameter. Decoding an address never yields a lone surrogate (invalid UTF-8 stays %-encoded),
 * so the one thing to look for is U+0000, which only %00 decodes to.
 */
export function refuseUnstorableAddresses() {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (!c.req.url.includes("%00")) return next();
    const field = unstorablePart(c);
    if (!field) return next();
    const message = unstorableMessage(field);
    if (c.req.path.startsWith("/api/")) return c.json(errorBody(message, { issues: [{ field, message }] }), 400);
    return c.html(simplePage("Bad request", "This address cannot be opened", message), 400);
  });
}

function unstorablePart(c: Context): string | null {
  if (!isStorableText(c.req.path)) return "The address";
  for (const [key, values] of Object.entries(c.req.queries())) {
    if (!isStorableText(key) || values.some((value) => !isStorableText(value))) return isStorableText(key) ? key : "The address";
  }
  return null;
}
