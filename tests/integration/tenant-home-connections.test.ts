import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import { connect, type Socket } from "node:net";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { registerUser } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { serveHomePages, type HomePageServer } from "../helpers/home-server.ts";
import { parseHomeRequest } from "../../server/tenant-home-connections.ts";
import { CENTERS_CHANNEL } from "../../server/services/tenants.ts";
import { announcementsSettled, waitFor } from "../helpers/wait.ts";
import { metrics } from "../../server/metrics.ts";

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

/** Forgets every cached host, page and answer, as any change to an institute does. */
async function forgetCaches(): Promise<void> {
  await t.services.tenants.changed();
  await announcementsSettled(t.database, CENTERS_CHANNEL);
}

/** A connection kept open across steps: what it has received, and a wait for the nth answer. */
async function openClient(): Promise<{ socket: Socket; text(): string; answers(count: number): Promise<void> }> {
  const socket = connect(served.port, "127.0.0.1");
  await new Promise((resolve) => socket.once("connect", resolve));
  let text = "";
  socket.on("data", (chunk: Buffer) => (text += chunk.toString("latin1")));
  socket.on("error", () => {});
  return { socket, text: () => text, answers: (count) => waitFor(() => statuses({ text, closed: false }).length >= count) };
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

  it("renders a page the caches do not hold, on the connection, and answers the requests after it there", async () => {
    await forgetCaches();
    const { result, nodeHttp, app } = await counted(() => exchange(home("HEAD") + home() + home()));
    expect(statuses(result)).toEqual([200, 200, 200]);
    expect(nodeHttp).toBe(0);
    expect(app).toBe(0);
    const [headAnswer, getAnswer] = result.text.split(/(?=HTTP\/1\.1 \d{3} )/);
    const length = (answer: string) => /\r\ncontent-length: (\d+)\r\n/i.exec(answer)?.[1];
    expect(headAnswer).not.toContain("Wire Academy");
    expect(getAnswer).toContain("Wire Academy");
    expect(length(headAnswer)).toBe(length(getAnswer));
    expect(result.closed).toBe(false);
  });

  it("keeps a connection whose pages a change forgot, as a proxy's long-lived one", async () => {
    const { result, nodeHttp } = await counted(async () => {
      const client = await openClient();
      client.socket.write(home());
      await client.answers(1);
      await forgetCaches();
      client.socket.write(home());
      await client.answers(2);
      client.socket.destroy();
      return client.text();
    });
    expect(statuses({ text: result, closed: false })).toEqual([200, 200]);
    expect(nodeHttp).toBe(0);
  });

  it("hands node:http a request for a host that is no live institute's, with every byte after it", async () => {
    const { result, nodeHttp } = await counted(() => exchange(`GET / HTTP/1.1\r\nHost: nobody.test\r\n\r\n` + home()));
    expect(statuses(result)).toEqual([404, 200]);
    expect(nodeHttp).toBe(2);
  });

  describe("while a page is rendered", () => {
    let release: () => void;
    let rendering: MockInstance<TestApp["services"]["sites"]["homePage"]>;

    beforeEach(async () => {
      await forgetCaches();
      const gate = new Promise<void>((resolve) => (release = resolve));
      const render = t.services.sites.homePage.bind(t.services.sites);
      rendering = vi.spyOn(t.services.sites, "homePage").mockImplementation(async (...args) => {
        await gate;
        return render(...args);
      });
    });
    afterEach(() => {
      release();
      rendering.mockRestore();
      t.draining = false;
    });

    const renderStarted = () => waitFor(() => rendering.mock.calls.length > 0);

    it("leaves the refusal to the app when the server begins to shut down", async () => {
      const answered = counted(() => exchange(home(), 500));
      await renderStarted();
      t.draining = true;
      release();
      const { result, app } = await answered;
      expect(statuses(result)).toEqual([503]);
      expect(app).toBe(1);
    });

    it("does not count the wait as idle time", async () => {
      const before = served.server.keepAliveTimeout;
      served.server.keepAliveTimeout = 100;
      try {
        const answered = exchange(home(), 1000);
        await renderStarted();
        await new Promise((resolve) => setTimeout(resolve, 300));
        release();
        expect(statuses(await answered)).toEqual([200]);
      } finally {
        served.server.keepAliveTimeout = before;
      }
    });

    it("reads no further from a client that sends more than a request head's worth while it waits, and loses none of it", async () => {
      let connection: Socket | undefined;
      served.server.once("connection", (socket: Socket) => (connection = socket));
      const client = await openClient();
      client.socket.write(home());
      await renderStarted();
      // Megabytes of further requests, each with a large header: far more than 16 KB of head.
      const padded = home("GET", `X-Pad: ${"p".repeat(8 * 1024)}\r\n`);
      const count = 1000;
      client.socket.write(padded.repeat(count));
      await waitFor(() => connection!.isPaused());
      const readWhilePaused = connection!.bytesRead;
      await new Promise((resolve) => setTimeout(resolve, 200));
      // What arrived before the pause (one read of up to 64 KB past the limit), and nothing since.
      expect(readWhilePaused).toBeLessThan(16 * 1024 + 2 * 64 * 1024);
      expect(connection!.bytesRead).toBe(readWhilePaused);
      release();
      await client.answers(count + 1);
      expect(statuses({ text: client.text(), closed: false })).toEqual(Array<number>(count + 1).fill(200));
      expect(connection!.bytesRead).toBe(home().length + padded.length * count);
      client.socket.destroy();
    });

    it("writes and records nothing for a client that left, and goes on serving", async () => {
      const answered = () => Number(/http_requests_total\{method="GET",route="tenant:\/",status="200"\} (\d+)/.exec(metrics.render())?.[1] ?? 0);
      const before = answered();
      const client = await openClient();
      client.socket.write(home());
      await renderStarted();
      // A reset, not a polite close: the server hears of it while it waits.
      client.socket.resetAndDestroy();
      await new Promise((resolve) => setTimeout(resolve, 50));
      release();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(answered()).toBe(before);
      expect(statuses(await exchange(home()))).toEqual([200]);
      expect(answered()).toBe(before + 1);
    });
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
