import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./types.ts";
import { simplePage } from "../http/html.ts";

const PAGE_METHODS = "GET, HEAD, POST";
/** Bodies an action reads: forms, and the JSON some fetchers send (`encType: "application/json"`). */
const FORM_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data", "application/json"]);

/**
 * Pages are read with GET (and HEAD) and their forms are sent with POST. React Router would run
 * an action for any other method as well, and an action reading a body that is not a form
 * throws (a 500), so: other methods are 405 here, a POST whose body cannot be read is 400, and
 * React Router's own 405 (a page without an action) says which methods the page has.
 * `streamsItself` names the uploads, whose actions read their multipart bodies as they arrive.
 */
export function pageMethods(streamsItself: (method: string, path: string) => boolean) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const method = c.req.method;
    if (method === "GET" || method === "HEAD") return next();
    if (method !== "POST") {
      c.header("Allow", PAGE_METHODS);
      return refuse(
        c,
        405,
        "This page cannot be sent that way",
        `Pages are opened with GET and their forms are sent with POST, not ${method}.`,
      );
    }
    if (!streamsItself(method, c.req.path) && !(await isReadableForm(c.req.raw))) {
      return refuse(c, 400, "This form could not be read", "Please go back and send the form again.");
    }
    await next();
    if (c.res.status === 405 && !c.res.headers.has("allow")) c.res.headers.set("Allow", "GET, HEAD");
  });
}

function refuse(c: Context, status: 400 | 405, heading: string, text: string) {
  return c.html(simplePage(heading, heading, text), status);
}

/** Whether the body parses as what its Content-Type says (read from a copy; bodies here are size-limited). */
async function isReadableForm(request: Request): Promise<boolean> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (!FORM_TYPES.has(type)) return false;
  try {
    const copy = request.clone();
    if (type === "application/json") JSON.parse(await copy.text());
    else await copy.formData();
    return true;
  } catch {
    return false;
  }
}
