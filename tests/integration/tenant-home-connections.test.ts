import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Socket } from "node:net";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { registerUser } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { serveHomePages, type HomePageServer } from "../helpers/home-server.ts";
import { parseHomeRequest } from "../../server/tenant-home-connections.ts";
import { CENTERS_CHANNEL } from "../../server/services/tenants.ts";
import { announcementsSettled } from "../helpers/wait.ts";

/**
 * Cached home pages answered on the connection itself (server/tenant-home-connections.ts), seen
 * as a client sees them on the wire: several requests in one write, requests this reader must
 * leave to node:http, and the connection's life (idle, close, shutdown).
 */
let t: TestApp;
let served: HomePageServer;
const HOST = "wire.test";

beforeAll(async () => {
  t = await createTestApp();
  served = await serveHomePages(t, { onConnections: true });
  const owner = await registerUser(t, "business");
  await createCenter(t, owner.user._id, { instituteName: "Wire Academy", slug: "wire", customDomain: HOST });
  // On PostgreSQL the center's announcement comes back later and would empty the host cache.
  await announcementsSettled(t.database, CENTERS_CHANNEL);
  // The first visit renders the page through the app and caches it.
  expect(statuses(await exchange(home()))).toEqual([200]);
});
afterAll(async () => {
  await served.close();
  await t.close();
});

const home = (method = "GET", extra = "") => `${method} / HTTP/1.1\r\nHost: ${HOST}\r\n${extra}\r\n`;

interface Exchange {
  /** Everything the server sent, as latin1. */
  text: string;
  /** Whether the server ended the connection. */
  closed: boolean;
}

/**
 * Opens a connection, writes each of `writes` (a short pause between them), and collects what
 * comes back until the server closes or `quietMs` pass without a byte.
 */
function exchange(writes: string | string[], quietMs = 300): Promise<Exchange> {
  const parts = Array.isArray(writes) ? writes : [writes];
  return new Promise((resolve, reject) => {
    const socket = connect(served.port, "127.0.0.1");
    let text = "";
    let quiet: NodeJS.Timeout | undefined;
    const finish = (closed: boolean) => {
      clearTimeout(quiet);
      socket.destroy();
      resolve({ text, closed });
    };
    const rearm = () => {
      clearTimeout(quiet);
      quiet = setTimeout(() => finish(false), quietMs);
    };
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString("latin1");
      rearm();
    });
    socket.on("end", () => finish(true));
    socket.on("error", reject);
    socket.on("connect", async () => {
      for (const [i, part] of parts.entries()) {
        if (i > 0) await new Promise((r) => setTimeout(r, 50));
        socket.write(part, "latin1");
      }
      rearm();
    });
  });
}

