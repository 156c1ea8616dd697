import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { runningServer } from "./server.ts";

/**
 * Malformed request heads, written byte for byte to the production server: each gets a
 * well-formed HTTP answer (never a dropped connection, never a 5xx), a request that names no
 * usable host is never taken for the platform, and the server still answers after each.
 */
const f = runningServer();

const INSTITUTE = "demo-t1.localhost";
const NOT_CONFIGURED = "This site is not configured";

interface Answer {
  status: number;
  headers: Map<string, string>;
  body: Buffer;
}

/** Writes `head` (latin1, so any byte can be sent) and reads one complete answer. */
function send(port: number, head: string, options: { head?: boolean } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let received = Buffer.alloc(0);
    const timer = setTimeout(
      () =>
        finish(
          new Error(`no complete answer within 10 s; got ${JSON.stringify(received.toString("latin1").slice(0, 200))}`),
        ),
      10_000,
    );
    const finish = (error?: Error) => {
      clearTimeout(timer);
      socket.destroy();
      if (error) return reject(error);
      const answer = parseAnswer(received, options.head ?? false, socket.readableEnded);
      if (answer) resolve(answer);
      else reject(new Error(`not a well-formed answer: ${JSON.stringify(received.toString("latin1").slice(0, 300))}`));
    };
    socket.on("data", (chunk) => {
      received = Buffer.concat([received, chunk]);
      if (parseAnswer(received, options.head ?? false)) finish();
    });
    socket.on("end", () => finish());
    socket.on("error", (error) => finish(error));
    socket.write(Buffer.from(head, "latin1"));
  });
}

