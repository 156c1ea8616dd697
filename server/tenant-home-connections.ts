import type { Server } from "node:http";
import type { Socket } from "node:net";
import type { AppDeps } from "./app.ts";
import { homeAnswerOnConnection, homeRoute, recordHomeAnswer, recordHomeVisit, type CachedHomeAnswer, type HomeRequest, type HomeRoute } from "./tenant-home.ts";
import { requestIdFrom } from "./middleware/request-log.ts";
import { recordCache } from "./metrics.ts";
import { endConnectionReads, kept, readConnection } from "./socket-reads.ts";

/**
 * Institutes' cached home pages answered on the connection itself, before node:http parses
 * anything (decision 0008). Each new connection is read here first. As long as it sends complete,
 * plain `GET /` or `HEAD /` requests that the caches answer (homeAnswerOnConnection), the answers
 * are written straight to the socket; a page not cached yet is rendered into the caches first,
 * and the connection is read no further until it is answered. At the first request that is
 * anything else — another path or method, a body, an upgrade, HTTP/1.0, a header this reader does
 * not take, a request split over two reads, a host that is not a live institute's — the
 * connection is handed, with every byte not yet answered, to node:http for good, and the app
 * answers from there.
 *
 * The reader only accepts requests it can frame beyond doubt: no Content-Length or
 * Transfer-Encoding, no repeated header, strict characters. Anything it would read differently
 * from node:http's parser goes to that parser, so the two never disagree on where a request ends.
 */

/** Request heads larger than this go to node:http, which answers 431 past its own limit. */
const MAX_HEAD_BYTES = 16 * 1024;
const REQUEST_LINE = /^(GET|HEAD) \/ HTTP\/1\.1$/;
/** token ":" OWS field-value OWS, as RFC 9110 allows, with no control characters. */
const HEADER_LINE = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+):[ \t]*([\x21-\x7e\x80-\xff](?:[\t\x20-\x7e\x80-\xff]*[\x21-\x7e\x80-\xff])?)?[ \t]*$/;
/** Headers that change how a request is framed or what the connection becomes: node:http's to handle. */
const HANDED_OVER_HEADERS = new Set(["content-length", "transfer-encoding", "upgrade", "expect", "te", "http2-settings"]);

/** One parsed request head: method and headers by lower-case name. */
class WireRequest implements HomeRequest {
  readonly method: string;
  /** Whether the client asked to close the connection after this answer (Connection: close). */
  readonly closes: boolean;
  private readonly headers: Map<string, string>;

  constructor(method: string, headers: Map<string, string>, closes: boolean) {
    this.method = method;
    this.headers = headers;
    this.closes = closes;
  }

  get url(): string {
    return `http://${this.headers.get("host") ?? "localhost"}/`;
  }

  header(name: string): string | undefined {
    return this.headers.get(name);
  }
}

/**
 * Reads one request head (the bytes before its blank line, as latin1 so that string offsets are
 * byte offsets). Undefined when node:http must read it instead.
 */
export function parseHomeRequest(head: string): WireRequest | undefined {
  const lines = head.split("\r\n");
  const requestLine = REQUEST_LINE.exec(lines[0]);
  if (!requestLine) return undefined;
  const headers = new Map<string, string>();
  for (let i = 1; i < lines.length; i++) {
    const line = HEADER_LINE.exec(lines[i]);
    if (!line) return undefined;
    const name = line[1].toLowerCase();
    if (headers.has(name) || HANDED_OVER_HEADERS.has(name)) return undefined;
    headers.set(name, line[2] ?? "");
  }
  const connection = headers.get("connection")?.toLowerCase();
  if (connection !== undefined && connection !== "keep-alive" && connection !== "close") return undefined;
  if (!headers.has("host")) return undefined;
  return new WireRequest(requestLine[1], headers, connection === "close");
}

/** The HTTP/1.1 date node:http sends, made at most once a second. */
let dateSecond = 0;
let dateText = "";
function httpDate(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateText = new Date(now).toUTCString();
  }
  return dateText;
}

/** The page's header lines as bytes, with the blank line after them; made once per shared headers (see homeAnswer). */
function pageHeaderLines(answer: CachedHomeAnswer): Buffer {
  const shared = answer.pageHeaders;
  if (!shared.wire) {
    let head = "";
    for (let i = 0; i < shared.list.length; i += 2) head += `${shared.list[i]}: ${shared.list[i + 1]}\r\n`;
    shared.wire = Buffer.from(`${head}\r\n`, "latin1");
  }
  return shared.wire;
}

const STATUS_LINES = { 200: "HTTP/1.1 200 OK\r\n", 304: "HTTP/1.1 304 Not Modified\r\n" } as const;

