import type { Context, MiddlewareHandler } from "hono";

/**
 * Hono's bodyLimit, minus its failure on @hono/node-server: it re-wraps a chunked (or
 * length-less) request with `new Request(c.req.raw, …)`, which throws on the node server's
 * lightweight request (a DELETE from curl became a 500). A request with neither
 * Content-Length nor Transfer-Encoding has no body (RFC 9112 §6.3); a chunked one is read up to
 * the limit and rebuilt from its URL, method and headers.
 */
export function limitBody(maxSize: number, onError: (c: Context) => Response | Promise<Response>): MiddlewareHandler {
  return async (c, next) => {
    const raw = c.req.raw;
    const length = raw.headers.get("content-length");
    const chunked = raw.headers.has("transfer-encoding");
    if (!raw.body || (!chunked && length === null)) return next();
    if (!chunked) return Number.parseInt(length ?? "0", 10) > maxSize ? onError(c) : next();
    const reader = raw.body.getReader();
    const parts: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > maxSize) {
        await reader.cancel().catch(() => {});
        return onError(c);
      }
      parts.push(value);
    }
    const body = new Uint8Array(size);
    let offset = 0;
    for (const part of parts) {
      body.set(part, offset);
      offset += part.length;
    }
    const headers = new Headers(raw.headers);
    headers.delete("transfer-encoding");
    headers.set("content-length", String(size));
    c.req.raw = new Request(c.req.url, { method: raw.method, headers, body });
    return next();
  };
}
