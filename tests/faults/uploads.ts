import { connect, type Socket } from "node:net";
import { expect } from "vitest";
import { call } from "./server.ts";

/** Helpers for the fault tests of uploads cut off midway. */

export const PASSWORD = "tangerine-kettle-42";
const MiB = 1024 * 1024;

/** A new creator account on the running server. */
export async function newCreator(base: string) {
  const email = `cut.${Date.now()}.${Math.random().toString(36).slice(2, 6)}@example.com`;
  const reg = await call(base, "/api/auth/register", {
    body: { name: "Cut Creator", email, password: PASSWORD, role: "creator" },
  });
  expect(reg.status).toBe(201);
  return { id: reg.json.user._id as string, email, token: reg.json.access_token as string };
}

/** The titles of the signed-in creator's contents, as the API lists them. */
export async function contentsOf(base: string, token: string): Promise<string[]> {
  const mine = await call(base, "/api/content/my", { token });
  expect(mine.status).toBe(200);
  return (mine.json.contents as { title: string }[]).map((c) => c.title);
}

/**
 * Starts a video upload on a raw connection, as a browser's form sends it (fields first), and
 * sends the first `sendBytes` of a 50 MiB file; the rest never comes. Authenticated by a bearer
 * token, or by a session cookie (the page's own form).
 */
export async function startUpload(
  port: number,
  auth: { token?: string; cookie?: string },
  path = "/api/content",
  sendBytes = 4 * MiB,
): Promise<Socket> {
  const boundary = "----pathshala-cut";
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nHalf a video\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\nvideo\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="price"\r\n\r\n0\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="lecture.mp4"\r\nContent-Type: video/mp4\r\n\r\n`;
  const socket = connect(port, "127.0.0.1");
  socket.on("error", () => {});
  await new Promise((resolve) => socket.once("connect", resolve));
  const credentials = auth.token
    ? `Authorization: Bearer ${auth.token}\r\n`
    : `Cookie: ${auth.cookie}\r\nOrigin: http://127.0.0.1:${port}\r\n`;
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${credentials}` +
      `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${50 * MiB}\r\n\r\n`,
  );
  socket.write(head);
  socket.write(Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from("ftypisom"), Buffer.alloc(sendBytes, 7)]));
  return socket;
}