/** The status codes of every answer in a stream of them, in order. */
function statuses({ text }: Exchange): number[] {
  return [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
}

function counted<T>(run: () => Promise<T>): Promise<{ result: T; nodeHttp: number; app: number }> {
  const nodeHttp = served.reachedNodeHttp;
  const app = served.reachedApp;
  return run().then((result) => ({ result, nodeHttp: served.reachedNodeHttp - nodeHttp, app: served.reachedApp - app }));
}

describe("home pages answered on the connection", () => {
  it("answers several requests in one write, in order, without node:http", async () => {
    const { result, nodeHttp } = await counted(() => exchange(home() + home("HEAD") + home("GET", "If-None-Match: \"nope\"\r\n")));
    expect(statuses(result)).toEqual([200, 200, 200]);
    expect(nodeHttp).toBe(0);
    expect(result.text.match(/Wire Academy/g)?.length).toBeGreaterThanOrEqual(2);
    expect(result.closed).toBe(false);
  });

  it("answers a HEAD the app has to answer, and the requests after it on the same connection", async () => {
    // The host forgotten, so the app answers the HEAD (and caches the host again).
    await t.services.tenants.changed();
    await announcementsSettled(t.database, CENTERS_CHANNEL);
    const { result, app } = await counted(() => exchange(home("HEAD") + home()));
    expect(statuses(result)).toEqual([200, 200]);
    expect(app).toBeGreaterThanOrEqual(1);
    const [headAnswer, getAnswer] = result.text.split(/(?=HTTP\/1\.1 \d{3} )/);
    const length = (answer: string) => /\r\ncontent-length: (\d+)\r\n/i.exec(answer)?.[1];
    expect(headAnswer).not.toContain("Wire Academy");
    expect(getAnswer).toContain("Wire Academy");
    expect(length(headAnswer)).toBe(length(getAnswer));
    expect(result.closed).toBe(false);
  });

  it("hands the connection to node:http at the first request it cannot answer, with every byte after it", async () => {
    const login = `POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`;
    const { result, nodeHttp } = await counted(() => exchange(home() + `GET /api/nope HTTP/1.1\r\nHost: localhost\r\n\r\n` + home() + login + home()));
    expect(statuses(result)).toEqual([200, 404, 200, 400, 200]);
    // The first page was answered here; the rest went through node:http.
    expect(nodeHttp).toBe(4);
  });

  it("leaves a request split over two writes to node:http, which answers it", async () => {
    const request = home();
    const { result, nodeHttp } = await counted(() => exchange([request.slice(0, 20), request.slice(20)]));
    expect(statuses(result)).toEqual([200]);
    expect(nodeHttp).toBe(1);
  });

  it("never frames a request differently from node:http", async () => {
    // A GET with a body: node:http reads the five bytes as its body, not as a request.
    const withBody = await counted(() => exchange(home("GET", "Content-Length: 5\r\n") + "hello" + home()));
    expect(statuses(withBody.result)).toEqual([200, 200]);
    expect(withBody.nodeHttp).toBe(2);
    // Malformed heads are node:http's to refuse.
    for (const bad of [`GET / HTTP/1.1\r\nHost: ${HOST}\r\nX-Folded: a\r\n b\r\n\r\n`, `GET / HTTP/1.1\r\nHost: ${HOST}\r\nBad Name: x\r\n\r\n`, `GET / HTTP/1.1\nHost: ${HOST}\n\n`]) {
      const answer = await counted(() => exchange(bad));
      expect(statuses(answer.result)).toEqual([400]);
      expect(answer.result.closed).toBe(true);
    }
  });

  it("reads only plain GET and HEAD of / with strict, unrepeated headers", () => {
    expect(parseHomeRequest(`GET / HTTP/1.1\r\nHost: ${HOST}\r\nAccept-Encoding: gzip, br`)?.header("accept-encoding")).toBe("gzip, br");
    expect(parseHomeRequest(`HEAD / HTTP/1.1\r\nhost:${HOST}  `)?.header("host")).toBe(HOST);
    expect(parseHomeRequest(`GET / HTTP/1.1\r\nHost: ${HOST}\r\nConnection: close`)?.closes).toBe(true);
    for (const head of [
      `GET /?x=1 HTTP/1.1\r\nHost: ${HOST}`,
      `POST / HTTP/1.1\r\nHost: ${HOST}`,
      `GET / HTTP/1.0\r\nHost: ${HOST}`,
      `GET / HTTP/1.1`,
      `GET / HTTP/1.1\r\nHost: ${HOST}\r\nHost: other.test`,
      `GET / HTTP/1.1\r\nHost: ${HOST}\r\nTransfer-Encoding: chunked`,
      `GET / HTTP/1.1\r\nHost: ${HOST}\r\nUpgrade: websocket`,
      `GET / HTTP/1.1\r\nHost: ${HOST}\r\nConnection: upgrade`,
      `GET / HTTP/1.1\r\nHost: ${HOST}\r\nX-Bad: a\x00b`,
      `\r\nGET / HTTP/1.1\r\nHost: ${HOST}`,
    ]) {
      expect(parseHomeRequest(head), JSON.stringify(head)).toBeUndefined();
    }
  });

  it("answers a client that asks to close, then closes", async () => {
    const { result, nodeHttp } = await counted(() => exchange(home("GET", "Connection: close\r\n") + home()));
    expect(statuses(result)).toEqual([200]);
    expect(result.text).toContain("Connection: close\r\n");
    expect(result.text).not.toContain("Keep-Alive:");
    expect(result.closed).toBe(true);
    expect(nodeHttp).toBe(0);
  });

  it("answers hundreds of requests sent at once to a client that reads them late", async () => {
    const socket: Socket = connect(served.port, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.pause();
    socket.write(home().repeat(300));
    await new Promise((resolve) => setTimeout(resolve, 300));
    let text = "";
    socket.on("data", (chunk: Buffer) => (text += chunk.toString("latin1")));
    socket.resume();
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if ((text.match(/HTTP\/1\.1 200 /g)?.length ?? 0) >= 300) {
          clearInterval(check);
          resolve();
        }
      }, 20);
    });
    expect(text.match(/HTTP\/1\.1 200 /g)?.length).toBe(300);
    socket.destroy();
  });

  it("closes a connection left idle past the keep-alive timeout", async () => {
    const before = served.server.keepAliveTimeout;
    served.server.keepAliveTimeout = 200;
    try {
      const answer = await exchange(home(), 2000);
      expect(answer.text).toContain("Keep-Alive: timeout=0");
      expect(answer.closed).toBe(true);
    } finally {
      served.server.keepAliveTimeout = before;
    }
  });

  it("closes its idle connections when the server shuts down", async () => {
    const closing = exchange(home(), 5000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    served.server.closeIdleConnections();
    const answer = await closing;
    expect(statuses(answer)).toEqual([200]);
    expect(answer.closed).toBe(true);
  });
});
