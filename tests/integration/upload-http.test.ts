import { request as httpRequest } from "node:http";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serve, type ServerType } from "@hono/node-server";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { registerUser } from "../helpers/http.ts";
import { waitFor } from "../helpers/wait.ts";

/** Uploads over a real socket: what a dropped connection or an oversized file leaves behind. */
let t: TestApp;
let server: ServerType;
let port: number;
let token: string;

beforeAll(async () => {
  t = await createTestApp({ MAX_PDF_BYTES: String(1024 * 1024) });
  server = serve({ fetch: t.app.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise((resolve) => server.once("listening", resolve));
  port = (server.address() as AddressInfo).port;
  token = (await registerUser(t, "creator")).access_token;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

/** Every file under DATA_DIR/files, as paths relative to it (unfinished ones are under .partial/). */
const stored = () => {
  const root = join(t.env.DATA_DIR, "files");
  try {
    return readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name).slice(root.length + 1));
  } catch {
    return [];
  }
};

const BOUNDARY = "----pathshala-test";
const head = (fields: Record<string, string>, fileName: string) =>
  Object.entries(fields)
    .map(([k, v]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join("") +
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`;

function openUpload(contentLength: number) {
  return httpRequest({
    host: "127.0.0.1",
    port,
    method: "POST",
    path: "/api/content",
    headers: {
      host: "localhost",
      authorization: `Bearer ${token}`,
      "content-type": `multipart/form-data; boundary=${BOUNDARY}`,
      "content-length": contentLength,
    },
  });
}

describe("uploads over HTTP", () => {
  it("removes the partial file when the client goes away midway", async () => {
    const before = stored();
    const req = openUpload(50 * 1024 * 1024);
    req.on("error", () => {});
    req.write(head({ title: "Dropped", type: "video" }, "clip.mp4"));
    req.write(Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from("ftypisom"), Buffer.alloc(512 * 1024, 1)]));
    // The partial file exists while bytes flow…
    await waitFor(() => stored().some((name) => name.startsWith(".partial/")));
    req.destroy();
    // …and is gone once the connection drops.
    await waitFor(() => stored().length === before.length);
    expect(stored()).toEqual(before);
  });

  it("answers 413 while the client is still sending, and keeps nothing", async () => {
    const before = stored();
    const body = Buffer.concat([
      Buffer.from(head({ title: "Huge", type: "pdf" }, "huge.pdf")),
      Buffer.from("%PDF-1.7\n"),
      Buffer.alloc(3 * 1024 * 1024, 0x20),
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]);
    const req = openUpload(body.length);
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      req.on("response", (res) => {
        let text = "";
        res.on("data", (chunk) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, body: text }));
      });
      req.on("error", reject);
    });
    req.end(body);
    const res = await response;
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).error).toBe("The PDF must be 1 MB or smaller.");
    await waitFor(() => stored().length === before.length);
  });
});
