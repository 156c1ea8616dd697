import { lookup, type LookupAddress } from "node:dns";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import ipaddr from "ipaddr.js";

/**
 * Fetches a figure a question sheet names by its http(s) address, once, at import (issue 38 §1).
 * The address is someone's input, so the server must not be led by it to its own network: every
 * address the name resolves to must be a public one (ipaddr.js says "unicast": not loopback,
 * private, link-local, carrier NAT, unique-local, multicast, reserved…), the connection goes to
 * the address that was checked (the check is in the socket's own lookup, so a name that resolves
 * differently a moment later changes nothing), and each redirect is checked the same way. Time
 * and size are bounded.
 */

export interface FigureFetchOptions {
  /** Whether the server may connect to this address (tests allow their own loopback server). */
  allowAddress?: (address: string) => boolean;
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
}

export const FIGURE_FETCH_DEFAULTS = { timeoutMs: 10_000, maxBytes: 5 * 1024 * 1024, maxRedirects: 3 };

/** Why a figure could not be fetched, in words for the row that names it. */
export class FigureFetchError extends Error {}

export const FIGURE_FETCH_TEXTS = {
  blocked: "its address is not on the public internet",
  timeout: "the site did not answer in time",
  tooLarge: "the image is larger than 5 MB",
  status: (status: number) => `the site answered ${status}`,
  redirects: "it redirects too many times",
  failed: "the site could not be reached",
  badAddress: "it is not an http(s) address",
} as const;

export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === "unicast";
}

/** dns.lookup that answers only with allowed addresses, and fails when the name has any other. */
function guardedLookup(allow: (address: string) => boolean) {
  return (
    hostname: string,
    options: { all?: boolean; family?: number },
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      if (!addresses.length || !addresses.every((a) => allow(a.address)))
        return callback(new FigureFetchError(FIGURE_FETCH_TEXTS.blocked), []);
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

export async function fetchFigure(address: string, options: FigureFetchOptions = {}): Promise<Uint8Array> {
  const allow = options.allowAddress ?? isPublicAddress;
  const timeoutMs = options.timeoutMs ?? FIGURE_FETCH_DEFAULTS.timeoutMs;
  const maxBytes = options.maxBytes ?? FIGURE_FETCH_DEFAULTS.maxBytes;
  const signal = AbortSignal.timeout(timeoutMs);
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new FigureFetchError(FIGURE_FETCH_TEXTS.badAddress);
  }
  for (let hop = 0; hop <= (options.maxRedirects ?? FIGURE_FETCH_DEFAULTS.maxRedirects); hop++) {
    if (url.protocol !== "http:" && url.protocol !== "https:")
      throw new FigureFetchError(FIGURE_FETCH_TEXTS.badAddress);
    if (url.username || url.password) throw new FigureFetchError(FIGURE_FETCH_TEXTS.badAddress);
    // A literal address is connected to without a lookup: it is checked here.
    const host = url.hostname.replace(/^\[|\]$/g, "");
    if (ipaddr.isValid(host) && !allow(host)) throw new FigureFetchError(FIGURE_FETCH_TEXTS.blocked);
    const response = await get(url, allow, signal);
    const status = response.statusCode ?? 0;
    if (status >= 300 && status < 400 && response.headers.location) {
      response.resume();
      url = new URL(response.headers.location, url);
      continue;
    }
    if (status !== 200) {
      response.resume();
      throw new FigureFetchError(FIGURE_FETCH_TEXTS.status(status));
    }
    return readBody(response, maxBytes, signal);
  }
  throw new FigureFetchError(FIGURE_FETCH_TEXTS.redirects);
}

function get(url: URL, allow: (address: string) => boolean, signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = (url.protocol === "https:" ? httpsRequest : httpRequest)(
      url,
      { method: "GET", lookup: guardedLookup(allow) as never, signal, headers: { accept: "image/*" } },
      resolve,
    );
    request.on("error", (error) => reject(asFetchError(error, signal)));
    request.end();
  });
}

function readBody(response: IncomingMessage, maxBytes: number, signal: AbortSignal): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const declared = Number(response.headers["content-length"] ?? 0);
    if (declared > maxBytes) {
      response.destroy();
      return reject(new FigureFetchError(FIGURE_FETCH_TEXTS.tooLarge));
    }
    const chunks: Buffer[] = [];
    let size = 0;
    response.on("data", (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > maxBytes) {
        response.destroy();
        reject(new FigureFetchError(FIGURE_FETCH_TEXTS.tooLarge));
      } else chunks.push(chunk);
    });
    response.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks))));
    response.on("error", (error) => reject(asFetchError(error, signal)));
  });
}

function asFetchError(error: Error, signal: AbortSignal): FigureFetchError {
  if (error instanceof FigureFetchError) return error;
  if (signal.aborted) return new FigureFetchError(FIGURE_FETCH_TEXTS.timeout);
  return new FigureFetchError(FIGURE_FETCH_TEXTS.failed);
}
