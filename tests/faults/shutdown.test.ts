import { request } from "node:http";
import { describe, expect, it } from "vitest";
import { call, runningServer } from "./server.ts";

const f = runningServer();

describe("SIGTERM (rolling deploys)", () => {
  it("finishes in-flight requests, refuses new ones, and exits cleanly", async () => {
    const reg = await call(f.server.base, "/api/auth/register", {
      body: {
        name: "Slow Creator",
        email: `slow.${Date.now()}@example.com`,
        password: "tangerine-kettle-42",
        role: "creator",
      },
    });
    const token = reg.json.access_token as string;

    // A live-class upload whose body arrives slowly: in flight when the signal comes.
    const boundary = "----pathshala-fault";
    const part = (name: string, value: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const head = part("title", "Drained Live Class") + part("type", "live") + part("price", "0");
    const tail = part("liveLink", "https://meet.example.com/drained") + `--${boundary}--\r\n`;
    let sendTail = () => {};
    let started = () => {};
    const requestStarted = new Promise<void>((resolve) => (started = resolve));
    const inFlight = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port: f.server.port,
          path: "/api/content",
          method: "POST",
          headers: {
            authorization: `Bearer ${token}`,
            "content-type": `multipart/form-data; boundary=${boundary}`,
            "content-length": Buffer.byteLength(head + tail),
            // The server's "100 Continue" says it has read the request's head: the request is in
            // flight, not an idle connection a closing server may drop.
            expect: "100-continue",
          },
        },
        (res) => {
          let body = "";
          res.on("data", (d) => (body += d));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on("error", reject);
      req.on("continue", () => req.write(head, () => started()));
      sendTail = () => req.end(tail);
    });
    await requestStarted;
    f.server.child.kill("SIGTERM");

    // New connections are refused while it drains (until the listener has closed, a request that
    // still reaches it is answered 503 and its connection closed).
    await expect
      .poll(
        () =>
          fetch(`${f.server.base}/healthz`).then(
            (res) => res.status,
            () => "refused",
          ),
        { timeout: 20_000, interval: 50 },
      )
      .toBe("refused");
    sendTail();

    const finished = await inFlight;
    expect(finished.status).toBe(201);
    expect(JSON.parse(finished.body).content.title).toBe("Drained Live Class");
    expect(await f.server.exited).toBe(0);
    expect(f.server.output()).not.toMatch(/forced exit/);
  }, 60_000);
});
