import type { EntryContext } from "react-router";

/**
 * A route whose loader gives the page data that may come late (a promise shown through
 * `<Await>` in a `<Suspense>`) says so with `handle = { streams: true }`: its page is sent as
 * soon as its shell is rendered and the late parts stream in after it (app/entry.server.tsx).
 * Every other page is sent whole, once everything in it is rendered.
 */
export interface StreamingHandle {
  streams?: true;
}

/** Whether any route of this page streams. */
export function pageStreams(context: Pick<EntryContext, "staticHandlerContext" | "routeModules">): boolean {
  return context.staticHandlerContext.matches.some(
    (match) => (context.routeModules[match.route.id]?.handle as StreamingHandle | undefined)?.streams === true,
  );
}