/** One complete HTTP/1.x answer, or undefined while it is incomplete or malformed. */
function parseAnswer(bytes: Buffer, toHead: boolean, closed = false): Answer | undefined {
  const end = bytes.indexOf("\r\n\r\n");
  if (end < 0) return undefined;
  const lines = bytes.subarray(0, end).toString("latin1").split("\r\n");
  const statusLine = /^HTTP\/1\.[01] (\d{3}) [^\r\n]*$/.exec(lines[0]);
  if (!statusLine) return undefined;
  const headers = new Map<string, string>();
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(":");
    if (colon <= 0) return undefined;
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const status = Number(statusLine[1]);
  const rest = bytes.subarray(end + 4);
  if (toHead || status === 304 || status === 204) return { status, headers, body: Buffer.alloc(0) };
  const length = headers.get("content-length");
  if (length !== undefined)
    return rest.length >= Number(length) ? { status, headers, body: rest.subarray(0, Number(length)) } : undefined;
  if (headers.get("transfer-encoding") === "chunked") {
    const body: Buffer[] = [];
    let at = 0;
    for (;;) {
      const lineEnd = rest.indexOf("\r\n", at);
      if (lineEnd < 0) return undefined;
      const size = parseInt(rest.subarray(at, lineEnd).toString("latin1"), 16);
      if (Number.isNaN(size)) return undefined;
      if (rest.length < lineEnd + 2 + size + 2) return undefined;
      if (size === 0) return { status, headers, body: Buffer.concat(body) };
      body.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
  }
  // Neither length nor chunks: the body runs to the end of the connection.
  return closed ? { status, headers, body: rest } : undefined;
}

/** A request head: the request line, then each header line as given, then the blank line. */
const head = (requestLine: string, ...headers: string[]) => [requestLine, ...headers, "", ""].join("\r\n");

async function expectAlive(port: number) {
  const health = await send(port, head("GET /healthz HTTP/1.1", "Host: localhost", "Connection: close"));
  expect(health.status).toBe(200);
  expect(f.server.child.exitCode).toBeNull();
}

interface Case {
  name: string;
  head: string;
  /** The statuses this request may get. */
  statuses: number[];
  /** Text the answer's body must hold. */
  shows?: string;
}

const HOME_PATHS = ["/", "/?ref=ad", "/?"];

const cases: Case[] = [
  // No usable host: never the platform, on any path.
  ...["GET", "HEAD"].flatMap((method) =>
    ["HTTP/1.1", "HTTP/1.0"].flatMap((version) =>
      HOME_PATHS.map((path) => ({
        name: `${method} ${path} ${version}, empty Host`,
        head: head(`${method} ${path} ${version}`, "Host: ", "Connection: close"),
        statuses: [404],
        shows: method === "GET" ? NOT_CONFIGURED : undefined,
      })),
    ),
  ),
  {
    name: "GET / HTTP/1.1, Host with no value or space",
    head: head("GET / HTTP/1.1", "Host:", "Connection: close"),
    statuses: [404],
    shows: NOT_CONFIGURED,
  },
  ...["/", "/api/contents", "/api/pricing", "/pricing", "/auth", "/api/auth/me"].map((path) => ({
    name: `GET ${path} HTTP/1.0 without Host`,
    head: head(`GET ${path} HTTP/1.0`),
    statuses: [404],
    shows: NOT_CONFIGURED,
  })),
  ...[
    "/api/contents",
    "/api/businesses",
    "/robots.txt",
    "/_sandbox/razorpay/v1/orders",
    "/api/domains/ask?domain=demo-t1.localhost",
  ].map((path) => ({
    name: `GET ${path} with an empty Host`,
    head: head(`GET ${path} HTTP/1.1`, "Host: ", "Connection: close"),
    statuses: [404],
    shows: NOT_CONFIGURED,
  })),
  { name: "GET / HTTP/1.1 without Host", head: head("GET / HTTP/1.1", "Connection: close"), statuses: [400] },
  {
    name: "POST /api/auth/login with an empty Host",
    head:
      head(
        "POST /api/auth/login HTTP/1.1",
        "Host: ",
        "Content-Type: application/json",
        "Content-Length: 2",
        "Connection: close",
      ) + "{}",
    statuses: [404],
    shows: NOT_CONFIGURED,
  },

  // Two Host headers: ambiguous, so neither is served.
  {
    name: "two Host headers, institute first",
    head: head("GET / HTTP/1.1", `Host: ${INSTITUTE}`, "Host: localhost", "Connection: close"),
    statuses: [400, 404],
  },
  {
    name: "two Host headers, platform first",
    head: head("GET /api/contents HTTP/1.1", "Host: localhost", `Host: ${INSTITUTE}`, "Connection: close"),
    statuses: [400, 404],
  },

  // IP literals: the platform only when listed in PLATFORM_HOSTS (127.0.0.1 is by default).
  {
    name: "Host 127.0.0.1 (a platform host)",
    head: head("GET /healthz HTTP/1.1", "Host: 127.0.0.1:3000", "Connection: close"),
    statuses: [200],
  },
  {
    name: "Host 10.1.2.3",
    head: head("GET / HTTP/1.1", "Host: 10.1.2.3", "Connection: close"),
    statuses: [404],
    shows: NOT_CONFIGURED,
  },
  {
    name: "Host [::1]",
    head: head("GET / HTTP/1.1", "Host: [::1]:3000", "Connection: close"),
    statuses: [404],
    shows: NOT_CONFIGURED,
  },
  {
    name: "Host [::1 without its bracket",
    head: head("GET / HTTP/1.1", "Host: [::1", "Connection: close"),
    statuses: [400, 404],
  },

  // Hosts no DNS name can be.
  {
    name: "a 10 KB host",
    head: head("GET / HTTP/1.1", `Host: ${"a".repeat(10 * 1024)}.test`, "Connection: close"),
    statuses: [400, 404, 431],
  },
  {
    name: "a 10 KB host on the API",
    head: head("GET /api/contents HTTP/1.1", `Host: ${"a.".repeat(5 * 1024)}test`, "Connection: close"),
    statuses: [400, 404, 431],
  },
  {
    name: "a control character in the host",
    head: head("GET / HTTP/1.1", `Host: demo-t1\x01.localhost`, "Connection: close"),
    statuses: [400, 404],
  },
  {
    name: "a tab in the host",
    head: head("GET / HTTP/1.1", `Host: demo\t-t1.localhost`, "Connection: close"),
    statuses: [400, 404],
  },
  {
    name: "invalid UTF-8 in the host",
    head: head("GET / HTTP/1.1", `Host: demo-\xff\xfe.localhost`, "Connection: close"),
    statuses: [400, 404],
  },
  {
    name: "invalid UTF-8 in the host on the API",
    head: head("GET /api/contents HTTP/1.1", `Host: \xc3\x28`, "Connection: close"),
    statuses: [400, 404],
  },
  {
    name: "a host with a slash",
    head: head("GET / HTTP/1.1", "Host: demo-t1.localhost/evil", "Connection: close"),
    statuses: [400, 404],
  },
  {
    name: "a host with user information",
    head: head("GET / HTTP/1.1", "Host: evil@demo-t1.localhost", "Connection: close"),
    statuses: [400, 404],
  },
  {
    name: "a host with a non-numeric port",
    head: head("GET / HTTP/1.1", "Host: demo-t1.localhost:http", "Connection: close"),
    statuses: [200, 400, 404],
  },

  // Odd paths on an institute's host.
  {
    name: "a control character in the path",
    head: head("GET /\x01 HTTP/1.1", `Host: ${INSTITUTE}`, "Connection: close"),
    statuses: [400],
  },
  {
    name: "invalid UTF-8 in the path",
    head: head("GET /\xff\xfe HTTP/1.1", `Host: ${INSTITUTE}`, "Connection: close"),
    statuses: [400, 404],
  },
  {
    name: "invalid %-encoded UTF-8 in the path",
    head: head("GET /%ff%fe%c3%28 HTTP/1.1", `Host: ${INSTITUTE}`, "Connection: close"),
    statuses: [400, 404],
  },
  {
    name: "invalid %-encoding in the API path",
    head: head("GET /api/content/%E0%A4%A HTTP/1.1", `Host: ${INSTITUTE}`, "Connection: close"),
    statuses: [400, 401, 404],
  },
  {
    name: "a backslash in the path",
    head: head("GET /\\evil.test HTTP/1.1", `Host: ${INSTITUTE}`, "Connection: close"),
    statuses: [400, 404],
  },
  {
    name: "an asterisk target",
    head: head("GET * HTTP/1.1", `Host: ${INSTITUTE}`, "Connection: close"),
    statuses: [400, 404],
  },
  {
    name: "OPTIONS *",
    head: head("OPTIONS * HTTP/1.1", `Host: ${INSTITUTE}`, "Connection: close"),
    statuses: [400, 404, 405],
  },

  // Absolute-form targets: served only when they name the same host as Host.
  {
    name: "absolute-form naming the Host",
    head: head(`GET http://${INSTITUTE}/ HTTP/1.1`, `Host: ${INSTITUTE}`, "Connection: close"),
    statuses: [200],
  },
  {
    name: "absolute-form naming another host",
    head: head("GET http://evil.test/ HTTP/1.1", `Host: ${INSTITUTE}`, "Connection: close"),
    statuses: [404],
    shows: NOT_CONFIGURED,
  },
  {
    name: "absolute-form naming the platform on an institute's Host",
    head: head("GET http://localhost/api/contents HTTP/1.1", `Host: ${INSTITUTE}`, "Connection: close"),
    statuses: [404],
    shows: NOT_CONFIGURED,
  },
  {
    name: "absolute-form with an empty Host",
    head: head(`GET http://${INSTITUTE}/ HTTP/1.1`, "Host: ", "Connection: close"),
    statuses: [404],
    shows: NOT_CONFIGURED,
  },
  {
    name: "absolute-form over HTTP/1.0 without Host",
    head: head("GET http://localhost/api/contents HTTP/1.0"),
    statuses: [404],
    shows: NOT_CONFIGURED,
  },
  {
    name: "absolute-form with an unparsable authority",
    head: head("GET http://[zz]/ HTTP/1.1", `Host: ${INSTITUTE}`, "Connection: close"),
    statuses: [400, 404],
  },
  {
    name: "absolute-form with another scheme",
    head: head(`GET ftp://${INSTITUTE}/ HTTP/1.1`, `Host: ${INSTITUTE}`, "Connection: close"),
    statuses: [400, 404],
  },

  // The institute's home page on every path it is answered on, both versions, both methods.
  ...["GET", "HEAD"].flatMap((method) =>
    ["HTTP/1.1", "HTTP/1.0"].flatMap((version) =>
      HOME_PATHS.map((path) => ({
        name: `${method} ${path} ${version} on the institute`,
        head: head(`${method} ${path} ${version}`, `Host: ${INSTITUTE}`, "Connection: close"),
        statuses: [200],
      })),
    ),
  ),
  {
    name: "the home page with a trailing dot in the host",
    head: head("GET / HTTP/1.1", `Host: ${INSTITUTE}.`, "Connection: close"),
    statuses: [200],
  },
  {
    name: "the home page, host in capitals with a port",
    head: head("GET / HTTP/1.1", `Host: DEMO-T1.LOCALHOST:3000`, "Connection: close"),
    statuses: [200],
  },
];

describe("malformed request heads against the production server", () => {
  for (const c of cases) {
    it(c.name, async () => {
      const answer = await send(f.server.port, c.head, { head: c.head.startsWith("HEAD ") });
      expect(c.statuses).toContain(answer.status);
      if (c.shows) expect(answer.body.toString("utf8")).toContain(c.shows);
      // A request without a usable host never sees the platform's data.
      if (answer.status === 404 && c.shows) expect(answer.body.toString("utf8")).not.toContain('"collections"');
      await expectAlive(f.server.port);
    });
  }

  it("keeps a kept-alive connection usable after an empty-Host request", async () => {
    const pair =
      head("GET / HTTP/1.1", "Host: ") + head("GET /healthz HTTP/1.1", "Host: localhost", "Connection: close");
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(f.server.port, "127.0.0.1", () => socket.write(pair));
      let text = "";
      socket.setEncoding("latin1");
      socket.on("data", (d) => (text += d));
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
      setTimeout(() => reject(new Error(`connection not closed: ${text.slice(0, 200)}`)), 10_000).unref();
    });
    const statuses = [...raw.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
    expect(statuses).toEqual([404, 200]);
    await expectAlive(f.server.port);
  });
});
