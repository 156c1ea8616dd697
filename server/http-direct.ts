import type { Context } from "hono";
import type { HttpBindings } from "@hono/node-server";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";

/**
 * Whether an answer's headers say it was written straight to the socket (by sendDirect, or by
 * @hono/node-server's own RESPONSE_ALREADY_SENT): it went out with all its headers, and any added
 * now would go nowhere.
 */
export function sentDirectly(headers: Headers): boolean {
  return headers.has("x-hono-already-sent");
}

/**
 * Writes a complete answer straight to Node's response when the app runs on @hono/node-server,
 * skipping the fetch Response object (which copies the body and validates every header): an
 * institute's home page rendered on a cache miss (hits never reach Hono: server/tenant-home.ts).
 * Elsewhere (tests calling app.request), and for a HEAD, it builds a normal Response without a body.
 * `headers` is Node's flat list: name, value, name, value…
 */
export function sendDirect(c: Context, status: number, headers: string[], body: Buffer | null): Response {
  const outgoing = (c.env as HttpBindings | undefined)?.outgoing;
  // Hono answers a HEAD by copying the GET route's answer into a new Response, which
  // @hono/node-server would then write a second time (and drop the connection): a HEAD takes the
  // ordinary way, with the same headers.
  if (outgoing && !outgoing.headersSent && c.req.method !== "HEAD") {
    outgoing.writeHead(status, headers);
    outgoing.end(body ?? undefined);
    return RESPONSE_ALREADY_SENT;
  }
  const pairs: [string, string][] = [];
  for (let i = 0; i < headers.length; i += 2) pairs.push([headers[i], headers[i + 1]]);
  return new Response(c.req.method === "HEAD" ? null : (body as Uint8Array<ArrayBuffer> | null), { status, headers: pairs });
}
