import type { RouterContextProvider } from "react-router";
import { requestContext, type RequestContext } from "../../server/middleware/context.ts";

/** The request's site, user and services, as set by the Hono server for loaders and actions. */
export function getRequestContext(context: Readonly<RouterContextProvider>): RequestContext {
  return context.get(requestContext);
}

/** The institute whose domain the page is on (its name brands the page), or null on the platform. */
export function siteInstitute(context: Readonly<RouterContextProvider>): string | null {
  const { site } = getRequestContext(context);
  return site.kind === "tenant" ? site.center.instituteName : null;
}
