import { PassThrough, Writable } from "node:stream";
import type { EntryContext, HandleErrorFunction, RouterContextProvider } from "react-router";
import { createReadableStreamFromReadable } from "@react-router/node";
import { ServerRouter } from "react-router";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { getRequestContext } from "~/lib/context.server";
import { ScriptNonce } from "~/lib/script-nonce";
import { pageStreams } from "~/lib/streaming";
import { compressPage } from "../server/pages/page-compression.ts";

export const streamTimeout = 5_000;

/**
 * React Router's Node entry, with one change: every script React and React Router write into the
 * page carries this response's Content-Security-Policy nonce (server/middleware/security-headers.ts),
 * except in a page rendered to be kept as bytes, whose scripts are allowed by their hashes instead.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const { nonce, kept } = getRequestContext(loadContext);

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    // Crawlers get the whole page at once, as do people unless the page streams slow data.
    const crawler = Boolean(userAgent && isbot(userAgent)) || routerContext.isSpaMode;
    const streams = !crawler && pageStreams(routerContext);
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);
    const finished = () => {
      clearTimeout(timeoutId);
      timeoutId = undefined;
    };

    /** What is ready now, then the rest as it is rendered. */
    const stream = () => {
      const body = new PassThrough({
        final(callback) {
          finished();
          callback();
        },
      });
      responseHeaders.set("Content-Type", "text/html; charset=utf-8");
      pipe(body);
      resolve(
        new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }),
      );
    };

    /**
     * The whole page in one piece, once everything is rendered, compressed in one go: no stream
     * of React's chunks through web streams and a CompressionStream.
     */
    const whole = () => {
      const chunks: Buffer[] = [];
      const body = new Writable({
        write(chunk: Buffer, _encoding, callback) {
          chunks.push(chunk);
          callback();
        },
        final(callback) {
          finished();
          callback();
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          responseHeaders.append("Vary", "Accept-Encoding");
          const page = Buffer.concat(chunks);
          // A page to be kept is compressed by the kept pages themselves, once.
          compressPage(page, kept ? null : request.headers.get("accept-encoding")).then(({ body, encoding }) => {
            if (encoding) responseHeaders.set("Content-Encoding", encoding);
            resolve(
              new Response(body as Uint8Array<ArrayBuffer>, { headers: responseHeaders, status: responseStatusCode }),
            );
          }, reject);
        },
      });
      pipe(body);
    };

    const page = (
      <ScriptNonce value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </ScriptNonce>
    );
    const { pipe, abort } = renderToPipeableStream(page, {
      nonce,
      onShellReady() {
        shellRendered = true;
        if (streams) stream();
      },
      onAllReady() {
        if (!streams) whole();
      },
      onShellError(error: unknown) {
        reject(error);
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        if (shellRendered) getRequestContext(loadContext).log.error("page render failed", { error });
      },
    });
  });
}

/**
 * Errors thrown by loaders and actions, logged once through the request's logger (which names a
 * failed query by its statement, never its values); a request the visitor abandoned is not an error.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  getRequestContext(context as RouterContextProvider).log.error("page request failed", { error });
};
