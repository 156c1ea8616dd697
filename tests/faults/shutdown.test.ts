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
          },
        },
        (res) => {
          let body = "";
          res.on("data", (d) => (body += d));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on("error", reject);
      req.write(head);
      setTimeout(() => req.end(tail), 1500);
    });
    await new Promise((r) => setTimeout(r, 400));
    f.server.child.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 300));

    // New connections are refused while it drains.
    await expect(fetch(`${f.server.base}/healthz`)).rejects.toThrow();

    const finished = await inFlight;
    expect(finished.status).toBe(201);
    expect(JSON.parse(finished.body).content.title).toBe("Drained Live Class");
    expect(await f.server.exited).toBe(0);
    expect(f.server.output()).not.toMatch(/forced exit/);
  }, 60_000);
});