/**
 * What comes before the page's own header lines: the status line and the headers of this one
 * answer (the request id, Date, Connection and Keep-Alive). Header order carries no meaning
 * between different names (RFC 9110 §5.3); putting these first lets the rest be one stored run of
 * bytes with the body (decision 0010).
 */
function answerStart(status: 200 | 304, requestId: string, connection: string): string {
  return `${STATUS_LINES[status]}X-Request-Id: ${requestId}\r\nDate: ${httpDate()}\r\n${connection}`;
}

/** Ends the connection once what was written to it has been sent. */
function closeAfterWriting(socket: Socket): void {
  socket.end(() => socket.destroy());
}

/**
 * Makes `server` read new connections here first (see the top of this file). Call it on a
 * node:http server before it listens. Its idle keep-alive connections, the ones read here
 * included, are closed by closeIdleConnections() and server.close() as before.
 */
export function answerCachedHomePagesOnConnections(server: Server, deps: Pick<AppDeps, "env" | "logger" | "services" | "draining">): void {
  const listeners = server.listeners("connection") as ((socket: Socket) => void)[];
  if (listeners.length !== 1) throw new Error("call answerCachedHomePagesOnConnections on a new node:http server");
  const [httpConnection] = listeners;
  server.removeListener("connection", httpConnection);

  const answers = deps.services.sites.answers;
  /** The stored answer for this route, or -1 (see HomeAnswerStore). */
  const storedAnswer = (route: HomeRoute): number => {
    // While changes cannot be heard, nothing cached is trusted (as TenantDirectory.peek).
    if (!deps.services.tenants.caching()) return -1;
    const entry = answers.find(route.host, route.encoding, route.secure, Date.now());
    recordCache("answer", entry >= 0);
    return entry;
  };

  const keepAnswer = (route: HomeRoute, found: CachedHomeAnswer, head: Buffer, body: Buffer) => {
    const { center } = found.visit;
    answers.put(route.host, route.encoding, route.secure, {
      head,
      body,
      centerId: center.id,
      tenant: center.slug,
      expiresAt: center.expiresAt?.getTime() ?? Infinity,
      // Pages of one template share all but the institute's own details.
      family: center.templateId,
    });
  };

  /** Connections still read here: never in the middle of an answer between two events. */
  const reading = new Set<Socket>();

  const closeIdleConnections = server.closeIdleConnections.bind(server);
  server.closeIdleConnections = () => {
    closeIdleConnections();
    for (const socket of reading) closeAfterWriting(socket);
  };

  server.on("connection", (socket: Socket) => {
    /** Requests read but not answered while the client was not reading its answers (a copy). */
    let pending: Buffer | undefined;
    /** While a page is rendered for this connection: the request and what arrived after it (copies), and their size. */
    let heldDuringRender: { reads: Buffer[]; bytes: number } | undefined;
    const keepAlive = `Connection: keep-alive\r\nKeep-Alive: timeout=${Math.floor(server.keepAliveTimeout / 1000)}\r\n`;

    /**
     * What this reader listens to while the connection is its own, besides its bytes (received).
     * No bytes arrive while requests are pending: the socket is paused until they are answered.
     */
    const listeners = {
      drain: () => {
        if (!pending) return;
        socket.resume();
        answer(pending);
      },
      timeout: () => socket.destroy(),
      error: () => socket.destroy(),
      end: () => socket.end(),
      close: () => reading.delete(socket),
    };

    /** node:http takes the connection, and reads what is left as if it had arrived just now. */
    const handOver = (rest: Buffer | undefined) => {
      reading.delete(socket);
      socket.pause();
      endConnectionReads(socket, received);
      for (const [event, listener] of Object.entries(listeners)) socket.removeListener(event, listener);
      socket.setTimeout(0);
      if (rest?.length) socket.unshift(kept(rest));
      httpConnection.call(server, socket);
      socket.resume();
    };

    /**
     * Writes the answer to one request when the caches hold it (true). When the page must be
     * rendered first, the promise says whether it was written; false when node:http must answer.
     */
    const answerRequest = (request: WireRequest, connection: string): boolean | Promise<boolean> => {
      if (deps.draining) return false;
      const started = performance.now();
      const route = homeRoute(deps, request);
      if (!route) return false;
      // A conditional request may be answered 304: the stored answers are 200s.
      const conditional = request.header("if-none-match") !== undefined;
      const stored = conditional ? -1 : storedAnswer(route);
      if (stored >= 0) {
        const requestId = requestIdFrom(request.header("x-request-id"));
        answers.writeAnswer(stored, answerStart(200, requestId, connection), request.method === "GET", socket);
        recordHomeVisit(deps.logger, { requestId, status: 200, method: request.method, started, host: route.host, tenant: answers.tenant(stored) });
        return true;
      }
      const found = homeAnswerOnConnection(deps, request, route, started);
      if (!found) return false;
      if (!(found instanceof Promise)) return writeFound(found, request, route, connection, !conditional);
      return found.then((rendered) => {
        // A server that began to shut down meanwhile leaves its refusal to the app.
        if (!rendered || deps.draining || socket.destroyed) return false;
        return writeFound(rendered, request, route, connection, !conditional);
      });
    };

    /** Writes an answer made from the caches; with `keep`, a copy of a complete page's bytes is kept. */
    const writeFound = (found: CachedHomeAnswer, request: WireRequest, route: HomeRoute, connection: string, keep: boolean): true => {
      const head = pageHeaderLines(found);
      write(answerStart(found.status, found.requestId, connection), head, found.body && request.method === "GET" ? found.body : undefined);
      if (keep && found.status === 200 && found.body) keepAnswer(route, found, head, found.body);
      recordHomeAnswer(deps.logger, found);
      return true;
    };

    const write = (start: string, rest: Buffer, body?: Buffer) => {
      socket.cork();
      // As bytes from Buffer's shared pool: node:net copies a string chunk into memory it takes
      // and frees for every answer.
      socket.write(Buffer.from(start, "latin1"));
      socket.write(rest);
      if (body) socket.write(body);
      socket.uncork();
    };

    /**
     * Each read's bytes, valid only during the call (see socket-reads.ts). While a page is
     * rendered they are kept for later, and the connection is still read: a client that resets it
     * meanwhile is heard of, and gets nothing written (see awaitAnswer).
     */
    const received = (bytes: Buffer) => {
      if (!heldDuringRender) return answer(bytes);
      heldDuringRender.reads.push(kept(bytes));
      heldDuringRender.bytes += bytes.length;
      // A client that sends this much while it waits is read no further until it is answered.
      if (heldDuringRender.bytes > MAX_HEAD_BYTES) socket.pause();
    };

    /** Answers every complete request in `bytes`; hands over at the first it cannot. */
    const answer = (bytes: Buffer) => {
      let offset = 0;
      while (offset < bytes.length) {
        if (socket.writableNeedDrain) {
          // The client is not reading its answers: read no more of its requests until it does.
          pending = kept(bytes.subarray(offset));
          socket.pause();
          return;
        }
        const end = bytes.indexOf("\r\n\r\n", offset, "latin1");
        if (end === -1 || end - offset > MAX_HEAD_BYTES) return handOver(bytes.subarray(offset));
        const request = parseHomeRequest(bytes.toString("latin1", offset, end));
        const answered = request && answerRequest(request, request.closes ? "Connection: close\r\n" : keepAlive);
        if (!answered) return handOver(bytes.subarray(offset));
        if (answered !== true) return awaitAnswer(answered, request, kept(bytes.subarray(offset)), end + 4 - offset);
        if (request.closes) return closeAfterAnswer();
        offset = end + 4;
      }
      pending = undefined;
    };

    /**
     * Answers nothing more while a page is rendered for `request`, the first request in `from`;
     * then goes on with the requests after it (from `restStart` on, and whatever arrived
     * meanwhile), or hands node:http all of them if it was not answered here.
     */
    const awaitAnswer = (answered: Promise<boolean>, request: WireRequest, from: Buffer, restStart: number) => {
      pending = undefined;
      const held = (heldDuringRender = { reads: [from], bytes: from.length });
      // Not idle while it waits: closeIdleConnections() leaves it, and no idle timeout ends it.
      reading.delete(socket);
      socket.setTimeout(0);
      void answered.then((written) => {
        heldDuringRender = undefined;
        if (socket.destroyed) return;
        const requests = held.reads.length === 1 ? from : Buffer.concat(held.reads, held.bytes);
        if (!written) return handOver(requests);
        reading.add(socket);
        socket.setTimeout(server.keepAliveTimeout);
        if (request.closes) return closeAfterAnswer();
        socket.resume();
        if (restStart < requests.length) answer(requests.subarray(restStart));
      });
    };

    /** Whatever the client sent after asking to close is not read, as with node:http. */
    const closeAfterAnswer = () => {
      reading.delete(socket);
      endConnectionReads(socket, received);
      closeAfterWriting(socket);
    };

    reading.add(socket);
    socket.setTimeout(server.keepAliveTimeout);
    for (const [event, listener] of Object.entries(listeners)) socket.on(event, listener);
    readConnection(socket, received);
  });
}
