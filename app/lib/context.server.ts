import type { RouterContextProvider } from "react-router";
import { requestContext, type RequestContext } from "../../server/http/context.ts";

/** The request's site, user and services, as set by the Hono server for loaders and actions. */
export function getRequestContext(context: Readonly<RouterContextProvider>): RequestContext {
  return context.get(requestContext);
}
